import { COLUMNS, columnDef, sanitizeColumns, type ColumnDef, type ColumnId } from '../library/columns';

const KEY = 'citewise.library.columns';

/** The table's columns, chosen and ordered by the user, kept in localStorage (a view preference, not library data). */
export class ColumnPrefs {
  #ids = $state<ColumnId[]>(sanitizeColumns(read()));
  #defs = $derived(this.#ids.map(columnDef));
  #template = $derived(this.#defs.map((c) => c.width).join(' '));

  get ids(): readonly ColumnId[] { return this.#ids; }
  get visible(): readonly ColumnDef[] { return this.#defs; }
  /** The CSS grid template shared by the header and every row. */
  get template() { return this.#template; }
  get all() { return COLUMNS; }

  shown(id: ColumnId): boolean {
    return this.#ids.includes(id);
  }

  toggle(id: ColumnId): void {
    if (this.shown(id)) {
      if (this.#ids.length > 1) this.#save(this.#ids.filter((c) => c !== id));
    } else {
      // A column comes back where it sits in the default order, among those shown.
      const order = COLUMNS.map((c) => c.id);
      const next = [...this.#ids, id].sort((a, b) => {
        const ia = this.#ids.indexOf(a);
        const ib = this.#ids.indexOf(b);
        return ia >= 0 && ib >= 0 ? ia - ib : order.indexOf(a) - order.indexOf(b);
      });
      this.#save(next);
    }
  }

  /** Moves a shown column by `delta` places (left is negative). */
  move(id: ColumnId, delta: number): void {
    const from = this.#ids.indexOf(id);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= this.#ids.length) return;
    const next = [...this.#ids];
    next.splice(from, 1);
    next.splice(to, 0, id);
    this.#save(next);
  }

  /** Puts `id` where `before` is (header drag and drop). */
  place(id: ColumnId, before: ColumnId): void {
    if (id === before) return;
    const next = this.#ids.filter((c) => c !== id);
    const at = next.indexOf(before);
    next.splice(at < 0 ? next.length : at + (this.#ids.indexOf(id) < this.#ids.indexOf(before) ? 1 : 0), 0, id);
    this.#save(next);
  }

  reset(): void {
    this.#save(sanitizeColumns(null));
  }

  #save(ids: ColumnId[]): void {
    this.#ids = ids;
    try {
      localStorage.setItem(KEY, JSON.stringify(ids));
    } catch {
      // Storage may be full or disabled; the choice still holds for this session.
    }
  }
}

function read(): unknown {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? 'null');
  } catch {
    return null;
  }
}
