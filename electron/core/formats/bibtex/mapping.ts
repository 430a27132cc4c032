// BibTeX/BibLaTeX ↔ CSL: entry types and fields. Sources: the biblatex manual (§2.1, §2.2), BibTeX's
// standard styles, and the CSL 1.0.2 variable list. Fields with no CSL variable are kept verbatim in
// `custom.bibtex.fields`, so BibTeX → library → BibTeX keeps every field.
import { CSL_DATE_FIELDS, CSL_NAME_FIELDS, type CslItemType } from '../../../../shared/model/csl';

export type Flavor = 'bibtex' | 'biblatex';
export type FieldKind = 'rich' | 'text' | 'verbatim' | 'names' | 'pages' | 'doi' | 'date';

export const TYPE_TO_CSL: Readonly<Record<string, CslItemType>> = {
  article: 'article-journal',
  book: 'book',
  mvbook: 'book',
  inbook: 'chapter',
  bookinbook: 'chapter',
  suppbook: 'chapter',
  booklet: 'pamphlet',
  collection: 'book',
  mvcollection: 'book',
  incollection: 'chapter',
  suppcollection: 'chapter',
  dataset: 'dataset',
  data: 'dataset',
  manual: 'report',
  misc: 'document',
  online: 'webpage',
  electronic: 'webpage',
  www: 'webpage',
  patent: 'patent',
  periodical: 'periodical',
  suppperiodical: 'article-journal',
  proceedings: 'book',
  mvproceedings: 'book',
  inproceedings: 'paper-conference',
  conference: 'paper-conference',
  reference: 'book',
  mvreference: 'book',
  inreference: 'entry-encyclopedia',
  report: 'report',
  techreport: 'report',
  set: 'document',
  software: 'software',
  thesis: 'thesis',
  phdthesis: 'thesis',
  mastersthesis: 'thesis',
  unpublished: 'manuscript',
  artwork: 'graphic',
  image: 'graphic',
  audio: 'song',
  music: 'song',
  video: 'motion_picture',
  movie: 'motion_picture',
  performance: 'performance',
  letter: 'personal_communication',
  review: 'review',
  jurisdiction: 'legal_case',
  legislation: 'legislation',
  legal: 'treaty',
  standard: 'standard',
  commentary: 'book',
};

const CSL_TO_TYPE: Readonly<Partial<Record<CslItemType, [bibtex: string, biblatex: string]>>> = {
  article: ['article', 'article'],
  'article-journal': ['article', 'article'],
  'article-magazine': ['article', 'article'],
  'article-newspaper': ['article', 'article'],
  review: ['article', 'review'],
  'review-book': ['article', 'review'],
  book: ['book', 'book'],
  classic: ['book', 'book'],
  collection: ['book', 'collection'],
  chapter: ['incollection', 'incollection'],
  'entry-encyclopedia': ['incollection', 'inreference'],
  'entry-dictionary': ['incollection', 'inreference'],
  entry: ['incollection', 'inreference'],
  'paper-conference': ['inproceedings', 'inproceedings'],
  thesis: ['phdthesis', 'thesis'],
  report: ['techreport', 'report'],
  manuscript: ['unpublished', 'unpublished'],
  pamphlet: ['booklet', 'booklet'],
  webpage: ['misc', 'online'],
  post: ['misc', 'online'],
  'post-weblog': ['misc', 'online'],
  software: ['misc', 'software'],
  dataset: ['misc', 'dataset'],
  patent: ['misc', 'patent'],
  periodical: ['misc', 'periodical'],
  standard: ['techreport', 'standard'],
  graphic: ['misc', 'artwork'],
  song: ['misc', 'audio'],
  motion_picture: ['misc', 'video'],
  performance: ['misc', 'performance'],
  personal_communication: ['misc', 'letter'],
  legal_case: ['misc', 'jurisdiction'],
  legislation: ['misc', 'legislation'],
  treaty: ['misc', 'legal'],
};

/** The entry types classic BibTeX's standard styles (plain, alpha, natbib's) define. */
export const BIBTEX_TYPES = new Set([
  'article',
  'book',
  'booklet',
  'conference',
  'inbook',
  'incollection',
  'inproceedings',
  'manual',
  'mastersthesis',
  'misc',
  'phdthesis',
  'proceedings',
  'techreport',
  'unpublished',
]);

