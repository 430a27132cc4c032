// The table's columns: what each shows, how wide it is, and which sort it maps to.
import type { SortColumn } from '../../../../shared/model/library';

export type ColumnId = SortColumn;

export interface ColumnDef {
  id: ColumnId;
  label: string;
  /** A short header for the compact evidence columns; `label` stays the accessible name. */
  short?: string;
  /** The default width in CSS pixels; for a flexible column, its least width (it also takes a share of the spare room). */
  px: number;
  /**
   * A flexible column's share of the room the fixed columns leave (CSS `fr`). The title has the
   * largest share and stays flexible when resized (the width then is its least); another flexible
   * column the user resized keeps that width, fixed.
   */
  flex?: number;
  numeric?: boolean;
  /** The first click sorts this way (newest and most cited first). */
  firstDirection: 'asc' | 'desc';
}

// Counts are shown whole: mentioning and citing up to 99,999, supporting and contrasting up to 9,999
// (wider ones are cut, with the full count on hover). The default columns (552 px with the title,
// creators and container at their least widths) fit beside the navigation (245 px), the default
// sidebar and details column from a 1360-pixel window up (the notices e2e test checks there is no
// sideways scroll at 1360). The room left is shared 4:1:1 by title, creators and container, each at
// least its width: at 1360 creators and container stay at their least and the title takes the rest
// (about 195 px, where fixed widths of 110 and 96 left it 130), at 1920 about 600, 150, 150.
export const COLUMNS: readonly ColumnDef[] = [
  { id: 'title', label: 'Title', px: 120, flex: 4, firstDirection: 'asc' },
  { id: 'creators', label: 'Creators', px: 72, flex: 1, firstDirection: 'asc' },
  { id: 'year', label: 'Year', px: 52, numeric: true, firstDirection: 'desc' },
  { id: 'container', label: 'Container', px: 64, flex: 1, firstDirection: 'asc' },
  { id: 'type', label: 'Type', px: 120, firstDirection: 'asc' },
  { id: 'citationKey', label: 'Citation key', px: 144, firstDirection: 'asc' },
  { id: 'dateAdded', label: 'Date added', px: 102, firstDirection: 'desc' },
  { id: 'supporting', label: 'Supporting', short: 'Sup', px: 56, numeric: true, firstDirection: 'desc' },
  { id: 'contrasting', label: 'Contrasting', short: 'Con', px: 56, numeric: true, firstDirection: 'desc' },
  { id: 'mentioning', label: 'Mentioning', short: 'Men', px: 66, numeric: true, firstDirection: 'desc' },
  { id: 'citing', label: 'Citing publications', short: 'Cit', px: 66, numeric: true, firstDirection: 'desc' },
];

export const DEFAULT_COLUMNS: readonly ColumnId[] = [
  'title',
  'creators',
  'year',
  'container',
  'supporting',
  'contrasting',
  'mentioning',
  'citing',
];

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
