// What an entry means beyond its fields one by one: a subtitle belongs to its title, \url{…} in
// howpublished is the URL, an organization names the site or the publisher, a @proceedings whose
// booktitle repeats its title is not inside itself, and biblatex's list fields hold several values.
// Where a CSL value is made from fields this way, the fields are kept as they were (BibtexCustom.kept)
// so a BibTeX export gives them back unchanged.
import type { CslItem } from '../../../../shared/model/csl';
import type { RawEntry } from './parser';
import { CONTAINED } from './inherit';
import { decodeLatex, decodeUrl, type DecodeOptions } from './latex-decode';
import { defaultFieldName, type BibtexCustom } from './mapping';
import { splitNameList } from './names';
import { isEnglish, looksTitleCase, protectsWords, toSentenceCase } from './sentence-case';
import type { SentenceCaseMode } from '../../../../shared/model/settings';

export interface RefineOptions {
  rich: DecodeOptions;
  plain: DecodeOptions;
  /** Settings → Import: which Title Case titles are stored in sentence case. */
  sentenceCase: SentenceCaseMode;
  /** Counts the titles stored in sentence case (for the import's report and preview). */
  titlesCased: number;
}

/** The fields joined to a title field, with the punctuation biblatex's styles and pandoc put before them. */
const TITLE_PARTS: Readonly<Record<string, readonly (readonly [field: string, sep: ': ' | '. '])[]>> = {
  title: [
    ['subtitle', ': '],
    ['titleaddon', '. '],
  ],
  booktitle: [
    ['booksubtitle', ': '],
    ['booktitleaddon', '. '],
  ],
  journaltitle: [
    ['journalsubtitle', ': '],
    ['journaltitleaddon', '. '],
  ],
  journal: [
    ['journalsubtitle', ': '],
    ['journaltitleaddon', '. '],
  ],
  maintitle: [
    ['mainsubtitle', ': '],
    ['maintitleaddon', '. '],
  ],
};

// maintitle, as pandoc reads it: in a part of a book (pandoc's "chapter-like" types) the multi-volume
// work is the container and the booktitle names the volume; in a volume of a multi-volume book the
// work is the title and the entry's own title names the volume. pandoc also does the latter for
// @article and the rest, where biblatex itself ignores maintitle; there it stays a field of its own.
// The parts are the types crossref inheritance treats as contained (inherit.ts).
const VOLUME = new Set(['book', 'collection', 'proceedings', 'reference']);

/** The CSL variable maintitle fills in an entry of this type (see takeMaintitle), if any. */
export function maintitleTarget(type: string): 'container-title' | 'title' | undefined {
  return CONTAINED.has(type) ? 'container-title' : VOLUME.has(type) ? 'title' : undefined;
}

// Entry types and fields only biblatex has: an entry with one of them is read with biblatex's rules.
const BIBLATEX_TYPES = new Set([
  'online',
  'mvbook',
  'bookinbook',
  'suppbook',
  'collection',
  'mvcollection',
  'suppcollection',
  'dataset',
  'software',
  'mvproceedings',
  'reference',
  'mvreference',
  'inreference',
  'report',
  'thesis',
  'patent',
  'periodical',
  'suppperiodical',
  'set',
  'xdata',
  'artwork',
  'audio',
  'image',
  'music',
  'video',
  'movie',
  'performance',
  'letter',
  'review',
  'jurisdiction',
  'legislation',
  'legal',
  'standard',
  'commentary',
]);
const BIBLATEX_FIELDS = [
  'location',
  'date',
  'journaltitle',
  'langid',
  'origlocation',
  'eventdate',
  'urldate',
  'subtitle',
  'titleaddon',
  'booksubtitle',
];
/** biblatex's literal lists ("München and Berlin"); location is one in any file. */
const LIST_FIELDS = new Set(['location', 'publisher', 'institution', 'organization']);

/** Whether an entry's list fields are read as biblatex lists: by its type, or a field only biblatex has. */
export function readsAsBiblatex(type: string, has: (field: string) => boolean): boolean {
  return BIBLATEX_TYPES.has(type) || BIBLATEX_FIELDS.some(has);
}

/** Whether a field of such an entry is a list that "and" would split (see splitLists). */
export function isListField(name: string, biblatex: boolean): boolean {
  return name === 'location' || (biblatex && LIST_FIELDS.has(name));
}

