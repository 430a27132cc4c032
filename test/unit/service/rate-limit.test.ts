// Without a key the client keeps to 10 requests/second and 40/minute for capped operations; uncapped
// operations and keyed calls are not held back.
import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter, systemClock } from '../../../electron/core/service';
import { client, fakeFetch, json, KEY, VirtualClock } from './fakes';

function maxInWindow(times: number[], ms: number): number {
  let max = 0;
  for (let i = 0; i < times.length; i++) {
    let n = 0;
    for (let j = i; j < times.length && times[j]! < times[i]! + ms; j++) n++;
    max = Math.max(max, n);
  }
  return max;
}

describe('anonymous rate limit', () => {
  it('the limiter never lets more than the limit into any window', async () => {
    const clock = new VirtualClock();
    const limiter = new SlidingWindowLimiter(
      [
        { limit: 10, ms: 1000 },
        { limit: 40, ms: 60_000 },
      ],
      clock,
      0,
    );
    const times: number[] = [];
    for (let i = 0; i < 130; i++) {
      const release = await limiter.acquire();
      times.push(clock.now());
      release();
    }
    expect(maxInWindow(times, 1000)).toBe(10);
    expect(maxInWindow(times, 60_000)).toBe(40);
    // 130 requests need at least three full minutes after the first 40.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(3 * 60_000);
    // …and no more than that: the limiter does not wait longer than it must.
    expect(times.at(-1)! - times[0]!).toBeLessThan(3 * 60_000 + 5000);
  });

  it('counts a request from sending until its answer plus the window, since its arrival time is unknown', async () => {
    const clock = new VirtualClock();
    const limiter = new SlidingWindowLimiter([{ limit: 2, ms: 1000 }], clock, 0);
    const first = await limiter.acquire();
    const second = await limiter.acquire();
    let third = false;
    const pending = limiter.acquire().then((release) => {
      third = true;
      return release;
    });
    // Both are still in flight: no amount of time frees a place.
    await Promise.resolve();
    await Promise.resolve();
    expect(third).toBe(false);
    clock.advance(5000);
    first(); // the answer came at t+5 s; its place frees at t+6 s
    const release = await pending;
    expect(third).toBe(true);
    expect(clock.now()).toBe(1_000_000 + 6000);
    release();
    second();
  });

  it('a cancelled waiter returns at once and takes no slot', async () => {
    const limiter = new SlidingWindowLimiter([{ limit: 1, ms: 60_000 }], systemClock, 0);
    await limiter.acquire();
    const a = new AbortController();
    const waiting = limiter.acquire(a.signal);
    a.abort();
    await expect(waiting).rejects.toThrow();
  });

  it('holds back capped operations without a key, and nothing else', async () => {
    const clock = new VirtualClock();
    const { fetch, seen } = fakeFetch(
      () =>
        json({
          papers: {},
          tallies: {},
          doi: '10.1000/a',
          total: 0,
          supporting: 0,
          contradicting: 0,
          mentioning: 0,
          unclassified: 0,
        }),
      clock,
    );
    const anonymous = client(fetch, { clock });
    for (let i = 0; i < 25; i++) await anonymous.op.getPapers({ body: ['10.1000/a'] });
    const capped = seen.map((r) => r.at);
    expect(maxInWindow(capped, 1000)).toBeLessThanOrEqual(10);
    expect(capped.at(-1)! - capped[0]!).toBeGreaterThanOrEqual(2000);

    seen.length = 0;
    const start = clock.now();
    for (let i = 0; i < 25; i++) await anonymous.op.getTally({ path: { doi: '10.1000/a' } });
    expect(clock.now() - start).toBe(0); // /tallies/{doi} is uncapped

    const keyed = client(fetch, { clock, getKey: async () => KEY });
    const t0 = clock.now();
    for (let i = 0; i < 60; i++) await keyed.op.getPapers({ body: ['10.1000/a'] });
    expect(clock.now() - t0).toBe(0); // a key lifts the limits
  });
});
