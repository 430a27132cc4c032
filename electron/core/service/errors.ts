// Every way a call to the service can fail, as the closed IPC error set, each with a message a
// researcher understands. Messages are written here from fixed text, the operation's scope and the
// service's own `detail`; the API key is never part of any of them (and is redacted from `detail`
// in case a service echoes it back).
import type { ErrorCode } from '../../../shared/ipc';
import type { ServiceOperation, ServiceScope } from '../../../shared/service';
import { CoreError } from '../errors';

/** What each scope grants, in the words of the account console. */
export const SCOPE_DESCRIPTIONS: Record<ServiceScope, string> = {
  public: 'papers, tallies, journals, authors and search',
  citations: 'the citation graph (citing papers and references)',
  collections: 'Collections',
  assistant: 'the Assistant',
  'reference-check': 'Reference Check',
  'evidence-patents': 'the patents evidence dataset',
  'evidence-clinical-trials': 'the clinical trials evidence dataset',
  'evidence-grants': 'the grants evidence dataset',
  'evidence-device510k': 'the 510(k) device clearances evidence dataset',
  'evidence-faers': 'the FAERS drug adverse-event evidence dataset',
  'evidence-maude': 'the MAUDE device adverse-event evidence dataset',
};

export interface ServiceErrorDetails {
  operation: string;
  status?: number;
  /** The service's own explanation, when it gave one (for VALIDATION, its list of problems). */
  detail?: unknown;
  retryAfterSeconds?: number;
  scope?: ServiceScope;
}

/** A failed service call; a CoreError, so it crosses IPC as `{ code, message, details }`. */
export class ServiceError extends CoreError {
  declare readonly details: ServiceErrorDetails;
  /** Whether trying again may help (the retry policy still decides whether it is safe). */
  readonly transient: boolean;
  /** Milliseconds the service asked us to wait (Retry-After), when it did. */
  readonly retryAfterMs: number | undefined;
  /** A failure to reach the service at all: what the circuit breaker counts. */
  readonly network: boolean;

  constructor(
    code: ErrorCode,
    message: string,
    details: ServiceErrorDetails,
    flags: { transient?: boolean; retryAfterMs?: number; network?: boolean } = {},
  ) {
    super(code, message, details);
    this.name = 'ServiceError';
    this.transient = flags.transient ?? false;
    this.retryAfterMs = flags.retryAfterMs;
    this.network = flags.network ?? false;
  }
}

export function redact(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  let out = text.split(secret).join('[redacted]');
  // A service could also echo it encoded; the canary test checks these forms too.
  for (const form of [encodeURIComponent(secret), Buffer.from(secret).toString('base64')])
    out = out.split(form).join('[redacted]');
  return out;
}

/** The service's `detail` as one line: a string as is, a FastAPI list as "where: what; …". */
export function describeDetail(detail: unknown): string {
  if (typeof detail === 'string') return detail.slice(0, 500);
  if (Array.isArray(detail)) {
    return detail
      .slice(0, 5)
      .map((d) => {
        const item = d as { loc?: unknown[]; msg?: unknown };
        const loc = Array.isArray(item.loc)
          ? item.loc.filter((p) => p !== 'body' && p !== 'query' && p !== 'path').join('.')
          : '';
        const msg = typeof item.msg === 'string' ? item.msg : 'invalid';
        return loc ? `${loc}: ${msg}` : msg;
      })
      .join('; ')
      .slice(0, 500);
  }
  return '';
}

function sentence(text: string): string {
  const t = text.trim();
  return t === '' ? '' : /[.!?]$/.test(t) ? ` ${t}` : ` ${t}.`;
}

function scopeOf(op: ServiceOperation): ServiceScope {
  return op.scope as ServiceScope;
}

export interface HttpFailure {
  operationId: string;
  op: ServiceOperation;
  status: number;
  /** The parsed JSON body's `detail`, if any. */
  detail: unknown;
  retryAfterMs: number | undefined;
  hasKey: boolean;
  key: string | null;
}

