// BibTeX/BibLaTeX text → CSL items: parse, resolve crossref/xdata, map each entry. Entries that fail
// are reported with their line and left out; the rest are returned whole.
import type { CslDate, CslItem } from '../../../../shared/model/csl';
import { doiFromUrl, parseDoi, writtenDoi } from '../../../../shared/model/doi';
import { Deadline, type ImportLimits } from '../limits';
import { ItemCollector, SinkFailure } from '../collector';
import { appendAll } from '../../../../shared/model/arrays';
import type { ImportIssue, ParseResult } from '../result';
import { parseDate } from './dates';
import { aasJournal } from './aas-journals';
import { CONTAINED, resolveInheritance } from './inherit';
import { decodeLatex, decodeUrl, type DecodeOptions } from './latex-decode';
import {
  containerField,
  cslTypeOf,
  defaultFieldName,
  fieldRule,
  impliedGenre,
  type BibtexCustom,
  type FieldRule,
} from './mapping';
import { mendeleyType } from '../mendeley-types';
import { parseMonth } from './months';
import { parseNameList, type ParsedNames } from './names';
import { detached } from '../../strings';
import { refineEntry, type RefineOptions } from './refine';
import { entryOrigin } from '../origin';
import { BibParser, lastEntryLine, parseBibtex, type RawBibliography, type RawEntry } from './parser';
import type { ParseOptions } from '../index';
import { PROTOTYPE_KEY, prototypeKeyReason } from '../prototype-keys';

// Only crossref and xdata need every entry before any can be mapped; without them, entries stream.
// One case-insensitive search; a false alarm only costs memory, not results.
const WHOLE_FILE_WORDS = ['crossref', 'xdata'];
const WHOLE_FILE_MARKER = new RegExp(WHOLE_FILE_WORDS.join('|'), 'i');
export function needsWholeFile(text: string): boolean {
  return WHOLE_FILE_MARKER.test(text);
}

// The same words as bytes, and which word (its index + 1) a lowercased byte starts.
const WORD_BYTES = WHOLE_FILE_WORDS.map((w) => [...w].map((c) => c.charCodeAt(0)));
const STARTS = new Uint8Array(256);
WORD_BYTES.forEach((w, i) => (STARTS[w[0]!] = i + 1));

/** Whether `bytes[at…]` spells `word` (lowercase ASCII), in any case. */
function spells(bytes: Uint8Array, at: number, word: readonly number[]): boolean {
  if (at + word.length > bytes.length) return false;
  for (let k = 1; k < word.length; k++) if ((bytes[at + k]! | 0x20) !== word[k]) return false;
  return true;
}

/**
 * needsWholeFile for UTF-8 bytes (the words are ASCII, and no byte of a multi-byte character is), without
 * decoding them: about 100 ms on 66 MB where decoding to Latin-1 for the regular expression took 300.
 * A word cut between two pieces is the caller's to look for (see importFileInPieces).
 */
export function needsWholeFileBytes(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const word = STARTS[bytes[i]! | 0x20]!;
    if (word !== 0 && spells(bytes, i, WORD_BYTES[word - 1]!)) return true;
  }
  return false;
}

export function importBibtex(
  text: string,
  limits: ImportLimits,
  out: ItemCollector = new ItemCollector(),
  options: ParseOptions = {},
): ParseResult {
  return mapEntries(limits, out, options, (take, warnings) => {
    if (!needsWholeFile(text)) {
      const raw = parseBibtex(text, limits, take);
      appendAll(warnings, raw.warnings);
      return raw;
    }
    const raw = parseBibtex(text, limits);
    appendAll(warnings, raw.warnings);
    const entries = resolveInheritance(raw.entries, warnings);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      entries[i] = DONE; // let the raw entry go as soon as its item exists
      take(entry);
    }
    return raw;
  });
}

/**
 * A file's text window by window: given `carry`, the end of the previous window that was not parsed
 * yet ('' at first), the next window is that same text followed by more of the file, as one string;
 * null when the file has nothing more. Handing back the carry (instead of taking pieces to append to
 * it) lets a reader decode each window in one go: appending a 4 MB piece to a string makes V8 copy both
 * into a new flat string before it can be searched, about 25 ms a window.
 */
export type NextWindow = (carry: string) => string | null;

/**
 * The same import from a file's text in windows, in order (a large file decoded window by window), so
 * only about one window of its text is in memory at a time. The file must not need crossref or xdata
 * (needsWholeFile on all of it is false): entries are mapped as they are read. The result is what
 * importBibtex gives for the whole text.
 */
