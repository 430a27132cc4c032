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

// Counts are shown whole: mentioning and citing up to 999,999, supporting and contrasting up to 99,999;
// the default columns (808 px with the title's least width) fit beside the default sidebar and
// details column in a 1440-pixel window, and the title takes what is left.
export const COLUMNS: readonly ColumnDef[] = [
  { id: 'title', label: 'Title', px: 200, flex: true, firstDirection: 'asc' },
  { id: 'creators', label: 'Creators', px: 140, firstDirection: 'asc' },
  { id: 'year', label: 'Year', px: 60, numeric: true, firstDirection: 'desc' },
  { id: 'container', label: 'Container', px: 120, firstDirection: 'asc' },
  { id: 'type', label: 'Type', px: 120, firstDirection: 'asc' },
  { id: 'citationKey', label: 'Citation key', px: 144, firstDirection: 'asc' },
  { id: 'dateAdded', label: 'Date added', px: 102, firstDirection: 'desc' },
  { id: 'supporting', label: 'Supporting', short: 'Sup', px: 68, numeric: true, firstDirection: 'desc' },
  { id: 'contrasting', label: 'Contrasting', short: 'Con', px: 68, numeric: true, firstDirection: 'desc' },
  { id: 'mentioning', label: 'Mentioning', short: 'Men', px: 76, numeric: true, firstDirection: 'desc' },
  { id: 'citing', label: 'Citing publications', short: 'Cit', px: 76, numeric: true, firstDirection: 'desc' },
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