const WEB_TYPES = new Set(['webpage', 'post', 'post-weblog']);
const URL_ONLY = /^\s*\\(?:url|nolinkurl)\s*\{((?:[^{}]|\{[^{}]*\})*)\}\s*$|^\s*(https?:\/\/[^\s{}]+)\s*$/;

export function refineEntry(entry: RawEntry, item: CslItem, custom: BibtexCustom, options: RefineOptions): void {
  const own = custom.fields;
  if (own?.['organization'] !== undefined) takeOrganization(item, custom, own['organization'], options);
  if (own?.['howpublished'] !== undefined && item.URL === undefined) takeUrl(item, custom, own['howpublished']);
  else if (own?.['howpublished'] !== undefined && sameUrl(own['howpublished'], item.URL))
    // howpublished = {\url{…}} beside the same url (what classic BibTeX export writes for @misc): a copy.
    delete own['howpublished'];
  if (own?.['howpublished'] !== undefined && item.publisher === undefined)
    takeHowpublished(item, custom, own['howpublished'], options);
  if (own?.['eprint'] !== undefined) takeEprint(item, custom, options);
  dropRepeatedBooktitle(entry, item, custom);
  takeMaintitle(entry, item, custom, options);
  joinTitles(entry, item, custom, options);
  splitLists(entry, item, custom, options);
  sentenceCaseTitle(entry, item, custom, options);
  if (custom.fields && Object.keys(custom.fields).length === 0) delete custom.fields;
}

/** The field a CSL variable came from in this entry. */
function sourceName(csl: string, item: CslItem, custom: BibtexCustom): string {
  return custom.aliases?.[csl] ?? defaultFieldName(csl, item.type, 'bibtex');
}

function keep(custom: BibtexCustom, csl: string, as: string, fields: Record<string, string>): void {
  const kept = (custom.kept ??= {});
  const before = kept[csl];
  // A value refined twice (a title joined, then sentence-cased) still comes from the first fields.
  kept[csl] = { as, fields: before ? before.fields : fields };
}

/** organization: the site an @online page is on (CSL container-title), otherwise the publisher or sponsor. */
function takeOrganization(item: CslItem, custom: BibtexCustom, source: string, options: RefineOptions): void {
  const text = decodeLatex(source, options.plain);
  if (text === '') return;
  const csl =
    WEB_TYPES.has(item.type) && item['container-title'] === undefined
      ? 'container-title'
      : item.publisher === undefined
        ? 'publisher'
        : undefined;
  if (csl === undefined) return;
  item[csl] = text;
  (custom.aliases ??= {})[csl] = 'organization';
  delete custom.fields!['organization'];
}

function sameUrl(source: string, url: unknown): boolean {
  const m = URL_ONLY.exec(source);
  return typeof url === 'string' && m !== null && decodeUrl(m[1] ?? m[2] ?? '') === url;
}

/** howpublished = {\url{…}} (Better BibTeX, Zotero and Google Scholar write web pages so): the URL. */
function takeUrl(item: CslItem, custom: BibtexCustom, source: string): void {
  const m = URL_ONLY.exec(source);
  const url = decodeUrl(m?.[1] ?? m?.[2] ?? '');
  if (!url) return;
  item.URL = url;
  keep(custom, 'URL', url, { howpublished: source });
  delete custom.fields!['howpublished'];
}

/**
 * howpublished text that is not a link ("Zenodo", "Technical note, CERN") says who made the work public:
 * the publisher, as pandoc reads it, so every style prints it. Export writes it back as howpublished.
 */
function takeHowpublished(item: CslItem, custom: BibtexCustom, source: string, options: RefineOptions): void {
  const text = decodeLatex(source, options.plain);
  if (text === '' || URL_ONLY.test(source)) return;
  item.publisher = text;
  (custom.aliases ??= {})['publisher'] = 'howpublished';
  delete custom.fields!['howpublished'];
}

// eprinttype (biblatex) or archiveprefix (arXiv's own BibTeX) → the link an identifier resolves to,
// as pandoc makes it; hdl is the Handle System's resolver.
const EPRINT_LINKS: Readonly<Record<string, string>> = {
  arxiv: 'https://arxiv.org/abs/',
  pubmed: 'https://www.ncbi.nlm.nih.gov/pubmed/',
  googlebooks: 'https://books.google.com?id=',
  jstor: 'https://www.jstor.org/stable/',
  hdl: 'https://hdl.handle.net/',
};

