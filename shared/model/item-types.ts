// The item types a researcher can create by hand, and the fields and creators each type has. One table
// for the New item dialog, the details column and `citewise add --type T field=value…`, so a thesis has
// a University and a dataset a Repository wherever it is edited. The variables are CSL 1.0.2's; which
// of them a type has follows the fields Zotero gives the item type it maps to (a book has a series, an
// edition and an ISBN; a web page a website title and an access date; an archival letter its archive
// and location in it).
import { CSL_ITEM_TYPES, type CslItemType, type CslNameField } from './csl';

export type FieldKind = 'text' | 'long' | 'date' | 'url';

export interface FieldSpec {
  /** The CSL variable. */
  key: string;
  label: string;
  kind: FieldKind;
}

export interface CreatorRoleSpec {
  role: CslNameField;
  label: string;
}

export interface ItemTypeSpec {
  type: CslItemType;
  label: string;
  /** Shown first in the type pickers: what most libraries hold. */
  common: boolean;
  fields: readonly FieldSpec[];
  /** The creator roles of the type, its main one first. */
  creators: readonly CreatorRoleSpec[];
}

/** Each variable's kind and usual label; a type may name it otherwise ("University" for a thesis's publisher). */
const VARIABLES: Record<string, { label: string; kind?: FieldKind }> = {
  title: { label: 'Title', kind: 'long' },
  'title-short': { label: 'Short title' },
  'container-title': { label: 'Container' },
  'container-title-short': { label: 'Journal abbreviation' },
  'collection-title': { label: 'Series' },
  'collection-number': { label: 'Series number' },
  volume: { label: 'Volume' },
  'number-of-volumes': { label: 'Number of volumes' },
  issue: { label: 'Issue' },
  page: { label: 'Pages' },
  'number-of-pages': { label: 'Pages' },
  edition: { label: 'Edition' },
  issued: { label: 'Date', kind: 'date' },
  'original-date': { label: 'Original date', kind: 'date' },
  'original-publisher': { label: 'Original publisher' },
  'original-publisher-place': { label: 'Original place' },
  submitted: { label: 'Filing date', kind: 'date' },
  'event-date': { label: 'Event date', kind: 'date' },
  accessed: { label: 'Accessed', kind: 'date' },
  publisher: { label: 'Publisher' },
  'publisher-place': { label: 'Place' },
  'event-title': { label: 'Conference' },
  'event-place': { label: 'Conference place' },
  genre: { label: 'Type' },
  medium: { label: 'Format' },
  number: { label: 'Number' },
  version: { label: 'Version' },
  section: { label: 'Section' },
  part: { label: 'Part' },
  'chapter-number': { label: 'Session' },
  authority: { label: 'Authority' },
  status: { label: 'Status' },
  dimensions: { label: 'Running time' },
  scale: { label: 'Scale' },
  references: { label: 'History' },
  archive: { label: 'Archive' },
  archive_location: { label: 'Location in archive' },
  'archive-place': { label: 'Archive place' },
  'call-number': { label: 'Call number' },
  source: { label: 'Library catalog' },
  license: { label: 'Rights' },
  DOI: { label: 'DOI' },
  ISBN: { label: 'ISBN' },
  ISSN: { label: 'ISSN' },
  PMID: { label: 'PMID' },
  PMCID: { label: 'PMCID' },
  URL: { label: 'URL', kind: 'url' },
  language: { label: 'Language' },
  note: { label: 'Extra', kind: 'long' },
};

/** Every CSL variable a type's form may show. */
export const FIELD_VARIABLES: readonly string[] = Object.keys(VARIABLES);

/** "key" or "key:Label" (the type's own name for the variable). */
function fields(...specs: string[]): FieldSpec[] {
  return specs.map((s) => {
    const at = s.indexOf(':');
    const key = at < 0 ? s : s.slice(0, at);
    const v = VARIABLES[key];
    if (!v) throw new Error(`item-types: unknown variable ${key}`);
    return { key, label: at < 0 ? v.label : s.slice(at + 1), kind: v.kind ?? 'text' };
  });
}

