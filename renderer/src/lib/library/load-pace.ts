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
/**
 * The table shows rows this far beyond the loaded run from the first row: they are asked for where
 * they are (an offset) instead of reading every page in between, which a drag of the scrollbar thumb
 * across 100,000 rows would make 100 requests of 1,000 rows, each parsed between two frames.
 */
export const JUMP_ROWS = CATCH_UP_ROWS;
/**
 * Faster than this (rows a second, about three screens a frame), the rows in view are gone before an
 * answer could show them: nothing far away is asked for until the table slows down or stops.
 */
export const FAST_ROWS_PER_SECOND = 5000;
/** The table counts as stopped this long after its last move, ms. */
export const SETTLE_MS = 80;

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
    else if (dt > 0 && rows > 0)
      this.#pace = this.#pace === 0 ? (rows * 1000) / dt : 0.7 * this.#pace + (0.3 * rows * 1000) / dt;
    this.#last = lastIndex;
    this.#at = now;
    return this.#pace;
  }
}

/** What the table shows and how far ahead it wants rows (see loadPlan). */
export interface Wanted {
  first: number;
  last: number;
  lookahead: number;
  pageSize: number;
  /** The table moves faster than FAST_ROWS_PER_SECOND and has not stopped. */
  fast: boolean;
  /** It has just stopped after such a move: only the rows in view are worth asking for yet. */
  landed: boolean;
}

/**
 * The next rows to ask for: `limit` rows from index `at`, or null when none are needed now. Near the
 * loaded run (rows 0 … loadedRun - 1) it grows the run, up to `lookahead` rows past the last row shown,
 * in requests of `pageSize` (CATCH_UP_ROWS when far behind). Further away, unless the table moves too
 * fast for any answer to be seen, it asks for the first missing row from the first one shown on: a
 * page from there (only the rows in view when the table has just landed after a fast move), or the
 * page that ends with it when the rows below it are there (the table moves up into missing rows).
 */
export function nextRows(
  wanted: Wanted,
  loadedRun: number,
  count: number,
  isLoaded: (index: number) => boolean,
): { at: number; limit: number } | null {
  const { first, last, lookahead, pageSize } = wanted;
  if (first - loadedRun <= JUMP_ROWS) {
    if (loadedRun >= count || loadedRun > last + lookahead) return null;
    return { at: loadedRun, limit: last + lookahead - loadedRun >= CATCH_UP_ROWS ? CATCH_UP_ROWS : pageSize };
  }
  if (wanted.fast) return null;
  const end = Math.min(count, last + 1 + lookahead);
  let at = Math.max(0, first);
  while (at < end && isLoaded(at)) at++;
  if (at >= end) return null;
  const bottom = Math.min(last, count - 1);
  if (at <= bottom && wanted.landed) return { at, limit: bottom + 1 - at };
  if (at === first && at < bottom && isLoaded(bottom)) {
    let gapEnd = at;
    while (gapEnd + 1 < bottom && !isLoaded(gapEnd + 1)) gapEnd++;
    const from = Math.max(0, gapEnd + 1 - pageSize);
    return { at: from, limit: gapEnd + 1 - from };
  }
  return { at, limit: Math.min(CATCH_UP_ROWS, count - at, Math.max(pageSize, end - at)) };
}

/** How fast the table's first row moves, either way, rows a second (one move a frame). */
export class MoveSpeed {
  #first = -1;
  #at = 0;
  #speed = 0;

  moved(first: number, now: number): void {
    const dt = now - this.#at;
    if (this.#first < 0 || dt > PAUSE_MS) this.#speed = 0;
    else if (dt >= 1) this.#speed = (Math.abs(first - this.#first) * 1000) / dt;
    this.#first = first;
    this.#at = now;
  }

  /** Whether the table moves faster than FAST_ROWS_PER_SECOND at `now` (not when it stopped SETTLE_MS ago). */
  fast(now: number): boolean {
    return now - this.#at < SETTLE_MS && this.#speed > FAST_ROWS_PER_SECOND;
  }

  /** Whether its last move was that fast and it has stopped since. */
  landed(now: number): boolean {
    return now - this.#at >= SETTLE_MS && this.#speed > FAST_ROWS_PER_SECOND;
  }
}