export function importBibtexWindows(
  windows: NextWindow,
  limits: ImportLimits,
  out: ItemCollector = new ItemCollector(),
  options: ParseOptions = {},
): ParseResult {
  return mapEntries(limits, out, options, (take, warnings) => {
    const parser = new BibParser(limits, take);
    let text = '';
    let line = 1;
    let resumeAt = 0;
    for (let next = windows(text); next !== null; next = windows(text)) {
      text = next;
      const stop = lastEntryLine(text, resumeAt);
      if (stop < 0) continue;
      const end = parser.feed(text, line, resumeAt, stop)!;
      text = text.slice(end.lineStart);
      line = end.line;
      resumeAt = end.resumeAt;
    }
    parser.feed(text, line, resumeAt, null);
    const raw = parser.result();
    appendAll(warnings, raw.warnings);
    return raw;
  });
}

/**
 * Maps the entries a parse hands to `take` (as it reads them) into items, with the file's warnings and
 * errors. `parse` adds the parser's warnings to `warnings` where they belong among the mapping's.
 */
function mapEntries(
  limits: ImportLimits,
  out: ItemCollector,
  options: ParseOptions,
  parse: (take: (entry: RawEntry) => void, warnings: ImportIssue[]) => RawBibliography,
): ParseResult {
  const warnings: ImportIssue[] = [];
  const unknown = new Set<string>();
  const ctx: MapContext = {
    unknown,
    rich: { rich: true, unknown },
    plain: { rich: false, unknown },
    unknownCommands: new Map(),
    unknownTypes: new Map(),
    warnings,
    sentenceCase: options.sentenceCase ?? 'protected',
    titlesCased: 0,
  };
  const ids = new Map<string, number>();
  const deadline = new Deadline(limits.timeBudgetMs);
  const errors: ImportIssue[] = [];
  let n = 0;
  const sets: RawEntry[] = [];
  const keys = new Set<string>();
  const take = (entry: RawEntry) => {
    if ((++n & 1023) === 0) deadline.check(entry.line);
    // A biblatex entry set (@set{key, entryset = {a,b}}) groups entries the file has anyway: it has no
    // data of its own (with BibTeX as biblatex's backend it crossrefs its first member), so it is no
    // item; the import report says what became of it.
    if (entry.type === 'set') {
      sets.push(entry);
      return;
    }
    if (entry.key) keys.add(entry.key.toLowerCase());
    try {
      const item = entryToCsl(entry, ctx);
      // Ids only need to be unique within one import; the store assigns its own.
      const base = entry.key || `entry-line-${entry.line}`;
      const seen = ids.get(base);
      ids.set(seen === undefined ? detached(base) : base, (seen ?? 0) + 1);
      if (seen !== undefined && entry.key)
        warnings.push({ line: entry.line, reason: `The citation key "${entry.key}" is used by more than one entry.` });
      item.id = seen === undefined ? base : `${base}#${seen + 1}`;
      const origin = entryOrigin([entry.type, entry.key, ...[...entry.fields].map(([k, v]) => `${k}=${v}`).sort()]);
      out.push(
        entry.key ? { item, line: entry.line, sourceKey: entry.key, origin } : { item, line: entry.line, origin },
      );
    } catch (err) {
      // The library could not take a chunk of entries: not this entry's fault, and the import ends.
      if (err instanceof SinkFailure) throw err;
      errors.push({
        line: entry.line,
        reason: `The entry "${entry.key}" could not be read: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  };
  const raw = parse(take, warnings);
  appendAll(errors, raw.errors);
  for (const set of sets) warnings.push({ line: set.line, reason: entrySetReport(set, keys) });
  for (const [name, line] of ctx.unknownTypes)
    warnings.push({
      line,
      reason: `The entry type @${name} is not a BibTeX or BibLaTeX type; it was imported as a document and its type kept for export.`,
    });
  for (const [name, line] of ctx.unknownCommands)
    warnings.push({ line, reason: `The LaTeX command \\${name} is unknown; its argument was kept as text.` });
  errors.sort((a, b) => a.line - b.line);
  warnings.sort((a, b) => a.line - b.line);
  out.flush();
  return {
    format: 'bibtex',
    items: out.items,
    count: out.count,
    errors,
    warnings,
    ...(raw.preambles.length > 0 ? { preambles: raw.preambles } : {}),
    ...(ctx.titlesCased > 0 ? { titlesCased: ctx.titlesCased } : {}),
  };
}

/** What became of a biblatex @set: its members are items of their own, the set is not one. */
function entrySetReport(set: RawEntry, keys: ReadonlySet<string>): string {
  const members = (set.fields.get('entryset') ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  const name = `The entry set "${set.key}" (@set)`;
  if (members.length === 0) return `${name} lists no members (entryset); it was left out.`;
  const quoted = (list: string[]) => list.map((k) => `"${k}"`).join(', ');
  const missing = members.filter((k) => !keys.has(k.toLowerCase()));
  const found = members.filter((k) => keys.has(k.toLowerCase()));
  const parts = [
    found.length > 0
      ? `groups ${quoted(found)}, imported as items of their own; the set is not an item: where a document cites [@${set.key}], cite [${found.map((k) => `@${k}`).join('; ')}]`
      : `groups entries none of which is in the file; it was left out`,
  ];
  if (missing.length > 0 && found.length > 0)
    parts.push(`${quoted(missing)} ${missing.length === 1 ? 'is' : 'are'} not in the file`);
  return `${name} ${parts.join('; ')}.`;
}

interface MapContext extends RefineOptions {
  /** Unknown LaTeX commands met so far (shared by all entries: one warning per command). */
  unknown: Set<string>;
  /** Decoder options, made once rather than per field. */
  rich: DecodeOptions;
  plain: DecodeOptions;
  /** command → first line it was seen on */
  unknownCommands: Map<string, number>;
  unknownTypes: Map<string, number>;
  warnings: ImportIssue[];
}

const DONE: RawEntry = { type: '', key: '', fields: new Map(), line: 0 };
const PAGE_DASHES = /\s*[-\u2013\u2014]+\s*/g;
const PAGE_LATEX = /[\\{}$~`']|\s\s|[\t\n\r]/;
const DATE_GROUP = new Set(['date', 'year', 'month', 'day']);

/** One entry → one CSL item (its id is set by the caller). */
export function entryToCsl(entry: RawEntry, ctx: MapContext): CslItem {
  const { fields } = entry;
  let cslType = cslTypeOf(entry.type, fields.get('entrysubtype')) ?? mendeleyType(entry.type);
  if (cslType === undefined) {
    if (!ctx.unknownTypes.has(entry.type)) ctx.unknownTypes.set(entry.type, entry.line);
    cslType = 'document';
  }
  const item: CslItem = { id: '', type: cslType };
  if (entry.key !== '') item['citation-key'] = entry.key;
  const custom: BibtexCustom = { type: entry.type };
  const unknown = ctx.unknown;
  const unknownBefore = unknown.size;

  if (fields.has('year') || fields.has('date') || fields.has('month') || fields.has('day'))
    mapIssued(fields, item, custom);

  const container = containerField(cslType, CONTAINED.has(entry.type), (f) => fields.has(f));
  for (const [name, value] of fields) {
    if (DATE_GROUP.has(name)) continue;
    if (name === PROTOTYPE_KEY) {
      ctx.warnings.push({ line: entry.line, reason: prototypeKeyReason(`The entry "${entry.key}"`) });
      continue;
    }
    const rule = fieldRule(name, cslType);
    if (
      rule === undefined ||
      item[rule.csl] !== undefined ||
      (container !== undefined && rule.csl === 'container-title' && name !== container)
    ) {
      keepField(custom, name, value);
      continue;
    }
    if (rule.csl === 'container-title' && (name === 'journal' || name === 'journaltitle')) {
      // NASA ADS writes the journal as an AAS macro (journal = {\apj}): its name, and the macro back on export.
      const aas = aasJournal(value);
      if (aas !== undefined) {
        const kept = (custom.kept ??= {});
        item['container-title'] = aas.full;
        kept['container-title'] = { as: aas.full, fields: { [name]: value } };
        if (!fields.has('shortjournal') && !fields.has('journalabbreviation')) {
          item['container-title-short'] = aas.short;
          kept['container-title-short'] = { as: aas.short, fields: { [name]: value } };
        }
        continue;
      }
    }
    const converted = convert(rule, value, unknown, entry, ctx);
    if (converted === undefined) {
      keepField(custom, name, value);
      continue;
    }
    if (rule.kind === 'names') {
      const { names, others } = converted as ParsedNames;
      if (others) (custom.others ??= []).push(rule.csl);
      if (names.length === 0 && !others) {
        keepField(custom, name, value);
        continue;
      }
      item[rule.csl] = names;
    } else item[rule.csl] = converted;
    if (name !== defaultFieldName(rule.csl, cslType, 'bibtex')) (custom.aliases ??= {})[rule.csl] = name;
  }

  refineEntry(entry, item, custom, ctx);
  // A DOI written only as a resolver link (url = {https://doi.org/10.…}): the item has that DOI.
  if (item.DOI === undefined && typeof item.URL === 'string') {
    const doi = doiFromUrl(item.URL);
    if (doi !== null) item.DOI = doi;
  }

  if (cslType === 'thesis' || cslType === 'report') {
    const genre = impliedGenre(entry.type);
    if (genre !== undefined && item.genre === undefined) {
      item.genre = genre;
      custom.derived = ['genre'];
    }
  }
  if (unknown.size > unknownBefore)
    for (const name of unknown) if (!ctx.unknownCommands.has(name)) ctx.unknownCommands.set(name, entry.line);
  item.custom = { bibtex: custom };
  return item;
}

/** A field kept verbatim (LaTeX source) because CSL has no place for it. */
function keepField(custom: BibtexCustom, name: string, value: string): void {
  (custom.fields ??= {})[name] = value;
}

function convert(rule: FieldRule, value: string, unknown: Set<string>, entry: RawEntry, ctx: MapContext): unknown {
  switch (rule.kind) {
    case 'rich':
      return decodeLatex(value, ctx.rich);
    case 'text':
      return decodeLatex(value, ctx.plain);
    case 'verbatim':
      // The one verbatim field is url: the link without the LaTeX escapes people put in it.
      return decodeUrl(value);
    case 'pages':
      // 123--145 is most pages fields: no need for the LaTeX decoder to see it.
      return (PAGE_LATEX.test(value) ? decodeLatex(value, ctx.plain) : value.trim()).replace(PAGE_DASHES, '-');
    case 'names':
      return parseNameList(value, { unknown });
    case 'date': {
      // EDTF, not LaTeX: "~" means circa here, not a tie.
      const text = value.replace(/\s+/g, ' ').trim();
      return text === '' ? undefined : parseDate(text);
    }
    case 'doi': {
      // Braces (Web of Science's {{10.1016/…}}), LaTeX escapes (10.1002/(SICI)…\_x), and a "DOI " prefix
      // kept apart from a DOI broken over lines.
      const text = value
        .replace(/\\text(less|greater)\s*(?:\{\})?|\$([<>])\$/g, (_m, word: string | undefined, sign: string) =>
          word === undefined ? sign : word === 'less' ? '<' : '>',
        )
        .replace(/[{}]/g, '')
        .replace(/\\([_%#&])/g, '$1')
        .replace(/^\s*(doi)\s+(?=10\.)/i, '$1:')
        .replace(/\s+/g, '');
      if (text === '') return undefined;
      const parsed = parseDoi(text);
      // Valid DOIs are compared lower-cased (the library's doi column), but the item keeps the case
      // the user wrote (10.1038/NATURE12373), without a resolver prefix, for every style to print.
      if (parsed.ok) return writtenDoi(text) ?? parsed.doi;
      // Kept as written; the library reports it once, for every format (derive.ts doiProblem).
      return text;
    }
  }
}

/** date, or year + month (+ day), → issued. What is not used is kept verbatim. */
function mapIssued(fields: Map<string, string>, item: CslItem, custom: BibtexCustom): void {
  const keep = (name: string, value: string) => keepField(custom, name, value);
  const date = fields.get('date');
  const year = fields.get('year');
  const month = fields.get('month');
  const day = fields.get('day');
  if (date !== undefined && date.trim() !== '') {
    item.issued = parseDate(date.replace(/\s+/g, ' ').trim());
    (custom.aliases ??= {})['issued'] = 'date';
    if (year !== undefined) keep('year', year);
    if (month !== undefined) keep('month', month);
    if (day !== undefined) keep('day', day);
    return;
  }
  if (date !== undefined) keep('date', date);
  if (year === undefined || year.trim() === '') {
    if (year !== undefined) keep('year', year);
    if (month !== undefined) keep('month', month);
    if (day !== undefined) keep('day', day);
    return;
  }
  // A plain year may carry EDTF marks (2020~ for circa) that LaTeX decoding would turn into spaces.
  const yearText = /[\\{]/.test(year) ? decodeLatex(year, { rich: false }) : year.replace(/\s+/g, ' ').trim();
  const issued: CslDate = /^-?\d{1,4}$/.test(yearText) ? { 'date-parts': [[Number(yearText)]] } : parseDate(yearText);
  const parts = issued['date-parts']?.[0];
  const single = issued['date-parts']?.length === 1;
  if (month !== undefined) {
    const text = decodeLatex(month, { rich: false });
    // Web of Science writes the day with the month: Month = {{SEP 1}}.
    const withDay = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})$/.exec(text.trim());
    const m = parseMonth(withDay ? withDay[1]! : text);
    if (m !== undefined && parts && single && parts.length === 1) {
      parts.push(m);
      if (withDay && day === undefined && Number(withDay[2]) >= 1 && Number(withDay[2]) <= 31)
        parts.push(Number(withDay[2]));
    } else keep('month', month);
  }
  if (day !== undefined) {
    const d = /^\s*\d{1,2}\s*$/.test(day) ? Number(day) : NaN;
    if (parts && single && parts.length === 2 && d >= 1 && d <= 31) parts.push(d);
    else keep('day', day);
  }
  item.issued = issued;
}
