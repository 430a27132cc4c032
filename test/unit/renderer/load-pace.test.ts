import { describe, expect, it } from 'vitest';
import { CATCH_UP_ROWS, LOOKAHEAD, loadPlan, PAGE_SIZE, ScrollPace } from '../../../renderer/src/lib/library/load-pace';

/** The pace after the table's last row moved `step` rows every `ms` for `frames` moves. */
function paceOf(step: number, ms: number, frames: number): number {
  const pace = new ScrollPace();
  let rowsPerSecond = pace.moved(40, 1000);
  for (let i = 1; i <= frames; i++) rowsPerSecond = pace.moved(40 + i * step, 1000 + i * ms);
  return rowsPerSecond;
}

describe('the item table’s loading pace', () => {
  it('loads in pages of 200, 400 rows ahead, while the table stands still or scrolls slowly', () => {
    expect(loadPlan(0)).toEqual({ pageSize: PAGE_SIZE, lookahead: LOOKAHEAD });
    // Reading speed, 2 rows a frame at 60 frames a second: 120 rows a second.
    expect(loadPlan(paceOf(2, 1000 / 60, 30))).toEqual({ pageSize: 200, lookahead: 400 });
    // Just under and just over a page a second.
    expect(loadPlan(199)).toEqual({ pageSize: 200, lookahead: 400 });
    expect(loadPlan(201)).toEqual({ pageSize: 201, lookahead: 402 });
  });

  it('loads a second of scrolling per request when the scroll is faster: a scrollbar drag asks 1,000 rows at a time', () => {
    // A fast wheel fling, 7 rows a frame: 420 rows a second.
    const fling = loadPlan(paceOf(7, 1000 / 60, 30));
    expect(fling.pageSize).toBe(420);
    expect(fling.lookahead).toBe(840);
    // Dragging the scrollbar thumb, 20 rows a frame: 1,200 rows a second, held to the largest request.
    expect(loadPlan(paceOf(20, 1000 / 60, 30))).toEqual({ pageSize: CATCH_UP_ROWS, lookahead: 2 * CATCH_UP_ROWS });
    expect(loadPlan(999).pageSize).toBe(999);
    expect(loadPlan(1001).pageSize).toBe(CATCH_UP_ROWS);
  });

  it('smooths the pace over the moves, so one slow frame in a drag does not shrink the pages', () => {
    const pace = new ScrollPace();
    let t = 0;
    let last = 40;
    pace.moved(last, t);
    for (let i = 0; i < 30; i++) pace.moved((last += 20), (t += 1000 / 60));
    // A frame that took three intervals (a busy machine): the pace stays well above a page a second.
    expect(pace.moved(last + 20, t + 50)).toBeGreaterThan(800);
  });

  it('starts afresh after a pause, and counts neither moving up nor standing still as pace', () => {
    const pace = new ScrollPace();
    pace.moved(40, 0);
    expect(pace.moved(60, 16)).toBeCloseTo(1250);
    // A pause longer than half a second: the move after it says nothing about a pace yet.
    expect(pace.moved(80, 16 + 501)).toBe(0);
    expect(pace.moved(100, 16 + 501 + 16)).toBeCloseTo(1250);
    // Within half a second it still counts.
    expect(pace.moved(120, 16 + 501 + 16 + 499)).toBeGreaterThan(0);
    // Back up: no downward pace.
    expect(pace.moved(50, 1100)).toBe(0);
    // The same row again: the pace is kept (a frame with no change of the last row).
    pace.moved(70, 1116);
    expect(pace.moved(70, 1132)).toBeCloseTo(1250);
  });
});
