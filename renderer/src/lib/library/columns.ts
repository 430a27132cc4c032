// The table's columns: what each shows, how wide it is, and which sort it maps to.
import type { SortColumn } from '../../../../shared/model/library';

export type ColumnId = SortColumn;

export interface ColumnDef {
  id: ColumnId;
  label: string;
  /** A short header for the compact evidence columns; `label` stays the accessible name. */
  short?: string;
  /** The default width in CSS pixels (the title's least width: it also takes the spare room). */
  px: number;
  /** Takes the spare room of the pane (the title). */
  flex?: boolean;
  numeric?: boolean;
  /** The first click sorts this way (newest and most cited first). */
  firstDirection: 'asc' | 'desc';
}

// Counts are shown whole: mentioning and citing up to 99,999, supporting and contrasting up to 9,999
// (wider ones are cut, with the full count on hover). The default columns (618 px with the title at
// its least width, 120 px) fit beside the navigation (245 px), the default sidebar and details column
// from a 1360-pixel window up (the notices e2e test checks there is no sideways scroll at 1360), and
// the title takes what is left (about 270 px at 1440); users widen what they need.
export const COLUMNS: readonly ColumnDef[] = [
  { id: 'title', label: 'Title', px: 120, flex: true, firstDirection: 'asc' },
  { id: 'creators', label: 'Creators', px: 110, firstDirection: 'asc' },
  { id: 'year', label: 'Year', px: 52, numeric: true, firstDirection: 'desc' },
  { id: 'container', label: 'Container', px: 96, firstDirection: 'asc' },
  { id: 'type', label: 'Type', px: 120, firstDirection: 'asc' },
  { id: 'citationKey', label: 'Citation key', px: 144, firstDirection: 'asc' },
  { id: 'dateAdded', label: 'Date added', px: 102, firstDirection: 'desc' },
  { id: 'supporting', label: 'Supporting', short: 'Sup', px: 56, numeric: true, firstDirection: 'desc' },
  { id: 'contrasting', label: 'Contrasting', short: 'Con', px: 56, numeric: true, firstDirection: 'desc' },
  { id: 'mentioning', label: 'Mentioning', short: 'Men', px: 66, numeric: true, firstDirection: 'desc' },
  { id: 'citing', label: 'Citing publications', short: 'Cit', px: 66, numeric: true, firstDirection: 'desc' },
];

export const DEFAULT_COLUMNS: readonly ColumnId[] = ['title', 'creators', 'year', 'container', 'supporting', 'contrasting', 'mentioning', 'citing'];

export function columnDef(id: ColumnId): ColumnDef {
  return COLUMNS.find((c) => c.id === id)!;
}

/** Keeps known, distinct ids and at least the title, whatever localStorage held. */
export function sanitizeColumns(value: unknown): ColumnId[] {
  if (!Array.isArray(value)) return [...DEFAULT_COLUMNS];
  const known = new Set<string>(COLUMNS.map((c) => c.id));
  const ids = [...new Set(value.filter((v): v is ColumnId => typeof v === 'string' && known.has(v)))];
  return ids.length ? ids : [...DEFAULT_COLUMNS];
}
