import { describe, expect, it } from 'vitest';
import { OVERSCAN_AHEAD, OVERSCAN_BEHIND, rowWindow, slotIndex } from '../../../renderer/src/lib/library/row-window';

const shown = (first: number, size: number): number[] =>
  Array.from({ length: size }, (_, k) => slotIndex(k, first, size)).sort((a, b) => a - b);

describe('the item table’s row window', () => {
  it('covers the rows in view and the spare ones, mostly ahead of the scroll', () => {
    const down = rowWindow(30 * 1000, 600, 100_000, true);
    expect(down.size).toBe(21 + OVERSCAN_AHEAD + OVERSCAN_BEHIND);
    expect(down.first).toBe(1000 - OVERSCAN_BEHIND);
    const up = rowWindow(30 * 1000, 600, 100_000, false);
    expect(up.first).toBe(1000 - OVERSCAN_AHEAD);
    expect(up.first + up.size - 1).toBeGreaterThanOrEqual(1000 + 20);
  });

  it('never reaches past the last row nor before the first', () => {
    expect(rowWindow(0, 600, 100_000, false)).toEqual({ first: 0, size: 33, last: 32 });
    const end = rowWindow(30 * 99_990, 600, 100_000, true);
    expect(end.first + end.size).toBe(100_000);
    expect(end.last).toBe(99_999);
    // Fewer rows than the pool: the pool keeps its size (its spare elements are hidden).
    expect(rowWindow(0, 600, 5, true)).toEqual({ first: 0, size: 33, last: 4 });
    expect(rowWindow(500, 600, 0, true)).toEqual({ first: 0, size: 33, last: -1 });
  });

  it('gives every row of the window to exactly one element', () => {
    for (const first of [0, 1, 7, 32, 33, 34, 99_967])
      expect(shown(first, 33)).toEqual(Array.from({ length: 33 }, (_, i) => first + i));
  });

  it('moves only as many elements as the window moves rows', () => {
    const size = 33;
    for (const [from, to] of [
      [100, 101],
      [100, 107],
      [100, 120],
      [120, 100],
      [100, 200],
    ] as const) {
      let changed = 0;
      for (let k = 0; k < size; k++) if (slotIndex(k, from, size) !== slotIndex(k, to, size)) changed++;
      expect(changed).toBe(Math.min(size, Math.abs(to - from)));
    }
  });
});
