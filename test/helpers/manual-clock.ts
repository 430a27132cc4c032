// A Clock whose time moves only when a test advances it: timers (and sleeps and timeouts, which are
// timers) fire in advance(), in the order they fall due.
import type { Clock } from '../../electron/core/clock';

export interface ManualClock extends Clock {
  advance(ms: number): void;
  /** How many timers wait. */
  pending(): number;
}

export function manualClock(): ManualClock {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const setTimeout = (fn: () => void, ms: number): number => {
    const id = nextId++;
    timers.push({ at: now + ms, fn, id });
    return id;
  };
  const clearTimeout = (id: unknown): void => {
    timers = timers.filter((t) => t.id !== id);
  };
  return {
    now: () => now,
    setTimeout,
    clearTimeout,
    sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    timeout(ms) {
      const controller = new AbortController();
      const id = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), ms);
      return { signal: controller.signal, cancel: () => clearTimeout(id) };
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fn();
    },
    pending: () => timers.length,
  };
}
