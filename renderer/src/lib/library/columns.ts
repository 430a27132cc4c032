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
  /** How long the column stays when the table is too narrow for all the chosen ones: lowest leaves first. */
  keep: number;
  /** The first click sorts this way (newest and most cited first). */
  firstDirection: 'asc' | 'desc';
}

// Counts are shown whole: mentioning and citing up to 99,999, supporting and contrasting up to 9,999
// (wider ones are cut, with the full count on hover). Flexible columns share the room the fixed ones
// leave, 6:1:1 for title, creators and container, each at least its width, so the title gets most of
// it: at 1360 pixels with the default panes at least 200 px, at 1920 about 620 (it got 120–272 before).
// When the table is narrower than its chosen columns (a 1,024-pixel window), the columns with the
// lowest `keep` are left out until the rest fit (layout.ts fitColumns), instead of the table scrolling
// sideways with three columns in view; the footline names what was left out.
export const COLUMNS: readonly ColumnDef[] = [
  { id: 'title', label: 'Title', px: 200, flex: 6, keep: 100, firstDirection: 'asc' },
  { id: 'creators', label: 'Creators', px: 80, flex: 1, keep: 90, firstDirection: 'asc' },
  { id: 'year', label: 'Year', px: 52, numeric: true, keep: 85, firstDirection: 'desc' },
  { id: 'container', label: 'Container', px: 80, flex: 1, keep: 40, firstDirection: 'asc' },
  { id: 'type', label: 'Type', px: 112, keep: 30, firstDirection: 'asc' },
  { id: 'citationKey', label: 'Citation key', px: 136, keep: 35, firstDirection: 'asc' },
  { id: 'dateAdded', label: 'Date added', px: 92, keep: 30, firstDirection: 'desc' },
  { id: 'dateModified', label: 'Date modified', short: 'Modified', px: 96, keep: 25, firstDirection: 'desc' },
  { id: 'publisher', label: 'Publisher', px: 120, keep: 20, firstDirection: 'asc' },
  { id: 'pages', label: 'Pages', px: 72, keep: 20, firstDirection: 'asc' },
  { id: 'extra', label: 'Extra', px: 140, keep: 15, firstDirection: 'asc' },
  { id: 'attachments', label: 'Attachments', short: 'Files', px: 52, keep: 55, firstDirection: 'desc' },
  { id: 'notes', label: 'Notes', px: 60, numeric: true, keep: 45, firstDirection: 'desc' },
  { id: 'supporting', label: 'Supporting', short: 'Sup', px: 50, numeric: true, keep: 70, firstDirection: 'desc' },
  { id: 'contrasting', label: 'Contrasting', short: 'Con', px: 50, numeric: true, keep: 65, firstDirection: 'desc' },
  { id: 'mentioning', label: 'Mentioning', short: 'Men', px: 58, numeric: true, keep: 50, firstDirection: 'desc' },
  { id: 'citing', label: 'Citing publications', short: 'Cit', px: 58, numeric: true, keep: 48, firstDirection: 'desc' },
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
