// The app's look for PDFs captured offline that wait for their title search: 30 s after start, then
// every hour (pending-captures.ts, retrySchedule), on a manual clock, both sides of each interval.
import { describe, expect, it } from 'vitest';
import { FIRST_LOOK_MS, RETRY_EVERY_MS, retrySchedule } from '../../../electron/core/pdf/pending-captures';
import { manualClock } from '../../helpers/manual-clock';

describe('retrySchedule', () => {
  it('looks 30 s after start, then every hour, and never again once stopped', () => {
    expect(FIRST_LOOK_MS).toBe(30_000);
    expect(RETRY_EVERY_MS).toBe(3_600_000);
    const clock = manualClock();
    let looks = 0;
    const stop = retrySchedule(() => looks++, clock);

    clock.advance(FIRST_LOOK_MS - 1);
    expect(looks).toBe(0);
    clock.advance(1);
    expect(looks).toBe(1);

    clock.advance(RETRY_EVERY_MS - 1);
    expect(looks).toBe(1);
    clock.advance(1);
    expect(looks).toBe(2);

    clock.advance(RETRY_EVERY_MS - 1);
    expect(looks).toBe(2);
    clock.advance(1);
    expect(looks).toBe(3);
    // One timer waits at a time: the hourly look does not pile up.
    expect(clock.pending()).toBe(1);

    stop();
    expect(clock.pending()).toBe(0);
    clock.advance(10 * RETRY_EVERY_MS);
    expect(looks).toBe(3);
  });

  it('stopped before the first look, looks never', () => {
    const clock = manualClock();
    let looks = 0;
    const stop = retrySchedule(() => looks++, clock);
    clock.advance(FIRST_LOOK_MS - 1);
    stop();
    clock.advance(FIRST_LOOK_MS + RETRY_EVERY_MS);
    expect(looks).toBe(0);
  });

  it('keeps looking hourly when a look throws', () => {
    const clock = manualClock();
    let looks = 0;
    retrySchedule(() => {
      looks++;
      throw new Error('the look failed');
    }, clock);
    expect(() => clock.advance(FIRST_LOOK_MS)).toThrow('the look failed');
    // The next look was armed before this one ran.
    expect(() => clock.advance(RETRY_EVERY_MS)).toThrow('the look failed');
    expect(looks).toBe(2);
  });
});
