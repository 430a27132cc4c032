// How table cells read: evidence counts with distinct "no DOI" (—), "not fetched yet" (…), "unknown to
// the service" (?) and 0, the data's age, and dates, all as plain text. EVIDENCE_MARKS is the legend.
import { plainCslText } from '../../../../shared/model/csl';
import { itemTypeLabel } from '../../../../shared/model/item-types';
import type { LibraryRow, TallyState } from '../../../../shared/model/library';
import { COLUMNS, type ColumnId } from './columns';
import { noticeBadges, type NoticeBadge } from './notices';

const COLUMN_IDS: readonly ColumnId[] = COLUMNS.map((c) => c.id);

export type EvidenceColumn = 'supporting' | 'contrasting' | 'mentioning' | 'citing';

// One formatter for every cell: toLocaleString builds a new one per call, too slow for a scrolling table.
const NUMBER = new Intl.NumberFormat('en');
export const formatCount = (n: number): string => NUMBER.format(n);

export function ago(then: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'} ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} hour${h === 1 ? '' : 's'} ago`;
  const d = Math.round(h / 24);
  if (d < 60) return `${d} days ago`;
  const mo = Math.round(d / 30);
  if (mo < 24) return `${mo} months ago`;
  return `${Math.round(d / 365)} years ago`;
}

export interface EvidenceCell {
  text: string;
  state: 'no-doi' | 'not-fetched' | 'unknown' | 'zero' | 'count';
}

/** What the marks in the evidence columns mean: the table's legend and its tooltips say the same. */
export const EVIDENCE_MARKS = [
  {
    mark: '?',
    meaning: 'not known to the citation service',
    title: 'Unknown to the citation service: it has no citation data for this DOI',
  },
  { mark: '—', meaning: 'no DOI', title: 'No DOI: the citation service can only be asked about items with a DOI' },
  { mark: '…', meaning: 'not fetched yet', title: 'Not fetched from the citation service yet' },
] as const;

export function evidenceCell(tally: TallyState, column: EvidenceColumn, hasDoi = true): EvidenceCell {
  if (tally.state === 'not-fetched')
    return hasDoi ? { text: '…', state: 'not-fetched' } : { text: '—', state: 'no-doi' };
  if (tally.state === 'unknown') return { text: '?', state: 'unknown' };
  const value = column === 'citing' ? tally.citingPublications : tally[column];
  if (value === null) return { text: '?', state: 'unknown' };
  return { text: formatCount(value), state: value === 0 ? 'zero' : 'count' };
}

/** The tooltip of an evidence cell: what the mark means and how old the data is (built on hover only). */
export function evidenceTitle(tally: TallyState, column: EvidenceColumn, now = Date.now(), hasDoi = true): string {
  if (tally.state === 'not-fetched') return hasDoi ? EVIDENCE_MARKS[2].title : EVIDENCE_MARKS[1].title;
  if (tally.state === 'unknown') return `${EVIDENCE_MARKS[0].title} (checked ${ago(tally.fetchedAt, now)})`;
  const value = column === 'citing' ? tally.citingPublications : tally[column];
  const age = `fetched ${ago(tally.fetchedAt, now)}`;
  if (value === null) return `Not reported by the service (${age})`;
  const label = column === 'citing' ? 'citing publications' : `${column} citation statements`;
  return `${formatCount(value)} ${label} (${age})`;
}

/** An item type's name ("Journal article"), the one every list and picker shows. */
export const typeLabel = itemTypeLabel;

export function dateText(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A CSL title without its rich-text markup (the table shows the text). */
export const plainTitle = plainCslText;

export function rowTitle(row: LibraryRow): string {
  return row.title === null ? '(untitled)' : plainTitle(row.title);
}

/** What one row shows, per column: its text and, for the evidence columns, the mark's class. */
export interface RowCells {
  text: Readonly<Record<ColumnId, string>>;
  className: Readonly<Record<ColumnId, string>>;
  /** The editorial notices the title is flagged with. */
  badges: readonly NoticeBadge[];
}

// Formatted once per row object (rows are replaced, never changed in place), not each time a row
// scrolls into view: a fast scroll shows twenty new rows a frame.
const formatted = new WeakMap<LibraryRow, RowCells>();

export function rowCells(row: LibraryRow): RowCells {
  let cells = formatted.get(row);
  if (cells) return cells;
  const text = {} as Record<ColumnId, string>;
  const className = {} as Record<ColumnId, string>;
  for (const id of COLUMN_IDS) {
    if (isEvidenceColumn(id)) {
      const ev = evidenceCell(row.evidence, id, row.doi !== null);
      text[id] = ev.text;
      className[id] = `ev ${ev.state}`;
    } else {
      text[id] = cellText(row, id);
      className[id] = '';
    }
  }
  cells = { text, className, badges: noticeBadges(row) };
  formatted.set(row, cells);
  return cells;
}

export const isEvidenceColumn = (id: ColumnId): id is EvidenceColumn =>
  id === 'supporting' || id === 'contrasting' || id === 'mentioning' || id === 'citing';

/** The attachment cell: "PDF" when a PDF is attached, "File" for other files, and how many when more than one. */
export function attachmentText(files: LibraryRow['files']): string {
  if (files.count === 0) return '';
  const kind = files.pdf > 0 ? 'PDF' : 'File';
  return files.count === 1 ? kind : `${kind} +${files.count - 1}`;
}

/** The plain text of a non-evidence cell. */
export function cellText(row: LibraryRow, id: ColumnId): string {
  switch (id) {
    case 'title':
      return rowTitle(row);
    case 'creators':
      return row.creators ?? '';
    case 'year':
      return row.year === null ? '' : String(row.year);
    case 'container':
      return row.container === null ? '' : plainCslText(row.container);
    case 'type':
      return typeLabel(row.type);
    case 'citationKey':
      return row.citationKey;
    case 'dateAdded':
      return dateText(row.dateAdded);
    case 'dateModified':
      return dateText(row.dateModified);
    case 'publisher':
      return row.publisher ?? '';
    case 'pages':
      return row.pages ?? '';
    case 'extra':
      return row.extra ?? '';
    case 'notes':
      return row.notesCount === 0 ? '' : formatCount(row.notesCount);
    case 'attachments':
      return attachmentText(row.files);
    default:
      return '';
  }
}
