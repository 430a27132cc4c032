import { describe, expect, it } from 'vitest';
import {
  CATCH_UP_ROWS,
  FAST_ROWS_PER_SECOND,
  JUMP_ROWS,
  LOOKAHEAD,
  loadPlan,
  MoveSpeed,
  nextRows,
  PAGE_SIZE,
  ScrollPace,
  SETTLE_MS,
} from '../../../renderer/src/lib/library/load-pace';

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

describe('which rows the item table asks for next', () => {
  const plan = { ...loadPlan(0), fast: false, landed: false };
  const loadedUpTo =
    (n: number, also: (i: number) => boolean = () => false) =>
    (i: number) =>
      i < n || also(i);

  it('grows the loaded run while the table shows rows near it, as far as the lookahead', () => {
    // Rows 0 … 299 loaded, rows 10 … 54 shown: the run grows to 54 + 400.
    expect(nextRows({ ...plan, first: 10, last: 54 }, 300, 100_000, loadedUpTo(300))).toEqual({
      at: 300,
      limit: PAGE_SIZE,
    });
    expect(nextRows({ ...plan, first: 10, last: 54 }, 455, 100_000, loadedUpTo(455))).toBeNull();
    // Just within reach of the run (JUMP_ROWS past it): still the run, in catch-up requests.
    expect(nextRows({ ...plan, first: 300 + JUMP_ROWS, last: 345 + JUMP_ROWS }, 300, 100_000, loadedUpTo(300))).toEqual(
      { at: 300, limit: CATCH_UP_ROWS },
    );
    // The end of the list.
    expect(nextRows({ ...plan, first: 10, last: 54 }, 300, 300, loadedUpTo(300))).toBeNull();
  });

  it('asks for rows shown far beyond the loaded run where they are, not for every page in between', () => {
    const far = { ...plan, first: 301 + JUMP_ROWS, last: 345 + JUMP_ROWS };
    expect(nextRows(far, 300, 100_000, loadedUpTo(300))).toEqual({ at: far.first, limit: 45 + LOOKAHEAD });
    // At the end of the list: only the rows that exist.
    expect(nextRows({ ...plan, first: 99_955, last: 99_999 }, 300, 100_000, loadedUpTo(300))).toEqual({
      at: 99_955,
      limit: 45,
    });
    // Some of them already there: from the first missing one; none missing: nothing.
    expect(
      nextRows(
        { ...plan, first: 99_955, last: 99_999 },
        300,
        100_000,
        loadedUpTo(300, (i) => i >= 99_955 && i < 99_970),
      ),
    ).toEqual({ at: 99_970, limit: 30 });
    expect(
      nextRows(
        { ...plan, first: 99_955, last: 99_999 },
        300,
        100_000,
        loadedUpTo(300, (i) => i >= 99_955),
      ),
    ).toBeNull();
    // A large lookahead is asked in requests of at most CATCH_UP_ROWS.
    expect(nextRows({ ...far, ...loadPlan(5000) }, 300, 100_000, loadedUpTo(300))).toEqual({
      at: far.first,
      limit: CATCH_UP_ROWS,
    });
  });

  it('asks a page at a time as the table reads on far away, only the rows in view on landing, and upwards the page above', () => {
    const island = (i: number) => i >= 50_000 && i < 50_445;
    // Reading down from rows loaded far away: when the lookahead passes their end, a page, not the few rows moved.
    expect(nextRows({ ...plan, first: 50_004, last: 50_048 }, 300, 100_000, loadedUpTo(300, island))).toEqual({
      at: 50_445,
      limit: PAGE_SIZE,
    });
    expect(nextRows({ ...plan, first: 50_000, last: 50_044 }, 300, 100_000, loadedUpTo(300, island))).toBeNull();
    // Landed after a fast drag: the rows in view only (the pace says 1,000-row pages, none is read yet).
    expect(
      nextRows(
        { ...plan, ...loadPlan(20_000), first: 70_000, last: 70_044, landed: true },
        300,
        100_000,
        loadedUpTo(300),
      ),
    ).toEqual({ at: 70_000, limit: 45 });
    // Moving up into missing rows: the page that ends just above the loaded ones.
    expect(nextRows({ ...plan, first: 49_998, last: 50_042 }, 300, 100_000, loadedUpTo(300, island))).toEqual({
      at: 50_000 - PAGE_SIZE,
      limit: PAGE_SIZE,
    });
    expect(
      nextRows(
        { ...plan, first: 100 + JUMP_ROWS + 300, last: 144 + JUMP_ROWS + 300 },
        0 + 300,
        100_000,
        loadedUpTo(300, (i) => i >= 102 + JUMP_ROWS + 300),
      ),
    ).toEqual({
      at: 102 + JUMP_ROWS + 300 - PAGE_SIZE,
      limit: PAGE_SIZE,
    });
  });

  it('asks for nothing far away while the table moves too fast for an answer to be seen', () => {
    expect(nextRows({ ...plan, first: 50_000, last: 50_044, fast: true }, 300, 100_000, loadedUpTo(300))).toBeNull();
    // Near the loaded run the run still grows (a fast drag that starts at the top).
    expect(nextRows({ ...plan, first: 10, last: 54, fast: true }, 300, 100_000, loadedUpTo(300))).toEqual({
      at: 300,
      limit: PAGE_SIZE,
    });
  });

  it('tells a fast move from a slow one either way, and a stop from a move', () => {
    const speed = new MoveSpeed();
    speed.moved(0, 1000);
    expect(speed.fast(1000)).toBe(false);
    // 100 rows a frame (6,000 rows a second), down then up: fast.
    speed.moved(100, 1000 + 1000 / 60);
    expect(speed.fast(1000 + 1000 / 60)).toBe(true);
    speed.moved(0, 1000 + 2000 / 60);
    expect(speed.fast(1000 + 2000 / 60)).toBe(true);
    // Just under and just over FAST_ROWS_PER_SECOND.
    speed.moved(0 + FAST_ROWS_PER_SECOND / 100 - 1, 1000 + 2000 / 60 + 10);
    expect(speed.fast(1000 + 2000 / 60 + 10)).toBe(false);
    speed.moved(2 * (FAST_ROWS_PER_SECOND / 100) + 1, 1000 + 2000 / 60 + 20);
    expect(speed.fast(1000 + 2000 / 60 + 20)).toBe(true);
    // Stopped: SETTLE_MS after the last move it is no longer fast.
    expect(speed.fast(1000 + 2000 / 60 + 20 + SETTLE_MS - 1)).toBe(true);
    expect(speed.landed(1000 + 2000 / 60 + 20 + SETTLE_MS - 1)).toBe(false);
    expect(speed.fast(1000 + 2000 / 60 + 20 + SETTLE_MS)).toBe(false);
    expect(speed.landed(1000 + 2000 / 60 + 20 + SETTLE_MS)).toBe(true);
    // A slow move after landing: neither.
    speed.moved(2 * (FAST_ROWS_PER_SECOND / 100) + 3, 1000 + 2000 / 60 + 20 + SETTLE_MS + 16);
    expect(speed.fast(1000 + 2000 / 60 + 20 + SETTLE_MS + 16)).toBe(false);
    expect(speed.landed(1000 + 2000 / 60 + 20 + SETTLE_MS + 200)).toBe(false);
  });
});