/** Maps an HTTP error answer to the closed error set. */
export function errorFromStatus(f: HttpFailure): ServiceError {
  const scope = scopeOf(f.op);
  const detailText = redact(describeDetail(f.detail), f.key);
  const base: ServiceErrorDetails = { operation: f.operationId, status: f.status };
  if (detailText) base.detail = typeof f.detail === 'string' ? detailText : redactDeep(f.detail, f.key);
  const s = f.status;
  if (s >= 300 && s < 400) {
    // Redirects are not followed: the key must only ever go to the address the researcher chose.
    return new ServiceError(
      'SERVICE_ERROR',
      `The service address redirects elsewhere (HTTP ${s}). Check the service URL under Settings → Service: it may need https:// or a different path.`,
      base,
    );
  }
  if (s === 401) {
    return new ServiceError(
      'UNAUTHORIZED',
      f.hasKey
        ? 'The service did not accept your API key: it may be mistyped, revoked or expired. Check it under Settings → Service (or `citewise key set`).'
        : `This needs an API key with access to ${SCOPE_DESCRIPTIONS[scope]}. Add the key from your scite account under Settings → Service (or \`citewise key set\`).`,
      base,
    );
  }
  if (s === 403) {
    return new ServiceError(
      'FORBIDDEN',
      `Your API key does not include access to ${SCOPE_DESCRIPTIONS[scope]}. Access depends on your scite plan; the account console shows what your key grants.`,
      { ...base, scope },
    );
  }
  if (s === 404 || s === 410)
    return new ServiceError(
      'NOT_FOUND',
      `The service has no record of this.${sentence(detailText === 'Not Found' || detailText === 'Not found' ? '' : detailText)}`,
      base,
    );
  if (s === 408)
    return new ServiceError('TIMEOUT', 'The service took too long to answer. Try again in a moment.', base, {
      transient: true,
    });
  if (s === 409)
    return new ServiceError('CONFLICT', `The service refused this because of a conflict.${sentence(detailText)}`, base);
  if (s === 400 || s === 413 || s === 415 || s === 422) {
    return new ServiceError(
      'VALIDATION',
      `The service rejected the request:${sentence(detailText || `HTTP ${s}`)}`,
      base,
    );
  }
  if (s === 429) {
    const seconds = f.retryAfterMs === undefined ? undefined : Math.ceil(f.retryAfterMs / 1000);
    return new ServiceError(
      'RATE_LIMITED',
      `The service is receiving too many requests from Citewise${seconds === undefined ? '' : ` and asked it to wait ${seconds} s`}.${f.hasKey ? ' Try again shortly.' : ' An API key raises the limit.'}`,
      seconds === undefined ? base : { ...base, retryAfterSeconds: seconds },
      { transient: true, ...(f.retryAfterMs === undefined ? {} : { retryAfterMs: f.retryAfterMs }) },
    );
  }
  if (s >= 500) {
    const seconds = f.retryAfterMs === undefined ? undefined : Math.ceil(f.retryAfterMs / 1000);
    return new ServiceError(
      'SERVICE_ERROR',
      s === 503
        ? 'The citation service is temporarily unavailable. Citewise will try again; your library keeps working meanwhile.'
        : `The citation service had an internal problem (HTTP ${s}). Try again later; your library keeps working meanwhile.`,
      seconds === undefined ? base : { ...base, retryAfterSeconds: seconds },
      {
        transient: s === 500 || s === 502 || s === 503 || s === 504,
        ...(f.retryAfterMs === undefined ? {} : { retryAfterMs: f.retryAfterMs }),
      },
    );
  }
  return new ServiceError(
    'SERVICE_ERROR',
    `The service answered with an unexpected status (HTTP ${s}).${sentence(detailText)}`,
    base,
  );
}

function redactDeep(value: unknown, key: string | null): unknown {
  if (!key) return value;
  return JSON.parse(redact(JSON.stringify(value ?? null), key)) as unknown;
}

export function networkError(operationId: string, host: string): ServiceError {
  return new ServiceError(
    'OFFLINE',
    `Citewise cannot reach the citation service at ${host}. Check the network connection; your library keeps working offline.`,
    { operation: operationId },
    { transient: true, network: true },
  );
}

export function attemptTimeoutError(operationId: string, ms: number): ServiceError {
  return new ServiceError(
    'TIMEOUT',
    `The citation service did not answer within ${Math.round(ms / 1000)} s.`,
    { operation: operationId },
    { transient: true, network: true },
  );
}

export function deadlineError(operationId: string, ms: number): ServiceError {
  return new ServiceError(
    'TIMEOUT',
    `The request to the citation service did not complete within ${Math.round(ms / 1000)} s, retries included. Try again later.`,
    { operation: operationId },
  );
}

export function malformedError(operationId: string, status: number): ServiceError {
  return new ServiceError(
    'SERVICE_ERROR',
    'The citation service sent an answer Citewise could not read (incomplete or not JSON). Try again.',
    { operation: operationId, status },
    { transient: true },
  );
}

export function offlineError(reason: string): ServiceError {
  return new ServiceError(
    'OFFLINE',
    `Citewise is offline: ${reason} It checks the connection regularly and comes back online by itself.`,
    { operation: 'circuit-breaker' },
  );
}

export function cancelledError(operationId: string): ServiceError {
  return new ServiceError('CANCELLED', 'The request was cancelled.', { operation: operationId });
}
