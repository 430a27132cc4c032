// The Library's sizes a user can drag: the table's column widths and the two side panes. Pure, so the
// rules (bounds, what a stored value may be, the grid template) are tested without a DOM.
import { COLUMNS, columnDef, type ColumnId } from './columns';

/** Narrow enough for a count of five digits with its padding. */
export const MIN_COLUMN_PX = 44;
/** The title keeps room for a badge and a few words. */
export const MIN_TITLE_PX = 120;

export const MAX_COLUMN_PX = 1600;

/** Widths the user set, in CSS pixels; a column without one has its default. */
export type ColumnWidths = Partial<Record<ColumnId, number>>;

export function minWidth(id: ColumnId): number {
  return id === 'title' ? MIN_TITLE_PX : MIN_COLUMN_PX;
}

export function clampWidth(id: ColumnId, px: number): number {
  return Math.round(Math.min(MAX_COLUMN_PX, Math.max(minWidth(id), px)));
}

export function widthOf(id: ColumnId, widths: ColumnWidths): number {
  return widths[id] ?? columnDef(id).px;
}

/** Keeps known columns with finite widths, clamped to the bounds, whatever localStorage held. */
export function sanitizeWidths(value: unknown): ColumnWidths {
  const out: ColumnWidths = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const c of COLUMNS) {
    // Own keys only: a JSON `__proto__` key must not hand over inherited values.
    const v = Object.hasOwn(value, c.id) ? (value as Record<string, unknown>)[c.id] : undefined;
    if (typeof v === 'number' && Number.isFinite(v)) out[c.id] = clampWidth(c.id, v);
  }
  return out;
}

/**
 * The CSS grid template shared by the header and every row. Fixed columns have their width in pixels;
 * flexible ones (title, creators, container) are at least their width and share the spare room by
 * their `flex` (so the table fills its pane at any window size and the title gets most of what is
 * left). A flexible column other than the title that the user resized is fixed at that width. Without
 * a flexible column shown, an empty last track takes the spare room, so rows still reach the pane's edge.
 */
export function columnTemplate(ids: readonly ColumnId[], widths: ColumnWidths): string {
  let flexible = false;
  const tracks = ids.map((id) => {
    const { flex } = columnDef(id);
    if (flex && (id === 'title' || widths[id] === undefined)) {
      flexible = true;
      return `minmax(${widthOf(id, widths)}px, ${flex}fr)`;
    }
    return `${widthOf(id, widths)}px`;
  });
  if (!flexible) tracks.push('minmax(0, 1fr)');
  return tracks.join(' ');
}

/**
 * The chosen columns that fit in `available` pixels at their default widths: the columns with the
 * lowest `keep` are left out (the rightmost first among equals) until the rest fit; the title always
 * stays, and so does the last column left. `available` 0 (not measured yet) keeps them all. Widths the
 * user dragged wider are not counted: widening one column makes the table scroll sideways rather than
 * push another column out under the pointer.
 */
export function fitColumns(ids: readonly ColumnId[], available: number): ColumnId[] {
  if (!(available > 0)) return [...ids];
  const kept = [...ids];
  const widths: ColumnWidths = {};
  let total = rowMinWidth(kept, widths);
  while (total > available && kept.length > 1) {
    let drop = -1;
    for (let i = kept.length - 1; i >= 0; i--) {
      const id = kept[i]!;
      if (id === 'title') continue;
      if (drop < 0 || columnDef(id).keep < columnDef(kept[drop]!).keep) drop = i;
    }
    if (drop < 0) break;
    total -= widthOf(kept[drop]!, widths);
    kept.splice(drop, 1);
  }
  return kept;
}

/** The least width of a row: wider than the pane, the table scrolls sideways. */
export function rowMinWidth(ids: readonly ColumnId[], widths: ColumnWidths): number {
  return ids.reduce((sum, id) => sum + widthOf(id, widths), 0);
}

// ── the side panes ──

export interface PaneSizes {
  sidebar: number;
  details: number;
}

export const PANE_BOUNDS = {
  sidebar: { min: 160, max: 420, default: 192 },
  details: { min: 260, max: 640, default: 288 },
} as const;

export function clampPane(which: keyof PaneSizes, px: number): number {
  const b = PANE_BOUNDS[which];
  return Math.round(Math.min(b.max, Math.max(b.min, px)));
}

export function sanitizePanes(value: unknown): PaneSizes {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const pick = (which: keyof PaneSizes): number => {
    const x = Object.hasOwn(v, which) ? v[which] : undefined;
    return typeof x === 'number' && Number.isFinite(x) ? clampPane(which, x) : PANE_BOUNDS[which].default;
  };
  return { sidebar: pick('sidebar'), details: pick('details') };
}
