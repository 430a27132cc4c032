// How undo entries name what they revert: the action and its items ("Add item “Deep learning for …”",
// "Edit title of “…”", "Move 3 items to the Trash"), so an undo never says only "Undid: Add item".
import type { CslItem } from '../../../shared/model/csl';
import { grouped } from '../../../shared/model/numbers';

/** Longest title quoted in a label, in characters; longer ones end with "…". */
export const SUBJECT_MAX = 40;

const CREATOR_KEYS = new Set([
  'author',
  'editor',
  'translator',
  'container-author',
  'collection-editor',
  'composer',
  'director',
  'interviewer',
  'recipient',
  'reviewed-author',
]);

const FIELD_NAMES: Record<string, string> = {
  title: 'title',
  'title-short': 'short title',
  abstract: 'abstract',
  issued: 'date',
  accessed: 'access date',
  DOI: 'DOI',
  URL: 'URL',
  ISBN: 'ISBN',
  ISSN: 'ISSN',
  PMID: 'PMID',
  page: 'pages',
  volume: 'volume',
  issue: 'issue',
  publisher: 'publisher',
  'publisher-place': 'place',
  'event-title': 'conference',
  'event-place': 'conference place',
  'collection-title': 'series',
  edition: 'edition',
  language: 'language',
  note: 'note',
  genre: 'genre',
  number: 'number',
  type: 'type',
  'citation-key': 'citation key',
};

/** A title as a label quotes it: CSL markup dropped, whitespace folded, cut at a word near SUBJECT_MAX. */
export function quoteTitle(title: string): string {
  const plain = title
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= SUBJECT_MAX) return `“${plain}”`;
  const cut = plain.slice(0, SUBJECT_MAX);
  const space = cut.lastIndexOf(' ');
  return `“${(space > SUBJECT_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()} …”`;
}

/** What a label calls a set of items: the one item's title (its key when untitled), or "3 items". */
export function subjectOf(
  items: readonly { title: string | null; citationKey: string }[],
  count = items.length,
): string {
  if (count === 1 && items[0]) return quoteTitle(items[0].title || items[0].citationKey);
  return `${grouped(count)} items`;
}

const fieldName = (key: string, type: string): string =>
  CREATOR_KEYS.has(key)
    ? 'creators'
    : key === 'container-title'
      ? type === 'article-journal'
        ? 'journal'
        : 'container title'
      : (FIELD_NAMES[key] ?? key.replace(/-/g, ' '));

/** The fields an edit changed, by name ("title", "creators"), each once, in the order of the record. */
export function changedFields(before: CslItem, after: CslItem): string[] {
  const names = new Set<string>();
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === 'id') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      names.add(fieldName(key, after.type ?? before.type));
  }
  return [...names];
}

/** "Edit title of “…”", "Edit title and journal of “…”", "Edit 4 fields of “…”". */
export function editLabel(fields: readonly string[], subject: string): string {
  if (fields.length === 0) return `Edit ${subject}`;
  if (fields.length === 1) return `Edit ${fields[0]} of ${subject}`;
  if (fields.length === 2) return `Edit ${fields[0]} and ${fields[1]} of ${subject}`;
  return `Edit ${fields.length} fields of ${subject}`;
}