/** biblatex's keys for the `type` field, which classic BibTeX would print as they are ("phdthesis"). */
export const BIBLATEX_TYPE_KEYS = new Set([
  'phdthesis',
  'mathesis',
  'candthesis',
  'techreport',
  'resreport',
  'software',
  'datacd',
  'audiocd',
]);

/** The CSL type of an entry type (and, for @article, its biblatex entrysubtype). */
export function cslTypeOf(bibType: string, entrysubtype?: string): CslItemType | undefined {
  if (bibType === 'article' && entrysubtype) {
    const sub = entrysubtype.trim().toLowerCase();
    if (sub === 'magazine') return 'article-magazine';
    if (sub === 'newspaper') return 'article-newspaper';
  }
  return TYPE_TO_CSL[bibType];
}

/**
 * The entry type to write. The type the entry came with wins when it still means the item's CSL type
 * (so @phdthesis stays @phdthesis, @online stays @online); otherwise the flavour's usual type.
 */
export function exportTypeOf(
  cslType: CslItemType,
  flavor: Flavor,
  sourceType: string | undefined,
  genre: string | undefined,
): string {
  // Classic BibTeX's styles know only their own types: a biblatex-born @online, @report or @thesis
  // becomes @misc, @techreport or @phdthesis/@mastersthesis there (as Better BibTeX writes it).
  if (sourceType && TYPE_TO_CSL[sourceType] === cslType && (flavor === 'biblatex' || BIBTEX_TYPES.has(sourceType)))
    return sourceType;
  const pair = CSL_TO_TYPE[cslType];
  if (cslType === 'thesis' && flavor === 'bibtex' && genre && /master|mathesis|m\.?\s?sc|m\.?a\.|diplom/i.test(genre))
    return 'mastersthesis';
  if (!pair) return 'misc';
  return flavor === 'bibtex' ? pair[0] : pair[1];
}

/** The genre a thesis type implies, for styles that print "[Doctoral dissertation]". */
export function impliedGenre(bibType: string): string | undefined {
  if (bibType === 'phdthesis') return 'PhD thesis';
  if (bibType === 'mastersthesis') return "Master's thesis";
  if (bibType === 'techreport') return 'Technical report';
  return undefined;
}

const PERIODICAL_TYPES = new Set<CslItemType>([
  'article',
  'article-journal',
  'article-magazine',
  'article-newspaper',
  'periodical',
  'review',
  'review-book',
]);
const NUMBERED_TYPES = new Set<CslItemType>([
  'report',
  'patent',
  'standard',
  'legislation',
  'bill',
  'regulation',
  'document',
  'legal_case',
  'treaty',
  'dataset',
  'software',
  'webpage',
  'manuscript',
  'pamphlet',
]);

export interface FieldRule {
  csl: string;
  kind: FieldKind;
}

