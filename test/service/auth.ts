// API keys and their scopes. The scope an operation needs, and whether it needs a token at all,
// come from the contract's operation table (x-citewise-scope and security).
import { randomBytes } from 'node:crypto';
import { SERVICE_SCOPES, isServiceScope, type ServiceScope, type ServiceOperation } from '../../shared/service/index';
import { HttpError } from './http';

export interface ApiKey {
  token: string;
  /** Granted scopes; '*' grants every scope. */
  scopes: ReadonlySet<ServiceScope | '*'>;
  label?: string;
}

/** Parses TOKEN=SCOPE,SCOPE (or TOKEN=*). */
export function parseKey(spec: string): ApiKey {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new Error(`--key expects TOKEN=SCOPE[,SCOPE...] or TOKEN=*, got "${spec}"`);
  const token = spec.slice(0, eq);
  const scopes = new Set<ServiceScope | '*'>();
  for (const s of spec
    .slice(eq + 1)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    if (s === '*') scopes.add('*');
    else if (isServiceScope(s)) scopes.add(s);
    else throw new Error(`unknown scope "${s}"; scopes: *, ${SERVICE_SCOPES.join(', ')}`);
  }
  return { token, scopes };
}

export function demoKeys(): ApiKey[] {
  const make = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;
  return [
    { token: make('demo_full'), scopes: new Set(['*']), label: 'full access' },
    {
      token: make('demo_limited'),
      scopes: new Set<ServiceScope>(['public']),
      label: 'papers, tallies, journals, authors and search only',
    },
  ];
}

export function describeScopes(key: ApiKey): string {
  return key.scopes.has('*') ? '* (every scope)' : [...key.scopes].join(', ');
}

/** The bearer token of a request: the Authorization header, "Bearer <token>". */
export function bearerToken(header: string | string[] | undefined): string | undefined | null {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(value ?? '');
  return m ? m[1]! : null;
}

export class KeyRing {
  private readonly byToken = new Map<string, ApiKey>();
  constructor(keys: readonly ApiKey[]) {
    for (const k of keys) this.byToken.set(k.token, k);
  }

  /** The key of a request; throws 401 for a malformed or unknown credential. */
  identify(header: string | string[] | undefined): ApiKey | undefined {
    const token = bearerToken(header);
    if (token === undefined) return undefined;
    if (token === null)
      throw new HttpError(401, 'Invalid authorization header: expected "Bearer <token>"', {
        'WWW-Authenticate': 'Bearer',
      });
    const key = this.byToken.get(token);
    if (!key)
      throw new HttpError(401, 'Invalid token: this API key is not recognised', {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    return key;
  }

  /** 401 when a token is needed and missing; 403 when the key lacks the operation's scope. */
  authorize(op: ServiceOperation, key: ApiKey | undefined): void {
    if (!key) {
      if (op.auth === 'required')
        throw new HttpError(
          401,
          `Not authenticated: this operation needs a bearer token${op.scope === 'public' ? '' : ` with the "${op.scope}" scope`}`,
          { 'WWW-Authenticate': 'Bearer' },
        );
      return;
    }
    if (op.scope === 'public' || key.scopes.has('*') || key.scopes.has(op.scope)) return;
    throw new HttpError(
      403,
      `This token lacks the "${op.scope}" scope needed for ${op.method.toUpperCase()} ${op.path}`,
    );
  }
}
