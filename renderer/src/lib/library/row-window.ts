// Which rows the item table's pool of row elements shows, and which element shows which row.
import { ROW_HEIGHT } from './dnd';

/** Spare rows beyond those in view: most ahead of the scroll, a few behind it. */
export const OVERSCAN_AHEAD = 9;
export const OVERSCAN_BEHIND = 3;

/**
 * The rows the pool covers: `size` rows from `first`, enough to fill a view `height` px tall plus the
 * spare ones, never past the end (so every element of the pool shows a real row index).
 */
export function rowWindow(scrollTop: number, height: number, count: number, down: boolean): { first: number; size: number } {
  const inView = Math.ceil(Math.max(0, height) / ROW_HEIGHT) + 1;
  const size = Math.min(count, inView + OVERSCAN_AHEAD + OVERSCAN_BEHIND);
  const top = Math.floor(Math.max(0, scrollTop) / ROW_HEIGHT);
  const first = Math.max(0, Math.min(top - (down ? OVERSCAN_BEHIND : OVERSCAN_AHEAD), count - size));
  return { first, size };
}

/**
 * The row index that element `slot` of a pool of `size` shows when the pool covers rows
 * first … first + size - 1: the one congruent to `slot` modulo `size`. Moving the window by k rows
 * changes what k elements show and leaves the others alone.
 */
export function slotIndex(slot: number, first: number, size: number): number {
  return first + ((((slot - first) % size) + size) % size);
}
