// Time, behind one small interface for the whole core, so that backoff, Retry-After pauses, rate
// limiting, task deadlines (the service) and throttled progress and debounced runs (jobs) can be
// tested without real waits. The system clock looks up the timer functions at call time, so vitest's
// fake timers work with it too.

export interface Clock {
  now(): number;
  /** Calls `fn` once after `ms`; the handle is for clearTimeout. */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Resolves after `ms`; rejects with the signal's reason (an AbortError) when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A signal that aborts with a TimeoutError after `ms`; `cancel` releases the timer. */
  timeout(ms: number): { signal: AbortSignal; cancel(): void };
}

export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException('The operation was aborted.', 'AbortError');
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError(signal));
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
  timeout(ms) {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException(`Timed out after ${ms} ms`, 'TimeoutError')),
      Math.max(0, ms),
    );
    return { signal: controller.signal, cancel: () => clearTimeout(timer) };
  },
};

/** Settles with `work`, or rejects as soon as `signal` aborts; leaves no listener behind. */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