const FIELD_TABLE: Readonly<Record<string, FieldRule>> = {
  title: { csl: 'title', kind: 'rich' },
  shorttitle: { csl: 'title-short', kind: 'rich' },
  journal: { csl: 'container-title', kind: 'rich' },
  journaltitle: { csl: 'container-title', kind: 'rich' },
  booktitle: { csl: 'container-title', kind: 'rich' },
  series: { csl: 'collection-title', kind: 'rich' },
  shortjournal: { csl: 'container-title-short', kind: 'text' },
  eventtitle: { csl: 'event-title', kind: 'rich' },
  venue: { csl: 'event-place', kind: 'text' },
  volume: { csl: 'volume', kind: 'text' },
  volumes: { csl: 'number-of-volumes', kind: 'text' },
  issue: { csl: 'issue', kind: 'text' },
  pages: { csl: 'page', kind: 'pages' },
  pagetotal: { csl: 'number-of-pages', kind: 'text' },
  edition: { csl: 'edition', kind: 'text' },
  publisher: { csl: 'publisher', kind: 'text' },
  address: { csl: 'publisher-place', kind: 'text' },
  location: { csl: 'publisher-place', kind: 'text' },
  school: { csl: 'publisher', kind: 'text' },
  institution: { csl: 'publisher', kind: 'text' },
  doi: { csl: 'DOI', kind: 'doi' },
  url: { csl: 'URL', kind: 'verbatim' },
  isbn: { csl: 'ISBN', kind: 'text' },
  issn: { csl: 'ISSN', kind: 'text' },
  pmid: { csl: 'PMID', kind: 'text' },
  pmcid: { csl: 'PMCID', kind: 'text' },
  abstract: { csl: 'abstract', kind: 'text' },
  keywords: { csl: 'keyword', kind: 'text' },
  note: { csl: 'note', kind: 'text' },
  annote: { csl: 'annote', kind: 'text' },
  annotation: { csl: 'annote', kind: 'text' },
  language: { csl: 'language', kind: 'text' },
  type: { csl: 'genre', kind: 'text' },
  chapter: { csl: 'chapter-number', kind: 'text' },
  version: { csl: 'version', kind: 'text' },
  author: { csl: 'author', kind: 'names' },
  editor: { csl: 'editor', kind: 'names' },
  translator: { csl: 'translator', kind: 'names' },
  bookauthor: { csl: 'container-author', kind: 'names' },
  urldate: { csl: 'accessed', kind: 'date' },
  origdate: { csl: 'original-date', kind: 'date' },
  eventdate: { csl: 'event-date', kind: 'date' },
};

// A Map: looked up a million times in a big import, with keys V8 cannot shape.
const FIELDS = new Map(Object.entries(FIELD_TABLE));

/** CSL variables written under their own name when BibTeX has none; read back the same way. */
const CSL_TEXT_VARIABLES = new Set([
  'archive',
  'archive_collection',
  'archive_location',
  'archive-place',
  'authority',
  'call-number',
  'citation-label',
  'collection-number',
  'dimensions',
  'division',
  'event-title',
  'genre',
  'jurisdiction',
  'medium',
  'number',
  'original-publisher',
  'original-publisher-place',
  'original-title',
  'part-number',
  'part-title',
  'printing-number',
  'references',
  'reviewed-genre',
  'reviewed-title',
  'scale',
  'section',
  'source',
  'status',
  'supplement-number',
  'volume-title',
  'year-suffix',
  'chapter-number',
  'citation-number',
  'first-reference-note-number',
  'locator',
  'number-of-volumes',
  'number-of-pages',
  'container-title-short',
  'title-short',
  'publisher-place',
  'event-place',
  'collection-title',
]);
const CSL_NAMES = new Set<string>(CSL_NAME_FIELDS);
const CSL_DATES = new Set<string>(CSL_DATE_FIELDS);

/** How a BibTeX field maps into CSL for an item of this type; undefined keeps it verbatim in custom. */
const ISSUE: FieldRule = { csl: 'issue', kind: 'text' };
const NUMBER: FieldRule = { csl: 'number', kind: 'text' };
const COLLECTION_NUMBER: FieldRule = { csl: 'collection-number', kind: 'text' };

export function fieldRule(name: string, cslType: CslItemType): FieldRule | undefined {
  if (name === 'number')
    return PERIODICAL_TYPES.has(cslType) ? ISSUE : NUMBERED_TYPES.has(cslType) ? NUMBER : COLLECTION_NUMBER;
  if (name === 'eid') return PERIODICAL_TYPES.has(cslType) ? NUMBER : undefined;
  const rule = FIELDS.get(name);
  if (rule) return rule;
  if (CSL_NAMES.has(name)) return { csl: name, kind: 'names' };
  if (CSL_DATES.has(name)) return { csl: name, kind: 'date' };
  if (CSL_TEXT_VARIABLES.has(name)) return { csl: name, kind: 'text' };
  return undefined;
}

const CONTAINER_FIELDS = ['journaltitle', 'journal', 'booktitle'] as const;

/**
 * Which field is an entry's container title when it has more than one: a periodical's journal (an
 * @article with both journal and booktitle, as conference-paper exports write it, is in the journal),
 * a part of a book's booktitle, otherwise the first given. pandoc reads them in the same order.
 */
