// One call to the service: URL and headers from the contract's operation table, the key added here
// and nowhere else, then the resilience pipeline around every attempt:
//   Retry-After pause (shared by every call) → anonymous rate limit → circuit breaker → fetch with a
//   per-attempt timeout, inside an overall deadline; retries only where safe, with exponential
//   backoff and full jitter. Every call takes an AbortSignal.
// The retry loop is written here rather than with cockatiel's `retry`: that one sleeps with an
// uncancellable timer, and cannot share one Retry-After pause across calls or cap waits by the
// deadline. The backoff formula (cockatiel's full-jitter generator) and the circuit breaker
// (cockatiel's CircuitBreakerPolicy) come from cockatiel.
import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  IsolatedCircuitError,
  circuitBreaker,
  fullJitterGenerator,
  handleWhen,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { fillPath, serviceOperations, type OperationId, type ServiceOperation } from '../../../shared/service';
import { CoreError } from '../errors';
import type { Logger } from '../log';
import { abortError, raceAbort, systemClock, type Clock } from '../clock';
import {
  attemptTimeoutError,
  cancelledError,
  deadlineError,
  errorFromStatus,
  malformedError,
  networkError,
  offlineError,
  ServiceError,
} from './errors';
import { SlidingWindowLimiter, type RateWindow } from './rate-limiter';

/** The HTTP edge: Node's global fetch in production, a fake in tests. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | null | undefined;

export interface RequestSpec {
  operationId: OperationId;
  path?: Readonly<Record<string, string | number>>;
  query?: Readonly<Record<string, QueryValue>>;
  /** JSON body. */
  body?: unknown;
  /** Multipart body (reference-check uploads); takes precedence over `body`. */
  form?: FormData;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Overall time for the call, retries and pauses included. */
  deadlineMs?: number | undefined;
  attemptTimeoutMs?: number | undefined;
  /** Use this key (or none, with null) instead of the stored one: checking a key before storing it. */
  key?: string | null | undefined;
}

export interface TransportOptions {
  /** The service base URL, read at every call so a changed setting applies at once. */
  baseUrl: () => string;
  /** The API key for the current base URL, or null; read at every call (callers cache it). */
  getKey: () => Promise<string | null>;
  fetch?: FetchLike | undefined;
  clock?: Clock | undefined;
  logger?: Logger | undefined;
  attemptTimeoutMs?: number | undefined;
  deadlineMs?: number | undefined;
  /** Attempts per call, the first included. */
  maxAttempts?: number | undefined;
  backoffInitialMs?: number | undefined;
  backoffMaxMs?: number | undefined;
  /** Longest Retry-After honoured; longer ones fail the call with RATE_LIMITED at once. */
  maxRetryAfterMs?: number | undefined;
  /** Client-side limits without a key; the service's documented 10/s and 40/min by default. */
  anonymousLimits?: readonly RateWindow[] | undefined;
  rateMarginMs?: number | undefined;
  /** Consecutive network failures that open the circuit (the app goes offline). */
  breakerFailures?: number | undefined;
  /** How long the circuit stays open before a probe checks the service again. */
  probeAfterMs?: number | undefined;
  /** Told when the service is reachable again, or not; drives the app's connectivity state. */
  onConnectivity?: ((state: 'online' | 'offline', reason: string) => void) | undefined;
  userAgent?: string | undefined;
}

/** POSTs that only read, so repeating them is harmless. Other POSTs create something. */
const IDEMPOTENT_POSTS: ReadonlySet<OperationId> = new Set<OperationId>([
  'getPapers',
  'getTallies',
  'getAggregateTally',
  'getJournalIndexBulk',
  'getMaudeFacets',
]);

export function isIdempotent(operationId: OperationId): boolean {
  return serviceOperations[operationId].method === 'get' || IDEMPOTENT_POSTS.has(operationId);
}

export const DEFAULT_ANONYMOUS_LIMITS: readonly RateWindow[] = [
  { limit: 10, ms: 1000 },
  { limit: 40, ms: 60_000 },
];