/** Every CSL name role's usual name; a type may call its main role otherwise ("Programmer"). */
export const CREATOR_ROLE_LABELS: Readonly<Record<CslNameField, string>> = {
  author: 'Author',
  editor: 'Editor',
  translator: 'Translator',
  contributor: 'Contributor',
  'container-author': 'Book author',
  'collection-editor': 'Series editor',
  'reviewed-author': 'Reviewed author',
  recipient: 'Recipient',
  interviewer: 'Interviewer',
  director: 'Director',
  producer: 'Producer',
  'executive-producer': 'Executive producer',
  'script-writer': 'Scriptwriter',
  performer: 'Cast member',
  host: 'Host',
  guest: 'Guest',
  narrator: 'Narrator',
  composer: 'Composer',
  'original-author': 'Original creator',
  chair: 'Chair',
  organizer: 'Organizer',
  'series-creator': 'Series creator',
  illustrator: 'Illustrator',
  compiler: 'Compiler',
  curator: 'Curator',
  'editorial-director': 'Editorial director',
};

/** "role" or "role:Label". */
function creators(...specs: string[]): CreatorRoleSpec[] {
  return specs.map((s) => {
    const at = s.indexOf(':');
    const role = (at < 0 ? s : s.slice(0, at)) as CslNameField;
    return { role, label: at < 0 ? CREATOR_ROLE_LABELS[role] : s.slice(at + 1) };
  });
}

// What most types end with: where a copy is kept, how it is found again, and the user's own notes.
const ARCHIVE = ['archive', 'archive_location', 'call-number', 'source'];
const TAIL = ['DOI', 'URL', 'accessed', 'language', 'license', 'note'];
const ARCHIVED_TAIL = ['DOI', 'URL', 'accessed', ...ARCHIVE, 'language', 'license', 'note'];

const PEOPLE = creators('author', 'editor', 'translator', 'contributor');
const BOOK_PEOPLE = creators('author', 'editor', 'translator', 'collection-editor', 'contributor');

const ARTICLE = fields(
  'title',
  'title-short',
  'container-title:Journal',
  'container-title-short',
  'issued',
  'volume',
  'issue',
  'page',
  'collection-title',
  'DOI',
  'ISSN',
  'PMID',
  'PMCID',
  'URL',
  'accessed',
  'publisher',
  'language',
  ...ARCHIVE,
  'license',
  'note',
);
const BOOK = fields(
  'title',
  'title-short',
  'collection-title',
  'collection-number',
  'volume',
  'number-of-volumes',
  'edition',
  'issued',
  'publisher',
  'publisher-place',
  'original-date',
  'original-publisher',
  'original-publisher-place',
  'medium',
  'number-of-pages',
  'ISBN',
  ...ARCHIVED_TAIL,
);
const chapterOf = (container: string): FieldSpec[] =>
  fields(
    'title',
    'title-short',
    `container-title:${container}`,
    'collection-title',
    'collection-number',
    'volume',
    'number-of-volumes',
    'edition',
    'issued',
    'publisher',
    'publisher-place',
    'page',
    'ISBN',
    ...ARCHIVED_TAIL,
  );
const LEGISLATION = fields(
  'title:Name of act',
  'title-short',
  'container-title:Code',
  'volume:Code number',
  'number:Public law number',
  'section',
  'page',
  'chapter-number',
  'issued:Date enacted',
  'references',
  ...TAIL,
);

type Spec = Omit<ItemTypeSpec, 'type' | 'common'> & { common?: boolean };