/**
 * eprint + eprinttype/archiveprefix: the identifier's link as the URL when the entry has none (what
 * pandoc does), a PubMed id as the PMID, an arXiv id of an unpublished paper as its number
 * ("arXiv:2101.00001", as Zotero gives preprints). The eprint fields are kept, so a
 * BibTeX export writes them back as they were.
 */
function takeEprint(item: CslItem, custom: BibtexCustom, options: RefineOptions): void {
  const own = custom.fields!;
  const id = decodeUrl(own['eprint']!);
  const typeField =
    own['eprinttype'] !== undefined ? 'eprinttype' : own['archiveprefix'] !== undefined ? 'archiveprefix' : undefined;
  if (id === '' || typeField === undefined) return;
  const kind = decodeLatex(own[typeField]!, options.plain).toLowerCase().replace(/[\s-]/g, '');
  const fields: Record<string, string> = { eprint: own['eprint']!, [typeField]: own[typeField]! };
  for (const extra of ['eprintclass', 'primaryclass']) if (own[extra] !== undefined) fields[extra] = own[extra];
  const made: [string, string][] = [];
  const link = EPRINT_LINKS[kind];
  // A url that is the same link (classic BibTeX export writes both) is a copy, not a url of its own.
  if (link !== undefined && (item.URL === undefined || item.URL === link + id)) {
    if (item.URL !== undefined) delete custom.aliases?.['URL'];
    made.push(['URL', link + id]);
  }
  if (kind === 'pubmed' && /^\d{1,9}$/.test(id) && item.PMID === undefined) made.push(['PMID', id]);
  if (kind === 'arxiv' && item.number === undefined && item['container-title'] === undefined)
    made.push(['number', `arXiv:${id}`]);
  if (made.length === 0) return;
  for (const [csl, value] of made) {
    item[csl] = value;
    keep(custom, csl, value, fields);
  }
  for (const name of Object.keys(fields)) delete own[name];
}

/** Text compared as a reader would: no markup, case or trailing punctuation. */
function sameText(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .replace(/<[^>]*>/g, '')
      .replace(/\s+/g, ' ')
      .replace(/[\s.,:;]+$/, '')
      .trim()
      .toLowerCase();
  return norm(a) === norm(b);
}

/**
 * A @proceedings or @book whose booktitle only repeats its title (JabRef and conference sites write
 * both) is not contained in a book of the same name: without this, APA prints the title twice.
 */
function dropRepeatedBooktitle(entry: RawEntry, item: CslItem, custom: BibtexCustom): void {
  if (item.type !== 'book' || typeof item.title !== 'string' || typeof item['container-title'] !== 'string') return;
  if (sourceName('container-title', item, custom) !== 'booktitle' || !sameText(item.title, item['container-title']))
    return;
  delete item['container-title'];
  if (custom.aliases) {
    delete custom.aliases['container-title'];
    if (Object.keys(custom.aliases).length === 0) delete custom.aliases;
  }
  (custom.fields ??= {})['booktitle'] = entry.fields.get('booktitle')!;
}

/**
 * maintitle names the multi-volume work and the title it displaces names the volume (CSL volume-title):
 * the container title of a chapter (booktitle → volume-title), the title of a volume (title → volume-title).
 * Both keep their source field names as aliases, so export writes maintitle and title back as they were.
 */
function takeMaintitle(entry: RawEntry, item: CslItem, custom: BibtexCustom, options: RefineOptions): void {
  const raw = custom.fields?.['maintitle'];
  if (raw === undefined || item['volume-title'] !== undefined) return;
  const csl = maintitleTarget(entry.type);
  if (csl === undefined) return;
  const main = decodeLatex(raw, options.rich);
  if (main === '') return;
  const aliases = (custom.aliases ??= {});
  const volume = item[csl];
  if (typeof volume === 'string') {
    item['volume-title'] = volume;
    const from = sourceName(csl, item, custom);
    if (from !== defaultFieldName('volume-title', item.type, 'bibtex')) aliases['volume-title'] = from;
  }
  item[csl] = main;
  aliases[csl] = 'maintitle';
  delete custom.fields!['maintitle'];
}

