// One Clock for the core: the service's waits (sleep, timeout) and the jobs' timers (setTimeout,
// clearTimeout) on one system clock, which vitest's fake timers drive.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/core/clock';

describe('systemClock', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires a timer once its time has come, not before, and never once cleared', () => {
    const fired: string[] = [];
    systemClock.setTimeout(() => fired.push('a'), 100);
    const b = systemClock.setTimeout(() => fired.push('b'), 100);
    systemClock.clearTimeout(b);
    vi.advanceTimersByTime(99);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a']);
  });

  it('sleeps for as long as asked and stops a sleep whose signal aborts', async () => {
    let woke = false;
    const sleeping = systemClock.sleep(50).then(() => (woke = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(woke).toBe(true);
    const controller = new AbortController();
    const aborted = systemClock.sleep(1000, controller.signal);
    controller.abort();
    await expect(aborted).rejects.toThrow(/aborted/);
  });
});