const SPECS: Record<CslItemType, Spec> = {
  'article-journal': { label: 'Journal article', common: true, fields: ARTICLE, creators: PEOPLE },
  article: {
    label: 'Preprint',
    common: true,
    fields: fields(
      'title',
      'title-short',
      'genre',
      'publisher:Repository',
      'number:Archive ID',
      'version',
      'publisher-place',
      'issued',
      'collection-title',
      'collection-number',
      ...ARCHIVED_TAIL,
    ),
    creators: PEOPLE,
  },
  'article-magazine': {
    label: 'Magazine article',
    fields: fields(
      'title',
      'title-short',
      'container-title:Magazine',
      'issued',
      'volume',
      'issue',
      'page',
      'ISSN',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author', 'translator', 'reviewed-author', 'contributor'),
  },
  'article-newspaper': {
    label: 'Newspaper article',
    fields: fields(
      'title',
      'title-short',
      'container-title:Newspaper',
      'publisher-place',
      'edition',
      'section',
      'issued',
      'page',
      'ISSN',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author', 'translator', 'reviewed-author', 'contributor'),
  },
  book: { label: 'Book', common: true, fields: BOOK, creators: BOOK_PEOPLE },
  chapter: {
    label: 'Chapter',
    common: true,
    fields: chapterOf('Book title'),
    creators: creators('author', 'editor', 'container-author', 'translator', 'collection-editor', 'contributor'),
  },
  'paper-conference': {
    label: 'Conference paper',
    common: true,
    fields: fields(
      'title',
      'title-short',
      'container-title:Proceedings',
      'event-title',
      'event-place',
      'issued',
      'volume',
      'issue',
      'page',
      'collection-title',
      'collection-number',
      'publisher',
      'publisher-place',
      'ISBN',
      'ISSN',
      ...ARCHIVED_TAIL,
    ),
    creators: BOOK_PEOPLE,
  },
  thesis: {
    label: 'Thesis',
    common: true,
    fields: fields(
      'title',
      'title-short',
      'genre:Thesis type',
      'publisher:University',
      'publisher-place',
      'issued',
      'number-of-pages',
      'collection-title',
      'collection-number',
      'ISBN',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author', 'contributor'),
  },
  report: {
    label: 'Report',
    common: true,
    fields: fields(
      'title',
      'title-short',
      'genre:Report type',
      'number:Report number',
      'collection-title',
      'collection-number',
      'publisher:Institution',
      'publisher-place',
      'issued',
      'page',
      'ISBN',
      'ISSN',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author', 'editor', 'translator', 'collection-editor', 'contributor'),
  },
  webpage: {
    label: 'Web page',
    common: true,
    fields: fields(
      'title',
      'title-short',
      'container-title:Website',
      'genre:Website type',
      'issued',
      'URL',
      'accessed',
      'publisher',
      'language',
      'license',
      'note',
    ),
    creators: creators('author', 'translator', 'contributor'),
  },
  'post-weblog': {
    label: 'Blog post',
    fields: fields(
      'title',
      'title-short',
      'container-title:Blog',
      'genre:Website type',
      'issued',
      'URL',
      'accessed',
      'ISSN',
      'language',
      'license',
      'note',
    ),
    creators: creators('author', 'translator', 'contributor'),
  },
  post: {
    label: 'Forum post',
    fields: fields(
      'title',
      'title-short',
      'container-title:Forum',
      'genre:Post type',
      'issued',
      'URL',
      'accessed',
      'language',
      'license',
      'note',
    ),
    creators: creators('author', 'contributor'),
  },
  dataset: {
    label: 'Dataset',
    common: true,
    fields: fields(
      'title',
      'title-short',
      'genre',
      'number:Identifier',
      'version',
      'issued',
      'publisher:Repository',
      'publisher-place:Repository location',
      'medium',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author', 'contributor'),
  },
  software: {
    label: 'Software',
    common: true,
    fields: fields(
      'title',
      'title-short',
      'collection-title',
      'version',
      'issued',
      'medium:System',
      'publisher:Company',
      'publisher-place',
      'genre:Programming language',
      'ISBN',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author:Programmer', 'contributor'),
  },
  manuscript: {
    label: 'Manuscript',
    common: true,
    fields: fields(
      'title',
      'title-short',
      'genre:Manuscript type',
      'publisher:Institution',
      'publisher-place',
      'issued',
      'number-of-pages',
      'number',
      ...ARCHIVE,
      'DOI',
      'URL',
      'accessed',
      'language',
      'license',
      'note',
    ),
    creators: creators('author', 'translator', 'contributor'),
  },
  document: {
    label: 'Document',
    common: true,
    fields: fields(
      'title',
      'title-short',
      'genre',
      'publisher',
      'publisher-place',
      'issued',
      ...ARCHIVE,
      'DOI',
      'URL',
      'accessed',
      'language',
      'license',
      'note',
    ),
    creators: creators('author', 'editor', 'translator', 'reviewed-author', 'contributor'),
  },
  personal_communication: {
    label: 'Letter or personal communication',
    fields: fields(
      'title',
      'title-short',
      'genre:Letter type',
      'issued',
      'event-place:Place',
      ...ARCHIVE,
      'URL',
      'accessed',
      'language',
      'license',
      'note',
    ),
    creators: creators('author', 'recipient', 'translator', 'contributor'),
  },
  interview: {
    label: 'Interview',
    fields: fields('title', 'title-short', 'medium', 'issued', 'publisher', 'publisher-place', ...ARCHIVED_TAIL),
    creators: creators('author:Interviewee', 'interviewer', 'translator', 'contributor'),
  },
  'entry-encyclopedia': {
    label: 'Encyclopedia article',
    fields: chapterOf('Encyclopedia'),
    creators: BOOK_PEOPLE,
  },
  'entry-dictionary': { label: 'Dictionary entry', fields: chapterOf('Dictionary'), creators: BOOK_PEOPLE },
  entry: { label: 'Entry', fields: chapterOf('Reference work'), creators: BOOK_PEOPLE },
  collection: { label: 'Edited collection', fields: BOOK, creators: BOOK_PEOPLE },
  classic: { label: 'Classic work', fields: BOOK, creators: BOOK_PEOPLE },
  pamphlet: {
    label: 'Pamphlet',
    fields: fields(
      'title',
      'title-short',
      'genre',
      'publisher',
      'publisher-place',
      'issued',
      'number-of-pages',
      ...ARCHIVED_TAIL,
    ),
    creators: PEOPLE,
  },
  periodical: {
    label: 'Periodical issue',
    fields: fields(
      'title',
      'title-short',
      'issued',
      'volume',
      'issue',
      'publisher',
      'publisher-place',
      'ISSN',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('editor', 'author', 'contributor'),
  },
  review: {
    label: 'Review',
    fields: ARTICLE,
    creators: creators('author', 'reviewed-author', 'translator', 'contributor'),
  },
  'review-book': {
    label: 'Book review',
    fields: ARTICLE,
    creators: creators('author', 'reviewed-author', 'translator', 'contributor'),
  },
  graphic: {
    label: 'Artwork or image',
    fields: fields(
      'title',
      'title-short',
      'medium',
      'dimensions:Size',
      'issued',
      'event-place:Place',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author:Artist', 'contributor'),
  },
  figure: {
    label: 'Figure',
    fields: fields('title', 'title-short', 'container-title:Source', 'medium', 'issued', 'page', ...ARCHIVED_TAIL),
    creators: creators('author:Creator', 'contributor'),
  },
  map: {
    label: 'Map',
    fields: fields(
      'title',
      'title-short',
      'genre:Map type',
      'scale',
      'collection-title',
      'edition',
      'publisher',
      'publisher-place',
      'issued',
      'ISBN',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author:Cartographer', 'collection-editor', 'contributor'),
  },
  motion_picture: {
    label: 'Film or video',
    fields: fields(
      'title',
      'title-short',
      'publisher:Distributor',
      'publisher-place',
      'issued',
      'genre:Genre',
      'medium',
      'dimensions',
      ...ARCHIVED_TAIL,
    ),
    creators: creators(
      'director',
      'producer',
      'script-writer',
      'performer',
      'host',
      'guest',
      'narrator',
      'contributor',
    ),
  },
  broadcast: {
    label: 'Broadcast or podcast',
    fields: fields(
      'title',
      'title-short',
      'container-title:Programme',
      'number:Episode number',
      'medium',
      'publisher:Network',
      'publisher-place',
      'issued',
      'dimensions',
      ...ARCHIVED_TAIL,
    ),
    creators: creators(
      'author:Creator',
      'director',
      'host',
      'guest',
      'producer',
      'executive-producer',
      'series-creator',
      'contributor',
    ),
  },
  song: {
    label: 'Audio recording',
    fields: fields(
      'title',
      'title-short',
      'container-title:Album',
      'medium',
      'collection-title',
      'volume',
      'publisher:Label',
      'publisher-place',
      'issued',
      'dimensions',
      'ISBN',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author:Performer', 'composer', 'original-author', 'translator', 'contributor'),
  },
  musical_score: {
    label: 'Musical score',
    fields: BOOK,
    creators: creators('composer', 'editor', 'author', 'contributor'),
  },
  performance: {
    label: 'Performance',
    fields: fields('title', 'title-short', 'genre', 'event-title:Event', 'event-place:Place', 'issued', ...TAIL),
    creators: creators('author:Performer', 'director', 'performer', 'contributor'),
  },
  speech: {
    label: 'Presentation or talk',
    fields: fields(
      'title',
      'title-short',
      'genre:Presentation type',
      'event-title:Meeting',
      'event-place:Place',
      'issued',
      'container-title:Session',
      'collection-title',
      ...TAIL,
    ),
    creators: creators('author:Presenter', 'chair', 'organizer', 'translator', 'contributor'),
  },
  event: {
    label: 'Event',
    fields: fields('title', 'title-short', 'event-place:Place', 'issued', 'publisher:Organizer', ...TAIL),
    creators: creators('organizer', 'chair', 'contributor'),
  },
  patent: {
    label: 'Patent',
    fields: fields(
      'title',
      'title-short',
      'authority:Issuing authority',
      'number:Patent number',
      'call-number:Application number',
      'submitted',
      'issued:Issue date',
      'publisher-place:Country',
      'page',
      'status:Legal status',
      'references',
      ...TAIL,
    ),
    creators: creators('author:Inventor', 'contributor'),
  },
  standard: {
    label: 'Standard',
    fields: fields(
      'title',
      'title-short',
      'authority:Organization',
      'genre',
      'number',
      'version',
      'edition',
      'status',
      'issued',
      'publisher',
      'publisher-place',
      'number-of-pages',
      'ISBN',
      ...ARCHIVED_TAIL,
    ),
    creators: creators('author', 'editor', 'contributor'),
  },
  bill: {
    label: 'Bill',
    fields: fields(
      'title',
      'title-short',
      'number:Bill number',
      'container-title:Code',
      'volume:Code volume',
      'section',
      'page:Code pages',
      'authority:Legislative body',
      'chapter-number',
      'references',
      'issued',
      ...TAIL,
    ),
    creators: creators('author:Sponsor', 'contributor'),
  },
  legal_case: {
    label: 'Legal case',
    fields: fields(
      'title:Case name',
      'title-short',
      'authority:Court',
      'issued:Date decided',
      'number:Docket number',
      'container-title:Reporter',
      'volume:Reporter volume',
      'page:First page',
      'references',
      ...TAIL,
    ),
    creators: creators('author', 'contributor'),
  },
  legislation: { label: 'Statute', fields: LEGISLATION, creators: creators('author', 'contributor') },
  regulation: { label: 'Regulation', fields: LEGISLATION, creators: creators('author', 'contributor') },
  treaty: {
    label: 'Treaty',
    fields: fields('title', 'title-short', 'container-title:Treaty series', 'volume', 'page', 'issued', ...TAIL),
    creators: creators('author:Party', 'contributor'),
  },
  hearing: {
    label: 'Hearing',
    fields: fields(
      'title',
      'title-short',
      'section:Committee',
      'publisher',
      'publisher-place',
      'number-of-volumes',
      'number:Document number',
      'page',
      'authority:Legislative body',
      'chapter-number',
      'references',
      'issued',
      ...TAIL,
    ),
    creators: creators('contributor', 'author'),
  },
};

/** Every type, in CSL's order. */
export const ITEM_TYPES: Readonly<Record<CslItemType, ItemTypeSpec>> = Object.fromEntries(
  CSL_ITEM_TYPES.map((type) => [type, { type, common: false, ...SPECS[type] }]),
) as Record<CslItemType, ItemTypeSpec>;

/** The types as a picker lists them: the common ones in the order above, then the rest by name. */
export function typeChoices(): { common: ItemTypeSpec[]; more: ItemTypeSpec[] } {
  const all = CSL_ITEM_TYPES.map((t) => ITEM_TYPES[t]);
  const commonOrder = Object.keys(SPECS).filter((t) => SPECS[t as CslItemType].common);
  return {
    common: commonOrder.map((t) => ITEM_TYPES[t as CslItemType]),
    more: all.filter((s) => !s.common).sort((a, b) => a.label.localeCompare(b.label, 'en')),
  };
}

export function isItemType(type: string): type is CslItemType {
  return (CSL_ITEM_TYPES as readonly string[]).includes(type);
}

// Zotero's item types under the CSL type Zotero exports each as (zotero-schema's csl.types), so a
// Zotero user can write `--type journalArticle`; none of these names is another CSL type's.
const ZOTERO_TYPES: ReadonlyMap<string, CslItemType> = new Map(
  Object.entries({
    journalarticle: 'article-journal',
    magazinearticle: 'article-magazine',
    newspaperarticle: 'article-newspaper',
    preprint: 'article',
    booksection: 'chapter',
    conferencepaper: 'paper-conference',
    computerprogram: 'software',
    encyclopediaarticle: 'entry-encyclopedia',
    dictionaryentry: 'entry-dictionary',
    blogpost: 'post-weblog',
    forumpost: 'post',
    artwork: 'graphic',
    audiorecording: 'song',
    film: 'motion_picture',
    videorecording: 'motion_picture',
    tvbroadcast: 'broadcast',
    radiobroadcast: 'broadcast',
    podcast: 'broadcast',
    case: 'legal_case',
    statute: 'legislation',
    presentation: 'speech',
    letter: 'personal_communication',
    email: 'personal_communication',
    instantmessage: 'personal_communication',
  } satisfies Record<string, CslItemType>),
);

/**
 * The type a name stands for: a CSL type (`article-journal`), Zotero's name for one (`journalArticle`,
 * `bookSection`, `computerProgram`, any case) or the label the pickers show (`Journal article`); null
 * for anything else.
 */
export function itemTypeNamed(name: string): CslItemType | null {
  const text = name.trim();
  if (isItemType(text)) return text;
  const lower = text.toLowerCase();
  if (isItemType(lower)) return lower;
  const zotero = ZOTERO_TYPES.get(lower.replace(/[\s_-]/g, ''));
  if (zotero) return zotero;
  const labelled = CSL_ITEM_TYPES.find((t) => ITEM_TYPES[t].label.toLowerCase() === lower.replace(/\s+/g, ' '));
  return labelled ?? null;
}

/** A type's name as every list shows it ("Journal article"); an unknown type as written. */
export function itemTypeLabel(type: string): string {
  return isItemType(type) ? ITEM_TYPES[type].label : type.replace(/[-_]/g, ' ');
}

/** The fields of a type, in the order a researcher fills them. */
export function typeFields(type: string): readonly FieldSpec[] {
  return (isItemType(type) ? ITEM_TYPES[type] : ITEM_TYPES.document).fields;
}

/** The creator roles of a type, its main one first. */
export function typeCreators(type: string): readonly CreatorRoleSpec[] {
  return (isItemType(type) ? ITEM_TYPES[type] : ITEM_TYPES.document).creators;
}
