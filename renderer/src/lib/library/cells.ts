// How table cells read: evidence counts with distinct "not fetched" (—), "unknown to the service" (?)
// and 0, the data's age, and dates, all as plain text.
import type { LibraryRow, TallyState } from '../../../../shared/model/library';

export type EvidenceColumn = 'supporting' | 'contrasting' | 'mentioning' | 'citing';

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
  state: 'not-fetched' | 'unknown' | 'zero' | 'count';
  title: string;
}

export function evidenceCell(tally: TallyState, column: EvidenceColumn, now = Date.now()): EvidenceCell {
  if (tally.state === 'not-fetched') return { text: '—', state: 'not-fetched', title: 'Evidence not fetched yet' };
  if (tally.state === 'unknown') return { text: '?', state: 'unknown', title: `Unknown to the citation service (checked ${ago(tally.fetchedAt, now)})` };
  const value = column === 'citing' ? tally.citingPublications : tally[column];
  const age = `fetched ${ago(tally.fetchedAt, now)}`;
  if (value === null) return { text: '?', state: 'unknown', title: `Not reported by the service (${age})` };
  const label = column === 'citing' ? 'citing publications' : `${column} citation statements`;
  return { text: value.toLocaleString('en'), state: value === 0 ? 'zero' : 'count', title: `${value.toLocaleString('en')} ${label} (${age})` };
}

const TYPE_LABELS: Record<string, string> = {
  'article-journal': 'Journal article',
  'paper-conference': 'Conference paper',
  chapter: 'Chapter',
  book: 'Book',
  thesis: 'Thesis',
  report: 'Report',
  dataset: 'Dataset',
  webpage: 'Web page',
  article: 'Preprint',
  patent: 'Patent',
  software: 'Software',
};

export function typeLabel(type: string): string {
  return TYPE_LABELS[type] ?? type.replace(/-/g, ' ');
}

export function dateText(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export function rowTitle(row: LibraryRow): string {
  return row.title ?? '(untitled)';
}
