// Test doubles for the service client's edges: a scripted fetch and a virtual clock.
import { ServiceClient, type Clock, type FetchLike, type ServiceClientOptions } from '../../../electron/core/service';

export interface SeenRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  at: number;
}

export type Script = (req: SeenRequest) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A fetch that records every request and answers from `script`. */
export function fakeFetch(script: Script, clock?: Clock): { fetch: FetchLike; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    let body: unknown = init.body;
    if (typeof body === 'string') body = JSON.parse(body);
    const req: SeenRequest = {
      url: new URL(url),
      method: init.method ?? 'GET',
      headers,
      body,
      at: clock ? clock.now() : Date.now(),
    };
    seen.push(req);
    init.signal?.throwIfAborted();
    const answer = script(req);
    if (!(answer instanceof Promise)) return answer;
    // A pending answer still honours the request's signal, as undici does.
    return new Promise<Response>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
      answer.then(resolve, reject);
    });
  };
  return { fetch, seen };
}

export function networkFailure(): never {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
  });
}

/** Time that moves only when something sleeps: sleeps are recorded and return at once. */
export class VirtualClock implements Clock {
  t = 1_000_000;
  readonly sleeps: number[] = [];
  #timers: { at: number; fire: () => void }[] = [];

  now(): number {
    return this.t;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.sleeps.push(ms);
    this.advance(ms);
    await Promise.resolve();
    signal?.throwIfAborted();
  }

  timeout(ms: number): { signal: AbortSignal; cancel(): void } {
    const controller = new AbortController();
    const timer = { at: this.t + ms, fire: () => controller.abort(new DOMException('timed out', 'TimeoutError')) };
    this.#timers.push(timer);
    return { signal: controller.signal, cancel: () => (this.#timers = this.#timers.filter((x) => x !== timer)) };
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { at: this.t + ms, fire: fn };
    this.#timers.push(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((x) => x !== handle);
  }

  advance(ms: number): void {
    this.t += ms;
    const due = this.#timers.filter((x) => x.at <= this.t);
    this.#timers = this.#timers.filter((x) => x.at > this.t);
    for (const x of due) x.fire();
  }
}

export function client(fetch: FetchLike, options: Partial<ServiceClientOptions> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: () => 'https://api.test',
    getKey: async () => null,
    fetch,
    maxAttempts: 4,
    ...options,
  });
}

export const KEY = 'sk_test_0123456789abcdef';
