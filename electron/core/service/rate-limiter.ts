// Client-side rate limiting at the service's documented anonymous limits (10 requests/second and
// 40 requests/minute). p-queue's strict mode keeps one sliding window; the service enforces two at
// once, and nesting two queues lets the inner one release a burst after the outer one waited, so
// this small limiter checks every window at the moment a request is sent instead.
//
// What the service counts is when a request *arrives*, which the client cannot see: it lies
// somewhere between sending and the answer, and network delays differ from request to request (a
// new connection can take far longer than a reused one). So a request holds its place in a window
// from the moment it is sent until the answer is back (`release`), and only then starts to age out.
// Arrivals can then never crowd into one window more densely than the sends did, whatever the delays.
import { abortError, raceAbort, type Clock } from '../clock';

export interface RateWindow {
  limit: number;
  ms: number;
}

interface Slot {
  /** When the slot stops counting against a window of `ms`: its release time + ms; Infinity while in flight. */
  releasedAt: number;
}

export class SlidingWindowLimiter {
  readonly #windows: readonly RateWindow[];
  readonly #clock: Clock;
  readonly #marginMs: number;
  #slots: Slot[] = [];
  readonly #longest: number;
  #tail: Promise<unknown> = Promise.resolve();
  #wake: (() => void) | null = null;

  /** `marginMs` widens every window a little, for timer granularity. */
  constructor(windows: readonly RateWindow[], clock: Clock, marginMs = 25) {
    this.#windows = windows;
    this.#clock = clock;
    this.#marginMs = marginMs;
    this.#longest = Math.max(...windows.map((w) => w.ms));
  }

  /**
   * Waits, in arrival order, until a request may be sent without exceeding any window, and takes a
   * slot. Call the returned function when the answer (or failure) is in.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    const turn = this.#tail.then(() => this.#take(signal));
    this.#tail = turn.catch(() => undefined);
    // A cancelled caller returns at once; its turn then finds the signal aborted and takes no slot.
    return raceAbort(turn, signal);
  }

  async #take(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      const now = this.#clock.now();
      this.#slots = this.#slots.filter((s) => s.releasedAt + this.#longest + this.#marginMs > now);
      let waitUntil = now;
      let inFlightBlocks = false;
      for (const w of this.#windows) {
        const counted = this.#slots.filter((s) => s.releasedAt + w.ms + this.#marginMs > now).map((s) => s.releasedAt);
        if (counted.length < w.limit) continue;
        // The window frees a place when its earliest-released slot ages out.
        counted.sort((a, b) => a - b);
        const frees = counted[counted.length - w.limit]!;
        if (frees === Number.POSITIVE_INFINITY) inFlightBlocks = true;
        else waitUntil = Math.max(waitUntil, frees + w.ms + this.#marginMs);
      }
      if (!inFlightBlocks && waitUntil <= now) {
        const slot: Slot = { releasedAt: Number.POSITIVE_INFINITY };
        this.#slots.push(slot);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          slot.releasedAt = this.#clock.now();
          this.#wake?.();
        };
      }
      if (inFlightBlocks && waitUntil <= now) await this.#untilRelease(signal);
      else await this.#clock.sleep(waitUntil - now, signal);
    }
  }

  /** Resolves when a slot in flight is released. */
  #untilRelease(signal?: AbortSignal): Promise<void> {
    return raceAbort(
      new Promise<void>((resolve) => {
        this.#wake = () => {
          this.#wake = null;
          resolve();
        };
      }),
      signal,
    );
  }
}
