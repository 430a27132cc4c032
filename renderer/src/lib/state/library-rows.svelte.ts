import type { CitewiseApi, IpcError } from '../../../../shared/ipc';
import type { LibraryRow, Page, Sort } from '../../../../shared/model/library';
import { CATCH_UP_ROWS, loadPlan, ScrollPace } from '../library/load-pace';
import type { Where } from '../library/views';

/**
 * The first request of a new load asks for one screenful (up to 1,800 px of rows), not a whole page:
 * a quarter of the rows to read, send and parse before the results show. The rest follows at once.
 */
export const FIRST_ROWS = 60;

/** Resolves after the next frame is painted (or soon, in a hidden window, where no frame comes). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }),
    );
  });
}

/** How a load treats the rows on screen until its own arrive. */
export type Keep =
  /** Placeholders at once (a new view, filter or sort). */
  | 'none'
  /** The old rows stay until the first rows of the new load arrive, then all go (a new search: no flash of placeholders between keystrokes). */
  | 'until-first'
  /** The old rows stay until each is replaced (a refresh after a change: the same rows, mostly). */
  | 'refresh';

/**
 * The rows of the table for one `where` and sort, loaded in order through the keyset cursor, up to a
 * little beyond the last row the table shows. Rows not loaded yet read as undefined (placeholders).
 * Rows are held in one flat array, so a row is found by its index alone and can never come from another
 * position. Answers to a load that has been superseded are dropped.
 */
export class RowCache {
  readonly #api: CitewiseApi;
  #count = $state(0);
  #counted = $state(false);
  #version = $state(0);
  #error = $state<IpcError | null>(null);
  /** Rows 0 … #loaded - 1 of the current load. */
  #rows: LibraryRow[] = [];
  /** Rows of the previous load shown until replaced (see Keep). */
  #stale: LibraryRow[] = [];
  #cursor: string | null = null;
  #ended = false;
  #wanted = 0;
  /** How fast the table moves down, and so how far ahead and in what requests rows load (load-pace.ts). */
  readonly #pace = new ScrollPace();
  #pageSize = loadPlan(0).pageSize;
  #generation = 0;
  #pumping = false;
  #where: Where | null = null;
  #sort: Sort = { column: 'title', direction: 'asc' };
  #keep: Keep = 'none';
  /** Called when the first rows of a new load are in: results are shown. */
  onFirstPage: ((generation: number) => void) | null = null;

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  /** How many rows the view has (0 until counted). */
  get count() { return this.#count; }
  get counted() { return this.#counted; }
  get error() { return this.#error; }
  /** Changes whenever rows arrive; read it to re-render with them. */
  get version() { return this.#version; }
  get generation() { return this.#generation; }

  row(index: number): LibraryRow | undefined {
    void this.#version;
    return this.#rows[index] ?? this.#stale[index];
  }

  /** Whether the row at `index` is current (not a leftover of the previous load shown meanwhile). */
  isFresh(index: number): boolean {
    void this.#version;
    return index < this.#rows.length;
  }

  /** Starts over for a new where/sort; see Keep for what stays on screen meanwhile. */
  load(where: Where, sort: Sort, keep: Keep = 'none'): number {
    const generation = ++this.#generation;
    // Keep what is on screen: the rows of this load, else those kept from before (a refresh that
    // starts before the previous one got its first rows must not drop them).
    if (keep === 'none') this.#stale = [];
    else if (this.#rows.length >= this.#stale.length) this.#stale = this.#rows;
    else this.#stale = [...this.#rows, ...this.#stale.slice(this.#rows.length)];
    this.#rows = [];
    this.#cursor = null;
    this.#ended = false;
    this.#where = where;
    this.#sort = sort;
    this.#keep = keep;
    this.#error = null;
    if (keep === 'none') {
      this.#counted = false;
      this.#count = 0;
      this.#wanted = 0;
    }
    this.#version++;
    void this.#pump();
    return generation;
  }

  /** Shows nothing (a view that cannot be listed). */
  clear(): void {
    this.#generation++;
    this.#where = null;
    this.#rows = [];
    this.#stale = [];
    this.#count = 0;
    this.#counted = true;
    this.#version++;
  }

  /** The table shows rows up to `lastIndex`: load them, in order, and a little beyond. */
  want(lastIndex: number): void {
    const plan = loadPlan(this.#pace.moved(lastIndex, performance.now()));
    this.#pageSize = plan.pageSize;
    this.#wanted = Math.max(0, lastIndex) + plan.lookahead;
    if (this.#rows.length <= this.#wanted) void this.#pump();
  }

  /** The ids of the loaded rows from `from` to `to` (inclusive, either order). */
  idsBetween(from: number, to: number): number[] {
    const ids: number[] = [];
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
      const row = this.row(i);
      if (row) ids.push(row.id);
    }
    return ids;
  }

  /** Every id of the view (for "select all" then act), read through the cursor in big pages. */
  async allIds(): Promise<number[]> {
    const where = this.#where;
    if (!where) return [];
    const ids: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await this.#page(where, cursor);
      for (const row of page.rows) ids.push(row.id);
      cursor = page.nextCursor;
    } while (cursor);
    return ids;
  }

  async #page(where: Where, cursor: string | null): Promise<Page> {
    const result = await this.#api.invoke('library.list', { ...where, sort: this.#sort, limit: 1000, cursor });
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  }

  /** Counts the view; asked once its first rows are in, so a search that a later keystroke replaces costs no count. */
  #countRows(generation: number, where: Where): void {
    void this.#api.invoke('library.count', where).then((result) => {
      if (generation !== this.#generation) return;
      if (!result.ok) {
        this.#error = result.error;
        return;
      }
      this.#count = this.#ended ? this.#rows.length : result.value;
      this.#counted = true;
      if (this.#stale.length > result.value) this.#stale.length = result.value;
      this.#version++;
      void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (;;) {
        const generation = this.#generation;
        const where = this.#where;
        const next = this.#rows.length;
        if (!where || this.#ended || this.#error) break;
        if (next > 0 && (!this.#counted || next >= this.#count || next > this.#wanted)) break;
        const behind = this.#wanted - next;
        const limit = next === 0 ? FIRST_ROWS : behind >= CATCH_UP_ROWS ? CATCH_UP_ROWS : this.#pageSize;
        const result = await this.#api.invoke('library.list', { ...where, sort: this.#sort, limit, cursor: this.#cursor });
        if (generation !== this.#generation) continue;
        if (!result.ok) {
          this.#error = result.error;
          break;
        }
        const { rows, nextCursor } = result.value;
        for (const row of rows) this.#rows.push(row);
        this.#cursor = nextCursor;
        if (next === 0 && this.#keep === 'until-first') this.#stale = [];
        if (!nextCursor) {
          this.#ended = true;
          // The end is known exactly now; trust it over a count taken before a concurrent change.
          this.#count = this.#rows.length;
          this.#counted = true;
          this.#stale.length = Math.min(this.#stale.length, this.#rows.length);
        } else if (this.#count < this.#rows.length) {
          this.#count = this.#rows.length;
        }
        this.#version++;
        if (next === 0) {
          // A user-timing mark, so benchmarks can tell the core's answer from the paint after it.
          performance.mark('citewise:library:first-page');
          this.onFirstPage?.(generation);
          if (nextCursor) {
            this.#countRows(generation, where);
            // Let the first rows paint before the next answer (a page of 200) is read and parsed.
            await afterNextPaint();
          }
        }
      }
    } finally {
      this.#pumping = false;
    }
  }
}
