// An item in Zotero's own JSON shape, as Better BibTeX's "BetterBibTeX JSON" export and
// item.pandoc_filter (asCSL false) hand it out. The Obsidian plugin renders its note templates from
// these fields (title, creators, date, citationKey, itemKey, notes, attachments, tags, relations).
import { pathToFileURL } from 'node:url';
import type { CslDate, CslItem, CslName } from '../../shared/model/csl';
import type { ItemDetail } from '../../shared/model/library';

/** Citewise has one library; Better BibTeX's clients call the personal library 1, "My Library". */
export const LIBRARY_ID = 1;
export const LIBRARY_NAME = 'My Library';

/** The item's key in Zotero's sense: Citewise's item id, so item.citationkey can take it back. */
export const itemKey = (id: number): string => String(id);
export const itemUri = (id: number): string => `http://zotero.org/users/local/citewise/items/${itemKey(id)}`;

const ITEM_TYPES: Readonly<Record<string, string>> = {
  'article-journal': 'journalArticle',
  'article-magazine': 'magazineArticle',
  'article-newspaper': 'newspaperArticle',
  article: 'preprint',
  book: 'book',
  chapter: 'bookSection',
  'paper-conference': 'conferencePaper',
  thesis: 'thesis',
  report: 'report',
  webpage: 'webpage',
  dataset: 'dataset',
  patent: 'patent',
  manuscript: 'manuscript',
  software: 'computerProgram',
  'entry-encyclopedia': 'encyclopediaArticle',
  'entry-dictionary': 'dictionaryEntry',
  legislation: 'statute',
  legal_case: 'case',
  speech: 'presentation',
  interview: 'interview',
  map: 'map',
  motion_picture: 'film',
  post: 'forumPost',
  'post-weblog': 'blogPost',
};

const CREATOR_ROLES: Readonly<Record<string, string>> = {
  author: 'author',
  editor: 'editor',
  translator: 'translator',
  'container-author': 'bookAuthor',
  director: 'director',
  interviewer: 'interviewer',
  'collection-editor': 'seriesEditor',
  composer: 'composer',
  recipient: 'recipient',
  reviewed_author: 'reviewedAuthor',
};

/** CSL fields with a Zotero field of another name (the rest keep theirs when Zotero has it). */
const FIELDS: Readonly<Record<string, string>> = {
  'container-title': 'publicationTitle',
  'container-title-short': 'journalAbbreviation',
  'title-short': 'shortTitle',
  'collection-title': 'series',
  'publisher-place': 'place',
  page: 'pages',
  'number-of-pages': 'numPages',
  abstract: 'abstractNote',
  note: 'extra',
  URL: 'url',
  genre: 'type',
  number: 'number',
};
const SAME = ['title', 'publisher', 'volume', 'issue', 'edition', 'language', 'DOI', 'ISBN', 'ISSN'];

function creatorOf(name: CslName, creatorType: string): Record<string, string> {
  if (name.literal !== undefined) return { creatorType, name: name.literal };
  const lastName = [name['non-dropping-particle'], name.family].filter(Boolean).join(' ');
  const firstName = [name.given, name['dropping-particle']].filter(Boolean).join(' ');
  return { creatorType, firstName, lastName };
}

/** "2021-03-04", "2021-03", "2021" or the literal date. */
export function dateText(date: CslDate | undefined): string | undefined {
  if (!date) return undefined;
  const parts = date['date-parts']?.[0];
  if (parts && parts.length > 0 && parts[0] !== undefined && parts[0] !== null && String(parts[0]) !== '') {
    return parts
      .slice(0, 3)
      .map((p, i) => (i === 0 ? String(p) : String(p).padStart(2, '0')))
      .join('-');
  }
  return date.literal ?? date.raw;
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A Citewise note (plain text) as the HTML Zotero notes are: one paragraph per blank-line block. */
export function noteHtml(body: string): string {
  return body
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export function toZoteroItem(detail: ItemDetail): Record<string, unknown> {
  const csl: CslItem = detail.csl;
  const id = detail.id;
  const out: Record<string, unknown> = {
    itemType: ITEM_TYPES[csl.type] ?? 'document',
    citationKey: detail.citationKey,
    itemID: id,
    itemKey: itemKey(id),
    key: itemKey(id),
    libraryID: LIBRARY_ID,
    uri: itemUri(id),
    // No `select` link: Better BibTeX's is zotero://select/…, which opens Zotero, and Citewise
    // registers no scheme of its own, so any link here would lead nowhere.
  };
  const record = csl as unknown as Record<string, unknown>;
  for (const [from, to] of Object.entries(FIELDS)) {
    const v = record[from];
    if (typeof v === 'string' || typeof v === 'number') out[to] = String(v);
  }
  for (const field of SAME) {
    const v = record[field];
    if (typeof v === 'string' || typeof v === 'number') out[field] = String(v);
  }
  const date = dateText(csl.issued);
  if (date !== undefined) out.date = date;
  const accessed = dateText(record.accessed as CslDate | undefined);
  if (accessed !== undefined) out.accessDate = accessed;
  const creators: Record<string, string>[] = [];
  for (const [role, creatorType] of Object.entries(CREATOR_ROLES)) {
    const names = record[role];
    if (Array.isArray(names)) for (const n of names as CslName[]) creators.push(creatorOf(n, creatorType));
  }
  out.creators = creators;
  out.tags = detail.tags.map((tag) => ({ tag }));
  out.notes = detail.notes.map((n) => ({
    note: noteHtml(n.body),
    key: `N${n.id}`,
    dateAdded: iso(n.createdAt),
    dateModified: iso(n.modifiedAt),
  }));
  out.attachments = detail.attachments.map((a) => ({
    itemType: 'attachment',
    title: a.path.split(/[\\/]/).pop() ?? a.path,
    path: a.path,
    url: pathToFileURL(a.path).href,
    contentType: a.mime ?? '',
    key: `A${a.id}`,
    dateAdded: iso(a.addedAt),
  }));
  out.collections = detail.collections.map(String);
  out.relations = [];
  out.dateAdded = iso(detail.dateAdded);
  out.dateModified = iso(detail.dateModified);
  return out;
}
