import type { CitewiseApi, IpcError } from '../../../../shared/ipc';
import type { LibraryRow, Page, Sort } from '../../../../shared/model/library';
import type { Where } from '../library/views';

export const PAGE_SIZE = 200;
/** When the visible rows are far ahead of what is loaded (a jump to the end), catch up in bigger steps. */
const CATCH_UP_PAGES = 5;

/**
 * The rows of the table for one `where` and sort, loaded page by page through the keyset cursor.
 * Each page's cursor comes from the previous page, so pages load in order up to the last one the table
 * shows; rows not loaded yet read as undefined (placeholders). A reload keeps the old rows on screen
 * until their replacements arrive, so a refresh after an edit does not flash.
 */
export class RowCache {
  readonly #api: CitewiseApi;
  #count = $state(0);
  #counted = $state(false);
  #version = $state(0);
  #error = $state<IpcError | null>(null);
  #pages: (LibraryRow[] | undefined)[] = [];
  #stale: (LibraryRow[] | undefined)[] = [];
  #cursors: (string | null)[] = [];
  #loadedPages = 0;
  #ended = false;
  #wanted = 0;
  #generation = 0;
  #pumping = false;
  #where: Where | null = null;
  #sort: Sort = { column: 'title', direction: 'asc' };
  /** Called when the first page of a new load is in: results are shown. */
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
    const page = Math.floor(index / PAGE_SIZE);
    return (this.#pages[page] ?? this.#stale[page])?.[index % PAGE_SIZE];
  }

  /** Whether the row at `index` is current (not a leftover of the previous load shown meanwhile). */
  isFresh(index: number): boolean {
    void this.#version;
    return this.#pages[Math.floor(index / PAGE_SIZE)] !== undefined;
  }

  /** Starts over for a new where/sort; `keep` leaves the current rows on screen until replaced. */
  load(where: Where, sort: Sort, keep = false): number {
    const generation = ++this.#generation;
    // Keep what is on screen: the pages of this load, else those kept from before (a refresh that
    // starts before the previous one got its first page must not drop them).
    const kept = Math.max(this.#pages.length, this.#stale.length);
    this.#stale = keep ? Array.from({ length: kept }, (_, i) => this.#pages[i] ?? this.#stale[i]) : [];
    this.#pages = [];
    this.#cursors = [];
    this.#loadedPages = 0;
    this.#ended = false;
    this.#where = where;
    this.#sort = sort;
    this.#error = null;
    if (!keep) {
      this.#counted = false;
      this.#count = 0;
      this.#wanted = 0;
    }
    this.#version++;
    // The library worker answers in order: ask for the first page before the count so results show
    // sooner; the page does not need the count.
    void this.#pump();
    void this.#api.invoke('library.count', where).then((result) => {
      if (generation !== this.#generation) return;
      if (!result.ok) {
        this.#error = result.error;
        return;
      }
      this.#count = this.#ended ? this.#loadedRows() : result.value;
      this.#counted = true;
      this.#stale.length = Math.ceil(result.value / PAGE_SIZE);
      void this.#pump();
    });
    return generation;
  }

  /** Shows nothing (a view that cannot be listed). */
  clear(): void {
    this.#generation++;
    this.#where = null;
    this.#pages = [];
    this.#stale = [];
    this.#count = 0;
    this.#counted = true;
    this.#version++;
  }

  /** The table shows rows up to `lastIndex`: load the pages up to it, in order. */
  want(lastIndex: number): void {
    this.#wanted = Math.max(0, Math.floor(lastIndex / PAGE_SIZE));
    void this.#pump();
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

  #loadedRows(): number {
    let n = 0;
    for (let i = 0; i < this.#loadedPages; i++) n += this.#pages[i]?.length ?? 0;
    return n;
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (;;) {
        const generation = this.#generation;
        const where = this.#where;
        const next = this.#loadedPages;
        if (!where || this.#ended || this.#error) break;
        if (next > 0 && (!this.#counted || next * PAGE_SIZE >= this.#count || next > this.#wanted)) break;
        const behind = this.#wanted - next;
        const pages = behind >= CATCH_UP_PAGES ? CATCH_UP_PAGES : 1;
        const result = await this.#api.invoke('library.list', {
          ...where,
          sort: this.#sort,
          limit: PAGE_SIZE * pages,
          cursor: next === 0 ? null : this.#cursors[next]!,
        });
        if (generation !== this.#generation) continue;
        if (!result.ok) {
          this.#error = result.error;
          break;
        }
        const { rows, nextCursor } = result.value;
        for (let p = 0; p < pages; p++) {
          const slice = rows.slice(p * PAGE_SIZE, (p + 1) * PAGE_SIZE);
          if (slice.length === 0 && p > 0) break;
          this.#pages[next + p] = slice;
          this.#stale[next + p] = undefined;
          this.#loadedPages = next + p + 1;
        }
        this.#cursors[this.#loadedPages] = nextCursor ?? '';
        if (!nextCursor) {
          this.#ended = true;
          // The end is known exactly now; trust it over a count taken before a concurrent change.
          this.#count = this.#loadedRows();
          this.#stale.length = this.#loadedPages;
        } else if (!this.#counted || this.#count < this.#loadedRows()) {
          this.#count = Math.max(this.#count, this.#loadedRows());
        }
        this.#version++;
        if (next === 0) {
          // A user-timing mark, so benchmarks can tell the core's answer from the paint after it.
          performance.mark('citewise:library:first-page');
          this.onFirstPage?.(generation);
        }
      }
    } finally {
      this.#pumping = false;
    }
  }
}