/** Retry-After in milliseconds from now: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A probe path that any reachable service answers (404 for an unknown DOI) without a rate limit. */
const PROBE_OPERATION: OperationId = 'getTally';
const PROBE_DOI = '10.0000/citewise-connectivity-probe';

export class ServiceTransport {
  readonly #o: TransportOptions;
  readonly #fetch: FetchLike;
  readonly #clock: Clock;
  readonly #limiter: SlidingWindowLimiter;
  readonly #breaker: CircuitBreakerPolicy;
  readonly #lifetime = new AbortController();
  #pausedUntil = 0;
  #probing = false;
  #offlineReason = '';

  constructor(options: TransportOptions) {
    this.#o = options;
    this.#fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.#clock = options.clock ?? systemClock;
    this.#limiter = new SlidingWindowLimiter(
      options.anonymousLimits ?? DEFAULT_ANONYMOUS_LIMITS,
      this.#clock,
      options.rateMarginMs ?? 25,
    );
    this.#breaker = circuitBreaker(
      handleWhen((err) => err instanceof ServiceError && err.network),
      { halfOpenAfter: this.#probeAfter, breaker: new ConsecutiveBreaker(options.breakerFailures ?? 5) },
    );
    this.#breaker.onBreak((reason) => {
      const err = 'error' in reason ? reason.error : undefined;
      this.#offlineReason = err instanceof ServiceError ? err.message : 'the citation service cannot be reached.';
      this.#o.logger?.warn(`service unreachable after repeated failures; offline until a probe succeeds`);
      this.#o.onConnectivity?.('offline', this.#offlineReason);
      this.#scheduleProbe();
    });
    this.#breaker.onReset(() => {
      this.#o.logger?.info('service reachable again');
      this.#o.onConnectivity?.('online', '');
    });
  }

  get #probeAfter(): number {
    return this.#o.probeAfterMs ?? 10_000;
  }

  /** Whether the circuit is open (calls fail at once with OFFLINE). */
  get circuit(): 'closed' | 'open' | 'half-open' {
    const s = this.#breaker.state;
    return s === CircuitState.Closed ? 'closed' : s === CircuitState.HalfOpen ? 'half-open' : 'open';
  }

  /** When the shared Retry-After pause ends (0 when none). */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  close(): void {
    this.#lifetime.abort();
  }

  /** One call with retries; resolves with the parsed JSON of the success answer (undefined when empty). */
  async request<T>(spec: RequestSpec, options: CallOptions = {}): Promise<T> {
    const id = spec.operationId;
    const op = serviceOperations[id];
    const deadlineMs = options.deadlineMs ?? this.#o.deadlineMs ?? 120_000;
    const deadlineAt = this.#clock.now() + deadlineMs;
    const deadline = this.#clock.timeout(deadlineMs);
    const signals = [deadline.signal, this.#lifetime.signal];
    if (options.signal) signals.push(options.signal);
    const signal = AbortSignal.any(signals);
    const maxAttempts = this.#o.maxAttempts ?? 6;
    const safe = isIdempotent(id);
    try {
      if (options.signal?.aborted) throw cancelledError(id);
      if (op.method === 'get' && (spec.body !== undefined || spec.form !== undefined)) {
        // The Fetch standard (and so undici) refuses a body on GET: getTalliesViaGet cannot be sent.
        throw new ServiceError(
          'INVALID_INPUT',
          `${id} sends a body with GET, which HTTP clients following the Fetch standard refuse; use the POST form (getTallies), which the service prefers.`,
          { operation: id },
        );
      }
      const key = options.key !== undefined ? options.key : await raceAbort(this.#o.getKey(), signal);
      for (let attempt = 1; ; attempt++) {
        try {
          await this.#waitForPause(deadlineAt, signal);
          const release = !key && op.rateLimit === 'capped' ? await this.#limiter.acquire(signal) : undefined;
          try {
            return await this.#throughBreaker<T>(
              id,
              op,
              spec,
              key,
              options.attemptTimeoutMs ?? this.#o.attemptTimeoutMs ?? 30_000,
              signal,
            );
          } finally {
            release?.();
          }
        } catch (thrown) {
          const err = this.#settle(thrown, id, options.signal, deadline.signal, deadlineMs);
          if (!(err instanceof ServiceError)) throw err;
          // A 429 was not processed, so repeating it is always safe; anything else only when the operation is.
          const retryable = err.transient && (err.code === 'RATE_LIMITED' || safe);
          if (!retryable || attempt >= maxAttempts) throw err;
          const now = this.#clock.now();
          if (err.retryAfterMs !== undefined) {
            if (err.retryAfterMs > (this.#o.maxRetryAfterMs ?? 600_000) || now + err.retryAfterMs > deadlineAt)
              throw err;
            continue; // the shared pause, set when the answer came in, is waited for at the top
          }
          const [delay] = fullJitterGenerator(attempt - 1, {
            initialDelay: this.#o.backoffInitialMs ?? 250,
            maxDelay: this.#o.backoffMaxMs ?? 20_000,
            exponent: 2,
            generator: fullJitterGenerator,
          });
          if (now + delay > deadlineAt) throw err;
          this.#o.logger?.info(`${id}: ${err.code} (attempt ${attempt} of ${maxAttempts}); retrying in ${delay} ms`);
          await this.#clock.sleep(delay, signal);
        }
      }
    } catch (thrown) {
      throw this.#settle(thrown, id, options.signal, deadline.signal, deadlineMs);
    } finally {
      deadline.cancel();
    }
  }

  /** Turns whatever an attempt threw into a ServiceError, telling cancellation from deadline from timeout. */
  #settle(
    thrown: unknown,
    id: OperationId,
    caller: AbortSignal | undefined,
    deadline: AbortSignal,
    deadlineMs: number,
  ): CoreError {
    if (caller?.aborted || this.#lifetime.signal.aborted) return cancelledError(id);
    // ServiceErrors, and CoreErrors from the key's store, already say what happened in fixed words.
    if (thrown instanceof CoreError) return thrown;
    if (deadline.aborted) return deadlineError(id, deadlineMs);
    if (thrown instanceof BrokenCircuitError || thrown instanceof IsolatedCircuitError)
      return offlineError(this.#offlineReason || 'the citation service cannot be reached.');
    this.#o.logger?.error(`${id}: unexpected failure`, thrown);
    return new ServiceError(
      'INTERNAL',
      'Citewise hit an unexpected error talking to the service; details are in the log.',
      { operation: id },
    );
  }

  async #waitForPause(deadlineAt: number, signal: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.#clock.now();
      if (this.#pausedUntil <= now) return;
      if (this.#pausedUntil > deadlineAt) {
        const seconds = Math.ceil((this.#pausedUntil - now) / 1000);
        throw new ServiceError(
          'RATE_LIMITED',
          `The service asked Citewise to wait ${seconds} s, longer than this request may take. Try again later.`,
          { operation: 'pause', retryAfterSeconds: seconds },
        );
      }
      await this.#clock.sleep(this.#pausedUntil - now, signal);
    }
  }

  #throughBreaker<T>(
    id: OperationId,
    op: ServiceOperation,
    spec: RequestSpec,
    key: string | null,
    attemptTimeoutMs: number,
    signal: AbortSignal,
  ): Promise<T> {
    return this.#breaker.execute(() => this.#attempt<T>(id, op, spec, key, attemptTimeoutMs, signal), signal);
  }

  async #attempt<T>(
    id: OperationId,
    op: ServiceOperation,
    spec: RequestSpec,
    key: string | null,
    attemptTimeoutMs: number,
    outer: AbortSignal,
  ): Promise<T> {
    const base = this.#o.baseUrl().replace(/\/+$/, '');
    const url = base + fillPath(op.path, spec.path ?? {}) + queryString(spec.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#o.userAgent) headers['user-agent'] = this.#o.userAgent;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: BodyInit | undefined;
    if (spec.form) body = spec.form;
    else if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.body);
    }
    const timer = this.#clock.timeout(attemptTimeoutMs);
    const signal = AbortSignal.any([outer, timer.signal]);
    try {
      let response: Response;
      let text: string;
      try {
        response = await this.#fetch(url, {
          method: op.method.toUpperCase(),
          headers,
          body,
          signal,
          redirect: 'manual',
        });
        text = await response.text();
      } catch (err) {
        if (outer.aborted) throw abortError(outer);
        if (timer.signal.aborted) throw attemptTimeoutError(id, attemptTimeoutMs);
        void err; // its text may hold the URL; the host is enough for the researcher
        throw networkError(id, hostOf(base));
      }
      // While the circuit is open the breaker decides (onReset); a late answer must not contradict it.
      if (this.#breaker.state === CircuitState.Closed) this.#o.onConnectivity?.('online', '');
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.#clock.now());
      if ((response.status === 429 || response.status === 503) && retryAfterMs !== undefined) {
        // Retry-After speaks for the service, not for one request: every call waits.
        // Capped, so that a far-off HTTP date (a misconfigured proxy) cannot silence the app for days.
        this.#pausedUntil = Math.max(
          this.#pausedUntil,
          this.#clock.now() + Math.min(retryAfterMs, this.#o.maxRetryAfterMs ?? 600_000),
        );
        this.#o.logger?.info(`service asked to pause ${retryAfterMs} ms (HTTP ${response.status})`);
      }
      if (response.ok) {
        if (text.trim() === '') return undefined as T;
        try {
          return JSON.parse(text) as T;
        } catch {
          throw malformedError(id, response.status);
        }
      }
      let detail: unknown;
      try {
        detail = (JSON.parse(text) as { detail?: unknown }).detail;
      } catch {
        detail = undefined;
      }
      throw errorFromStatus({
        operationId: id,
        op,
        status: response.status,
        detail,
        retryAfterMs,
        hasKey: key !== null,
        key,
      });
    } finally {
      timer.cancel();
    }
  }

  #scheduleProbe(): void {
    if (this.#probing || this.#lifetime.signal.aborted) return;
    this.#probing = true;
    void (async () => {
      try {
        while (!this.#lifetime.signal.aborted && this.#breaker.state !== CircuitState.Closed) {
          // A little after the breaker's own half-open time, so the probe is the call it lets through.
          await this.#clock.sleep(this.#probeAfter + 50, this.#lifetime.signal);
          try {
            await this.#breaker.execute(() => this.#probe(), this.#lifetime.signal);
          } catch {
            // Still unreachable (the breaker reopened) or too early: the loop waits again.
          }
        }
      } catch {
        // The transport closed.
      } finally {
        this.#probing = false;
      }
    })();
  }

  /** Any HTTP answer means the service is reachable; only a network failure counts against it. */
  async #probe(): Promise<void> {
    const op = serviceOperations[PROBE_OPERATION];
    const base = this.#o.baseUrl().replace(/\/+$/, '');
    const timer = this.#clock.timeout(this.#o.attemptTimeoutMs ?? 30_000);
    try {
      const res = await this.#fetch(base + fillPath(op.path, { doi: PROBE_DOI }), {
        method: 'GET',
        headers: { accept: 'application/json' },
        signal: AbortSignal.any([timer.signal, this.#lifetime.signal]),
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => undefined);
    } catch {
      throw networkError('probe', hostOf(base));
    } finally {
      timer.cancel();
    }
  }
}

/** Query string per the contract: arrays as repeated parameters, booleans as true/false, absent values left out. */
export function queryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value))
      for (const v of value as readonly (string | number | boolean)[]) params.append(name, String(v));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function hostOf(base: string): string {
  try {
    return new URL(base).host;
  } catch {
    return 'the configured address';
  }
}
