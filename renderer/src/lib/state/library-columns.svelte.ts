import { COLUMNS, columnDef, sanitizeColumns, type ColumnDef, type ColumnId } from '../library/columns';
import {
  clampWidth,
  columnTemplate,
  fitColumns,
  rowMinWidth,
  sanitizeWidths,
  widthOf,
  type ColumnWidths,
} from '../library/layout';
import type { LibraryLayout } from '../../../../shared/ipc/settings';

/** Keeps a part of the Library's layout in the library's settings too (see LibraryState). */
export type LayoutSaver = (part: LibraryLayout) => void;

const KEY = 'citewise.library.columns';
const WIDTHS_KEY = 'citewise.library.columnWidths';

/**
 * The table's columns, chosen, ordered and sized by the user, kept in localStorage for a quick start
 * and in the library's settings (`libraryLayout`), which win once loaded: browser mode's localStorage
 * belongs to one port, so a launch on another port would forget it. Widths are apart from the ids: dragging a width changes the template (one style
 * on the header and the rows' parent), never the list of columns each row renders.
 */
export class ColumnPrefs {
  #ids = $state<ColumnId[]>(sanitizeColumns(read(KEY)));
  #widths = $state.raw<ColumnWidths>(sanitizeWidths(read(WIDTHS_KEY)));
  /** The table's width in pixels, as last measured (0: not yet). */
  #available = $state(0);
  #fitted = $derived(fitColumns(this.#ids, this.#available));
  #chosen = $derived(this.#ids.map(columnDef));
  #defs = $derived(this.#fitted.map(columnDef));
  #hidden = $derived(this.#chosen.filter((c) => !this.#fitted.includes(c.id)));
  #template = $derived(columnTemplate(this.#fitted, this.#widths));
  #minWidth = $derived(rowMinWidth(this.#fitted, this.#widths));
  readonly #saveLayout: LayoutSaver;

  constructor(saveLayout: LayoutSaver = () => {}) {
    this.#saveLayout = saveLayout;
  }

  /** Takes the columns and widths kept in the library's settings (those it names). */
  adopt(layout: LibraryLayout): void {
    if (layout.columns) this.#ids = sanitizeColumns(layout.columns);
    if (layout.columnWidths) this.#widths = sanitizeWidths(layout.columnWidths);
  }

  get ids(): readonly ColumnId[] {
    return this.#ids;
  }
  /** The columns the table shows now: the chosen ones that fit its width (fitColumns). */
  get visible(): readonly ColumnDef[] {
    return this.#defs;
  }
  /** Every chosen column, in order, whether it fits now or not (the Columns menu lists these). */
  get chosen(): readonly ColumnDef[] {
    return this.#chosen;
  }
  /** Chosen columns left out because the table is too narrow for them now. */
  get hidden(): readonly ColumnDef[] {
    return this.#hidden;
  }

  /** The table's width changed (the window, a pane resized). */
  setAvailable(px: number): void {
    const next = Math.max(0, Math.round(px));
    if (next !== this.#available) this.#available = next;
  }
  /** The CSS grid template shared by the header and every row. */
  get template() {
    return this.#template;
  }
  get all() {
    return COLUMNS;
  }
  /** The least width of a row in pixels (wider than the pane, the table scrolls sideways). */
  get minWidth() {
    return this.#minWidth;
  }

  width(id: ColumnId): number {
    return widthOf(id, this.#widths);
  }

  /** Sets a column's width (clamped to its bounds); `save` false while a drag is still going on. */
  resize(id: ColumnId, px: number, save = true): void {
    const next = clampWidth(id, px);
    if (this.#widths[id] !== next) this.#widths = { ...this.#widths, [id]: next };
    if (save) this.#saveWidths();
  }

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

  /** Default columns, order and widths. */
  reset(): void {
    this.#save(sanitizeColumns(null));
    this.#widths = {};
    this.#saveWidths();
  }

  #save(ids: ColumnId[]): void {
    this.#ids = ids;
    store(KEY, ids);
    this.#saveLayout({ columns: [...ids] });
  }

  #saveWidths(): void {
    store(WIDTHS_KEY, this.#widths);
    this.#saveLayout({ columnWidths: { ...this.#widths } });
  }
}

export function store(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage may be full or disabled; the choice still holds for this session.
  }
}

export function read(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}
