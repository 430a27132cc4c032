// How far ahead the item table's rows are loaded, and in what requests, from how fast the table moves.
// Each page of rows that arrives is read and parsed on the renderer's main thread between two frames.
// A slow scroll leaves time for that in every frame; a scrollbar drag (20 rows a frame) fills every
// frame with rows to lay out and paint, so each arriving page costs a frame: pages of 200 rows made
// 22 dropped frames of 220 in 4 s of dragging. The faster the scroll, the fewer and larger the pages.

/** Rows per request while the table scrolls slowly (or stands still). */
export const PAGE_SIZE = 200;
/** Rows loaded beyond the last one the table shows, so scrolling down finds them there. */
export const LOOKAHEAD = 2 * PAGE_SIZE;
/** The largest request, also when the table is far ahead of what is loaded (a jump to the end). */
export const CATCH_UP_ROWS = 1000;
/** A pause longer than this between two moves starts a new estimate of the pace. */
const PAUSE_MS = 500;

export interface LoadPlan {
  /** Rows to have loaded beyond the last row shown. */
  lookahead: number;
  /** Rows per request. */
  pageSize: number;
}

/**
 * At `rowsPerSecond`, a request brings about a second of scrolling (at least PAGE_SIZE rows, at most
 * CATCH_UP_ROWS) and the loaded rows reach two such requests ahead, so the next one is asked for a
 * second before its rows come into view.
 */
export function loadPlan(rowsPerSecond: number): LoadPlan {
  const pageSize = Math.min(CATCH_UP_ROWS, Math.max(PAGE_SIZE, Math.round(rowsPerSecond)));
  return { lookahead: Math.max(LOOKAHEAD, 2 * pageSize), pageSize };
}

/**
 * The pace of the table's last row downwards, rows a second, smoothed over the last moves (a drag
 * delivers one move a frame). Moving up or jumping back does not count; a pause starts afresh.
 */
export class ScrollPace {
  #last = -1;
  #at = 0;
  #pace = 0;

  /** The table shows rows up to `lastIndex` at `now` (ms). Returns the pace. */
  moved(lastIndex: number, now: number): number {
    const dt = now - this.#at;
    const rows = lastIndex - this.#last;
    if (this.#last < 0 || dt > PAUSE_MS || rows < 0) this.#pace = 0;
    else if (dt > 0 && rows > 0) this.#pace = this.#pace === 0 ? (rows * 1000) / dt : 0.7 * this.#pace + (0.3 * rows * 1000) / dt;
    this.#last = lastIndex;
    this.#at = now;
    return this.#pace;
  }
}
