// Which rows the item table's pool of row elements shows, and which element shows which row.
import { ROW_HEIGHT } from './dnd';

/** Spare rows beyond those in view: most ahead of the scroll, a few behind it. */
export const OVERSCAN_AHEAD = 9;
export const OVERSCAN_BEHIND = 3;

/**
 * The rows the pool covers: `size` rows from `first`, enough to fill a view `height` px tall plus the
 * spare ones, never past the end. The size does not depend on the number of rows, so a search with
 * few or no results does not destroy elements the next one has to create again; the elements for
 * rows past the end (`last` is the last real row) are hidden.
 */
export function rowWindow(
  scrollTop: number,
  height: number,
  count: number,
  down: boolean,
): { first: number; size: number; last: number } {
  const size = Math.ceil(Math.max(0, height) / ROW_HEIGHT) + 1 + OVERSCAN_AHEAD + OVERSCAN_BEHIND;
  const top = Math.floor(Math.max(0, scrollTop) / ROW_HEIGHT);
  const first = Math.max(0, Math.min(top - (down ? OVERSCAN_BEHIND : OVERSCAN_AHEAD), count - size));
  return { first, size, last: Math.min(first + size, count) - 1 };
}

/**
 * The row index that element `slot` of a pool of `size` shows when the pool covers rows
 * first … first + size - 1: the one congruent to `slot` modulo `size`. Moving the window by k rows
 * changes what k elements show and leaves the others alone.
 */
export function slotIndex(slot: number, first: number, size: number): number {
  return first + ((((slot - first) % size) + size) % size);
}
