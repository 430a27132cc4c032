// The table's columns: what each shows, how wide it is, and which sort it maps to.
import type { SortColumn } from '../../../../shared/model/library';

export type ColumnId = SortColumn;

export interface ColumnDef {
  id: ColumnId;
  label: string;
  /** A short header for the compact evidence columns; `label` stays the accessible name. */
  short?: string;
  width: string;
  numeric?: boolean;
  /** The first click sorts this way (newest and most cited first). */
  firstDirection: 'asc' | 'desc';
}

// Counts are shown whole: mentioning and citing up to 999,999, supporting and contrasting up to 99,999;
// the default columns still fit beside the sidebar and the details column in a 1360-pixel window.
export const COLUMNS: readonly ColumnDef[] = [
  { id: 'title', label: 'Title', width: 'minmax(10rem, 3fr)', firstDirection: 'asc' },
  { id: 'creators', label: 'Creators', width: 'minmax(6rem, 1.4fr)', firstDirection: 'asc' },
  { id: 'year', label: 'Year', width: '4.4rem', numeric: true, firstDirection: 'desc' },
  { id: 'container', label: 'Container', width: 'minmax(6rem, 1.1fr)', firstDirection: 'asc' },
  { id: 'type', label: 'Type', width: '7.5rem', firstDirection: 'asc' },
  { id: 'citationKey', label: 'Citation key', width: '9rem', firstDirection: 'asc' },
  { id: 'dateAdded', label: 'Date added', width: '6.4rem', firstDirection: 'desc' },
  { id: 'supporting', label: 'Supporting', short: 'Sup', width: '4.3rem', numeric: true, firstDirection: 'desc' },
  { id: 'contrasting', label: 'Contrasting', short: 'Con', width: '4.3rem', numeric: true, firstDirection: 'desc' },
  { id: 'mentioning', label: 'Mentioning', short: 'Men', width: '4.8rem', numeric: true, firstDirection: 'desc' },
  { id: 'citing', label: 'Citing publications', short: 'Cit', width: '4.8rem', numeric: true, firstDirection: 'desc' },
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