export function containerField(
  cslType: CslItemType,
  chapterLike: boolean,
  has: (field: string) => boolean,
): string | undefined {
  const present = CONTAINER_FIELDS.filter(has);
  if (present.length < 2) return present[0];
  if (PERIODICAL_TYPES.has(cslType)) return present[0];
  if (chapterLike && has('booktitle')) return 'booktitle';
  return undefined;
}

/** The BibTeX field a CSL variable is written to when the item carries no record of its source name. */
export function defaultFieldName(csl: string, cslType: CslItemType, flavor: Flavor): string {
  const bib = flavor === 'bibtex';
  switch (csl) {
    case 'container-title':
      return PERIODICAL_TYPES.has(cslType) ? (bib ? 'journal' : 'journaltitle') : 'booktitle';
    case 'publisher':
      if (cslType === 'thesis') return bib ? 'school' : 'institution';
      if (cslType === 'report') return 'institution';
      return 'publisher';
    case 'publisher-place':
      return bib ? 'address' : 'location';
    case 'issue':
      return 'number';
    case 'number':
      return PERIODICAL_TYPES.has(cslType) ? 'eid' : 'number';
    case 'collection-number':
      return NUMBERED_TYPES.has(cslType) ? 'collection-number' : 'number';
    case 'title-short':
      return 'shorttitle';
    case 'container-title-short':
      return 'shortjournal';
    case 'collection-title':
      return 'series';
    case 'event-title':
      return 'eventtitle';
    case 'event-place':
      return 'venue';
    case 'number-of-volumes':
      return 'volumes';
    case 'page':
      return 'pages';
    case 'number-of-pages':
      return 'pagetotal';
    case 'DOI':
    case 'URL':
    case 'ISBN':
    case 'ISSN':
    case 'PMID':
    case 'PMCID':
      return csl.toLowerCase();
    case 'keyword':
      return 'keywords';
    case 'genre':
      return 'type';
    case 'chapter-number':
      return 'chapter';
    case 'container-author':
      return 'bookauthor';
    case 'accessed':
      return 'urldate';
    case 'original-date':
      return 'origdate';
    case 'event-date':
      return 'eventdate';
    default:
      return csl.toLowerCase();
  }
}

/** Source names one flavour spells differently: ignored as aliases when exporting to the other. */
const BIBLATEX_ONLY_NAMES = new Set(['journaltitle', 'location', 'date']);
const BIBTEX_ONLY_NAMES = new Set(['journal', 'address', 'school']);

export function aliasUsable(alias: string, flavor: Flavor): boolean {
  return flavor === 'bibtex' ? !BIBLATEX_ONLY_NAMES.has(alias) : !BIBTEX_ONLY_NAMES.has(alias);
}

/** What a CSL item keeps of its BibTeX source, under `custom.bibtex`. */
export interface BibtexCustom {
  /** The entry type it came with. */
  type?: string;
  /** Fields with no CSL variable (or a second field for a taken variable), as LaTeX source. */
  fields?: Record<string, string>;
  /** CSL variable → the BibTeX field name it came from, when that is not the usual one. */
  aliases?: Record<string, string>;
  /** Name fields that ended in "and others". */
  others?: string[];
  /** CSL variables filled in by inference (a thesis's genre from @phdthesis), not from a field. */
  derived?: string[];
  /**
   * CSL variables whose value was made from the fields rather than copied (title + subtitle joined, a
   * biblatex list turned into "A; B", \url{…} taken out of howpublished): the value made (`as`) and the
   * fields it came from, as LaTeX source. While the variable still holds that value, export writes the
   * fields back as they were; once the user changes it, the new value is written instead.
   */
  kept?: Record<string, KeptFields>;
}

export interface KeptFields {
  as: string;
  fields: Record<string, string>;
  /** A title stored in sentence case: the title as the fields gave it, before (Use the title as written). */
  written?: string;
}

export function bibtexCustomOf(custom: unknown): BibtexCustom {
  if (custom === null || typeof custom !== 'object') return {};
  const b = (custom as Record<string, unknown>)['bibtex'];
  return b !== null && typeof b === 'object' ? (b as BibtexCustom) : {};
}