/** title + subtitle + titleaddon → "Title: Subtitle. Addon" (likewise booktitle, journaltitle, maintitle). */
function joinTitles(entry: RawEntry, item: CslItem, custom: BibtexCustom, options: RefineOptions): void {
  for (const csl of ['title', 'container-title', 'volume-title']) {
    const main = item[csl];
    if (typeof main !== 'string') continue;
    const name = sourceName(csl, item, custom);
    const parts = TITLE_PARTS[name];
    const source = entry.fields.get(name);
    if (parts === undefined || source === undefined) continue;
    let joined = main;
    const fields: Record<string, string> = { [name]: source };
    for (const [part, sep] of parts) {
      const raw = custom.fields?.[part];
      if (raw === undefined) continue;
      const text = decodeLatex(raw, options.rich);
      if (text === '') continue;
      joined = joinPart(joined, sep, text);
      fields[part] = raw;
      delete custom.fields![part];
    }
    if (joined === main) continue;
    item[csl] = joined;
    keep(custom, csl, joined, fields);
  }
}

// biblatex prints titleaddon after \newunit (biblatex.def's title macro), whose \newunitpunct is
// \addperiod\space: a period and a space, the period left out after any punctuation mark the title
// already ends with. pandoc (concatWith '.' over "!?.,:;") does the same, so "Americans with
// Disabilities Act" + "of 1990" is "… Act. of 1990" in both, and "Hello," + "World" is "Hello, World".
function joinPart(main: string, sep: ': ' | '. ', part: string): string {
  const plain = main.replace(/<[^>]*>/g, '').trimEnd();
  // "Why?: How" and "Title.. Addon" read badly: a title that ends in its own mark takes only a space.
  return /[.,:;?!]$/.test(plain) ? `${main} ${part}` : `${main}${sep}${part}`;
}

/**
 * biblatex's list fields: "München and Berlin" is two places, written "München; Berlin" as pandoc does.
 * location is biblatex-only, so always a list; publisher, institution and organization only in an
 * entry that is biblatex by its type or fields, since in BibTeX "Taylor and Francis" is one publisher.
 */
function splitLists(entry: RawEntry, item: CslItem, custom: BibtexCustom, options: RefineOptions): void {
  let biblatex: boolean | undefined;
  const has = (name: string) => entry.fields.has(name);
  for (const csl of ['publisher-place', 'publisher']) {
    if (typeof item[csl] !== 'string') continue;
    const name = sourceName(csl, item, custom);
    if (!LIST_FIELDS.has(name)) continue;
    if (name !== 'location') {
      biblatex ??= readsAsBiblatex(entry.type, has);
      if (!biblatex) continue;
    }
    const source = entry.fields.get(name);
    if (source === undefined) continue;
    const parts = splitNameList(source);
    if (parts.length < 2) continue;
    const text = parts
      .map((p) => decodeLatex(p, options.plain))
      .filter((p) => p !== '')
      .join('; ');
    item[csl] = text;
    keep(custom, csl, text, { [name]: source });
  }
}

const OWN_TITLE_FIELDS = new Set(['title', 'maintitle']);
const BOOK_TITLE_FIELDS = new Set(['booktitle', 'maintitle']);

/**
 * An English (or unmarked) title in Title Case is stored in sentence case, as Better BibTeX imports
 * it, when the setting says so (SentenceCaseMode: by default only a title that braces the words whose
 * case matters); the title field as written stays in `kept`, so a BibTeX export gives it back
 * unchanged, and the title before the change (`written`), for "Use the title as written".
 */
function sentenceCaseTitle(entry: RawEntry, item: CslItem, custom: BibtexCustom, options: RefineOptions): void {
  if (options.sentenceCase === 'off') return;
  if (!isEnglish(entry.fields.get('langid') ?? entry.fields.get('language'))) return;
  // The work's title, a volume's own title when maintitle took its place, and the book a part is in
  // (booktitle, or maintitle as a part's container): written or inherited through crossref, the
  // book's title is cased as it is in the book's own entry, as pandoc does. A journal's title is not.
  for (const csl of ['title', 'volume-title', 'container-title']) {
    const title = item[csl];
    const name = sourceName(csl, item, custom);
    const source = entry.fields.get(name);
    const names = csl === 'container-title' ? BOOK_TITLE_FIELDS : OWN_TITLE_FIELDS;
    if (typeof title !== 'string' || source === undefined || !names.has(name)) continue;
    if (!looksTitleCase(title)) continue;
    if (options.sentenceCase === 'protected' && !protectsWords(title)) continue;
    const sentence = toSentenceCase(title);
    if (sentence === title) continue;
    item[csl] = sentence;
    keep(custom, csl, sentence, { [name]: source });
    custom.kept![csl]!.written = title;
    options.titlesCased++;
  }
}
