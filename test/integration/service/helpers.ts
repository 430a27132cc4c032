// Starts the local service in-process for a test file and calls it through the contract: every
// answer is validated against the response schema that shared/service/openapi.yaml documents for
// its operation and status, and every call is recorded so a test can prove coverage.
import { request as httpRequest } from 'node:http';
import { fillPath, serviceOperations, type OperationId } from '../../../shared/service/index';
import { responseValidator } from '../../service/contract';
import { startService, type RunningService } from '../../service/server';
import type { ServiceOptions } from '../../service/options';
import { parseKey } from '../../service/auth';

export const TOKENS = {
  full: 'test-full-access',
  limited: 'test-public-only',
  citations: 'test-citations-only',
  patents: 'test-evidence-patents',
} as const;

export const TEST_PAPERS = 1500;
export const TEST_SEED = 7;

export async function startTestService(overrides: Partial<ServiceOptions> = {}): Promise<RunningService> {
  return startService({
    port: 0,
    papers: TEST_PAPERS,
    seed: TEST_SEED,
    assistantSteps: 'instant',
    referenceCheckMs: 0,
    // Tests call anonymously a lot; the rate-limit tests set the real anonymous limits themselves.
    anonymousPerSecond: 100_000,
    anonymousPerMinute: 1_000_000,
    keyedPerSecond: 100_000,
    keyedPerMinute: 1_000_000,
    keys: [
      parseKey(`${TOKENS.full}=*`),
      parseKey(`${TOKENS.limited}=public`),
      parseKey(`${TOKENS.citations}=citations`),
      parseKey(`${TOKENS.patents}=evidence-patents`),
    ],
    ...overrides,
  });
}

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | Array<string | number>>;
  body?: unknown;
  /** Raw body (already encoded) with its content type, e.g. multipart. */
  rawBody?: { data: BodyInit; contentType?: string };
  token?: string | null;
  headers?: Record<string, string>;
}

export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Operations and statuses seen, for coverage assertions. */
export const seen = new Map<OperationId, Set<number>>();

export function urlFor(base: string, operationId: OperationId, options: CallOptions = {}): string {
  const op = serviceOperations[operationId];
  const path = fillPath(op.path, options.params ?? {});
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(options.query ?? {})) {
    for (const item of Array.isArray(v) ? v : [v]) search.append(k, String(item));
  }
  const qs = search.toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

export async function call<T = Record<string, unknown>>(
  service: { url: string },
  operationId: OperationId,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const op = serviceOperations[operationId];
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const token = options.token === undefined ? TOKENS.full : options.token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.rawBody) {
    body = options.rawBody.data;
    if (options.rawBody.contentType) headers['content-type'] = options.rawBody.contentType;
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const url = urlFor(service.url, operationId, options);
  // fetch refuses a GET with a body, which GET /tallies takes; node:http does not.
  const res =
    op.method === 'get' && typeof body === 'string'
      ? await getWithBody(url, headers, body)
      : await fetch(url, { method: op.method.toUpperCase(), headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new Error(`${operationId} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  const validate = responseValidator(operationId, res.status);
  if (validate && !validate(parsed)) {
    throw new Error(
      `${operationId} ${res.status} does not match the contract: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}\nbody: ${text.slice(0, 600)}`,
    );
  }
  const statuses = seen.get(operationId) ?? new Set<number>();
  statuses.add(res.status);
  seen.set(operationId, statuses);
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Polls a task operation until a terminal status (or a bound on polls). */
export async function pollUntilDone<T extends { status: string }>(
  service: { url: string },
  operationId: OperationId,
  taskId: string,
  max = 40,
  onEach?: (task: T) => void,
): Promise<T> {
  for (let i = 0; i < max; i++) {
    const res = await call<T>(service, operationId, { params: { task_id: taskId } });
    onEach?.(res.body);
    if (['SUCCESS', 'FAILURE', 'CANCELLED', 'REVOKED'].includes(res.body.status)) return res.body;
  }
  throw new Error(`task ${taskId} did not finish after ${max} polls`);
}

function getWithBody(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'GET', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: h }));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
