import type { CitewiseApi, IpcError } from '../../../../shared/ipc';
import type { LibraryRow, Page, Sort } from '../../../../shared/model/library';
import { loadPlan, MoveSpeed, nextRows, ScrollPace, SETTLE_MS } from '../library/load-pace';
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
 * Rows are held by their index alone (a flat array, and a map for rows far beyond it), so a row can
 * never come from another position. When the table shows rows far beyond the loaded ones (the
 * scrollbar thumb dragged down the list), those rows are asked for where they are, once the table
 * moves slowly enough for them to be seen, instead of every page in between (load-pace.ts). Answers
 * to a load that has been superseded are dropped.
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
  /**
   * Rows loaded far beyond #rows, by index, and the cursors that read on from the end of each run of
   * them. Plain maps, as #rows is a plain array: readers depend on #version, bumped when rows arrive.
   */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- see above
  #far = new Map<number, LibraryRow>();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- see above
  readonly #farCursors = new Map<number, string>();
  #cursor: string | null = null;
  #ended = false;
  /** The rows the table shows (with its spare ones). */
  #first = 0;
  #last = 0;
  /** How fast the table moves down, and so how far ahead and in what requests rows load (load-pace.ts). */
  readonly #pace = new ScrollPace();
  #plan = loadPlan(0);
  /** How fast it moves either way: too fast, and rows far from the loaded ones wait until it slows. */
  readonly #speed = new MoveSpeed();
  #settle: ReturnType<typeof setTimeout> | undefined;
  #generation = 0;
  #pumping = false;
  #where: Where | null = null;
  #sort: Sort = { column: 'title', direction: 'asc' };
  #keep: Keep = 'none';
  /** Called when the first answer of a new load is in: its first rows are shown, or its error is. */
  onFirstPage: ((generation: number) => void) | null = null;

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  /** How many rows the view has (0 until counted). */
  get count() {
    return this.#count;
  }
  get counted() {
    return this.#counted;
  }
  get error() {
    return this.#error;
  }
  /** Changes whenever rows arrive; read it to re-render with them. */
  get version() {
    return this.#version;
  }
  get generation() {
    return this.#generation;
  }

  row(index: number): LibraryRow | undefined {
    void this.#version;
    return this.#rows[index] ?? this.#far.get(index) ?? this.#stale[index];
  }

  /** Whether the row at `index` is current (not a leftover of the previous load shown meanwhile). */
  isFresh(index: number): boolean {
    void this.#version;
    return index < this.#rows.length || this.#far.has(index);
  }

  /** Starts over for a new where/sort; see Keep for what stays on screen meanwhile. */
  load(where: Where, sort: Sort, keep: Keep = 'none'): number {
    const generation = ++this.#generation;
    // Keep what is on screen: the rows of this load, else those kept from before (a refresh that
    // starts before the previous one got its first rows must not drop them).
    if (keep === 'none') this.#stale = [];
    else {
      const stale =
        this.#rows.length >= this.#stale.length ? this.#rows : [...this.#rows, ...this.#stale.slice(this.#rows.length)];
      for (const [index, row] of this.#far) stale[index] ??= row;
      this.#stale = stale;
    }
    this.#rows = [];
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- see #far
    this.#far = new Map();
    this.#farCursors.clear();
    this.#cursor = null;
    this.#ended = false;
    this.#where = where;
    this.#sort = sort;
    this.#keep = keep;
    this.#error = null;
    if (keep === 'none') {
      this.#counted = false;
      this.#count = 0;
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
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- see #far
    this.#far = new Map();
    this.#farCursors.clear();
    this.#stale = [];
    this.#count = 0;
    this.#counted = true;
    this.#version++;
  }

  /** The table shows rows `firstIndex` … `lastIndex`: load them, and a little beyond. */
  want(firstIndex: number, lastIndex: number): void {
    const now = performance.now();
    this.#plan = loadPlan(this.#pace.moved(lastIndex, now));
    this.#speed.moved(firstIndex, now);
    this.#first = Math.max(0, firstIndex);
    this.#last = Math.max(0, lastIndex);
    void this.#pump();
    // Rows skipped while the table moved too fast are asked for once it stops.
    if (this.#speed.fast(now)) {
      clearTimeout(this.#settle);
      this.#settle = setTimeout(() => void this.#pump(), SETTLE_MS + 1);
    }
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

  /** Whether every row from `from` to `to` (inclusive, either order) is loaded. */
  hasAll(from: number, to: number): boolean {
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) if (!this.row(i)) return false;
    return true;
  }

  /**
   * The ids of rows `from` … `to` (inclusive, either order), read from the core: a Shift-selected range
   * over rows that were never loaded (the table jumped past them). A refresh meanwhile (the library
   * changed) starts the reading over; null when the core answers with an error or the view is gone.
   */
  async idsOfRange(from: number, to: number): Promise<number[] | null> {
    const last = Math.max(from, to);
    for (let attempt = 0; attempt < 3; attempt++) {
      const where = this.#where;
      const generation = this.#generation;
      if (!where) return null;
      const ids: number[] = [];
      let at = Math.min(from, to);
      let cursor: string | null = null;
      let changed = false;
      while (at <= last) {
        const start: { cursor: string } | { offset: number } = cursor ? { cursor } : { offset: at };
        const result = await this.#api.invoke('library.list', {
          ...where,
          sort: this.#sort,
          limit: Math.min(1000, last + 1 - at),
          ...start,
        });
        if (!result.ok) return null;
        if (generation !== this.#generation) {
          changed = true;
          break;
        }
        const page: Page = result.value;
        for (const row of page.rows) ids.push(row.id);
        at += page.rows.length;
        cursor = page.nextCursor;
        if (!cursor || page.rows.length === 0) break;
      }
      if (!changed) return ids;
    }
    return null;
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

  #nextRows(next: number): { at: number; limit: number } | null {
    const now = performance.now();
    const wanted = {
      first: this.#first,
      last: this.#last,
      ...this.#plan,
      fast: this.#speed.fast(now),
      landed: this.#speed.landed(now),
    };
    return nextRows(wanted, next, this.#count, (i) => i < next || this.#far.has(i));
  }

  /** Rows that arrived for `at` onwards, far beyond the loaded run. */
  #placeFar(at: number, { rows, nextCursor }: Page): void {
    rows.forEach((row, k) => this.#far.set(at + k, row));
    this.#farCursors.delete(at);
    if (nextCursor && rows.length > 0) this.#farCursors.set(at + rows.length, nextCursor);
    else {
      // The list ends here (it may have changed since it was counted).
      this.#count = at + rows.length;
      this.#stale.length = Math.min(this.#stale.length, this.#count);
    }
    this.#version++;
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
        if (next > 0 && !this.#counted) break;
        const ask = next === 0 ? { at: 0, limit: FIRST_ROWS } : this.#nextRows(next);
        if (!ask) break;
        const farCursor = this.#farCursors.get(ask.at);
        const from =
          ask.at === next ? { cursor: this.#cursor } : farCursor ? { cursor: farCursor } : { offset: ask.at };
        const result = await this.#api.invoke('library.list', {
          ...where,
          sort: this.#sort,
          limit: ask.limit,
          ...from,
        });
        if (generation !== this.#generation) continue;
        if (!result.ok) {
          this.#error = result.error;
          // The load is over as surely as with rows: whoever waits for its first answer (the search
          // box's busy state) must not wait for ever.
          if (next === 0) this.onFirstPage?.(generation);
          break;
        }
        if (ask.at !== next) {
          this.#placeFar(ask.at, result.value);
          continue;
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
