// Client-side rate limiting at the service's documented anonymous limits (10 requests/second and
// 40 requests/minute). p-queue's strict mode keeps one sliding window; the service enforces two at
// once, and nesting two queues lets the inner one release a burst after the outer one waited, so
// this small limiter checks every window at the moment a request is sent instead.
import { abortError, raceAbort, type Clock } from './clock';

export interface RateWindow {
  limit: number;
  ms: number;
}

export class SlidingWindowLimiter {
  readonly #windows: readonly RateWindow[];
  readonly #clock: Clock;
  readonly #marginMs: number;
  readonly #sent: number[] = [];
  readonly #keep: number;
  #tail: Promise<void> = Promise.resolve();

  /**
   * `marginMs` widens every window a little: requests sent at the edge of a window can arrive
   * inside the next one of the service's fixed windows when network delays differ.
   */
  constructor(windows: readonly RateWindow[], clock: Clock, marginMs = 100) {
    this.#windows = windows;
    this.#clock = clock;
    this.#marginMs = marginMs;
    this.#keep = Math.max(...windows.map((w) => w.limit));
  }

  /** Waits, in arrival order, until a request may be sent without exceeding any window, and counts it. */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.#tail.then(() => this.#take(signal));
    this.#tail = turn.catch(() => undefined);
    // A cancelled caller returns at once; its turn then finds the signal aborted and takes no slot.
    return raceAbort(turn, signal);
  }

  async #take(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      const now = this.#clock.now();
      let waitUntil = now;
      for (const w of this.#windows) {
        const from = now - w.ms - this.#marginMs;
        const inWindow = this.#sent.filter((t) => t > from);
        if (inWindow.length >= w.limit) {
          // The window frees a slot when its oldest counted request leaves it.
          const oldest = inWindow[inWindow.length - w.limit]!;
          waitUntil = Math.max(waitUntil, oldest + w.ms + this.#marginMs + 1);
        }
      }
      if (waitUntil <= now) {
        this.#sent.push(now);
        if (this.#sent.length > this.#keep) this.#sent.splice(0, this.#sent.length - this.#keep);
        return;
      }
      await this.#clock.sleep(waitUntil - now, signal);
    }
  }
}
