// CSL items → BibTeX or BibLaTeX. Fields an item brought from a BibTeX file come back under the names
// and entry type it came with; fields with no BibTeX name are written under their CSL name, which the
// importer reads back, so nothing is lost either way.
import type { CslDate, CslItem, CslName } from '../../../../shared/model/csl';
import { noteText } from '../../../../shared/model/note-html';
import { formatDate } from './dates';
import { bracesBalance, encodePages, encodeRich, encodeText, type EncodeOptions } from './latex-encode';
import {
  aliasUsable,
  BIBLATEX_TYPE_KEYS,
  bibtexCustomOf,
  defaultFieldName,
  exportTypeOf,
  type Flavor,
} from './mapping';
import { MONTH_MACRO_NAMES } from './months';
import { formatNameList } from './names';
import { isListField, maintitleTarget, readsAsBiblatex } from './refine';

export interface BibtexExportOptions {
  /** Write BibLaTeX (journaltitle, location, date, @online…) instead of BibTeX. */
  biblatex?: boolean;
  /** Write non-ASCII letters as LaTeX commands instead of UTF-8. */
  ascii?: boolean;
  /**
   * Use only the flavour's own field names. By default an item imported from a .bib file keeps the
   * names it came with (journaltitle, date, location…) whatever the flavour, so a round trip keeps
   * every field; strict converts them (journaltitle → journal for BibTeX, address → location for BibLaTeX).
   */
  strict?: boolean;
  /** @preamble contents to write first (an import returns them in `preambles`). */
  preambles?: readonly string[];
  /**
   * Each item's notes (HTML), by the items' order: written as their text into `annote` (biber reads it
   * as BibLaTeX's `annotation`), as Zotero's BibTeX export does with "Export Notes", after the item's own annote.
   */
  notes?: readonly (readonly string[] | undefined)[];
}

const SKIP = new Set(['id', 'type', 'custom', 'citation-key', 'issued']);
// What citationKeyProblem refuses; an apostrophe (O'Hara_1999) is a key character for BibTeX and biber.
const KEY_BAD = /[\s,{}()"#%=\\~]/g;

export function toBibtex(items: readonly CslItem[], options: BibtexExportOptions = {}): string {
  const flavor: Flavor = options.biblatex ? 'biblatex' : 'bibtex';
  const used = new Set<string>();
  const out: string[] = [];
  for (const p of options.preambles ?? []) if (bracesBalance(p)) out.push(`@preamble{{${p}}}\n`);
  items.forEach((item, i) => {
    const notes = options.notes?.[i]?.map(noteText).filter((t) => t !== '') ?? [];
    out.push(entryText(notes.length === 0 ? item : withNotes(item, notes), flavor, options, used));
  });
  return out.join('\n');
}

/** The item with its notes' text after its own annote: a paragraph each. */
function withNotes(item: CslItem, notes: readonly string[]): CslItem {
  const own = typeof item.annote === 'string' && item.annote.trim() !== '' ? [item.annote] : [];
  return { ...item, annote: [...own, ...notes].join('\n\n') };
}

function uniqueKey(item: CslItem, used: Set<string>): string {
  const wanted = String(item['citation-key'] ?? item.id ?? '').replace(KEY_BAD, '_') || 'item';
  let key = wanted;
  for (let n = 2; used.has(key.toLowerCase()); n++) key = `${wanted}_${n}`;
  used.add(key.toLowerCase());
  return key;
}

function entryText(item: CslItem, flavor: Flavor, options: BibtexExportOptions, used: Set<string>): string {
  const source = bibtexCustomOf(item.custom);
  const type = exportTypeOf(item.type, flavor, source.type, typeof item.genre === 'string' ? item.genre : undefined);
  const key = uniqueKey(item, used);
  const fields: [string, string][] = [];
  const taken = new Set<string>();
  const add = (name: string, value: string) => {
    if (taken.has(name)) return;
    taken.add(name);
    fields.push([name, value]);
  };
  // A volume of a multi-volume work that did not come from a .bib file (pandoc's CSL-JSON writes
  // volume-title so): biblatex gets maintitle and the volume's title, which the importer reads back.
  const main =
    flavor === 'biblatex' && typeof item['volume-title'] === 'string' && source.aliases?.['volume-title'] === undefined
      ? maintitleTarget(type)
      : undefined;
  const volumeShape =
    main !== undefined && typeof item[main] === 'string' && source.aliases?.[main] === undefined ? main : undefined;
  // BibTeX export is classic BibTeX: biblatex's field names are converted (journaltitle → journal,
  // location → address, date → year/month, a thesis's institution → school), as Better BibTeX does.
  const strict = options.strict === true || flavor === 'bibtex';
  const thesis = type === 'phdthesis' || type === 'mastersthesis';
  const nameFor = (csl: string): string => {
    const alias = source.aliases?.[csl];
    if (flavor === 'bibtex' && thesis && csl === 'publisher') return 'school';
    if (alias !== undefined && (!strict || aliasUsable(alias, flavor))) return alias;
    if (volumeShape !== undefined && csl === volumeShape) return 'maintitle';
    if (volumeShape !== undefined && csl === 'volume-title') return volumeShape === 'title' ? 'title' : 'booktitle';
    return defaultFieldName(csl, item.type, flavor);
  };
  const others = new Set(source.others ?? []);
  const derived = new Set(source.derived ?? []);
  // Values made from several fields (a title and its subtitle, a biblatex list) go back as those fields
  // while the item still holds what was made of them; an edited value is written as it now is.
  const written = new Set<string>();
  const fromCsl = new Set<string>();
  for (const [csl, kept] of Object.entries(source.kept ?? {})) {
    if (item[csl] !== kept.as) continue;
    written.add(csl);
    // A link made from eprint: classic BibTeX's styles know no eprint, so they get the url as well.
    if (flavor === 'bibtex' && csl === 'URL' && kept.fields['eprint'] !== undefined && typeof item.URL === 'string')
      add('url', `{${encodeValue('URL', item.URL, options)}}`);
    for (const [name, raw] of Object.entries(kept.fields)) {
      const field = strict && !aliasUsable(name, flavor) ? defaultFieldName(csl, item.type, flavor) : name;
      add(field, bracesBalance(raw) ? `{${raw}}` : `{${encodeText(raw, options)}}`);
    }
  }

  for (const [csl, value] of Object.entries(item)) {
    if (SKIP.has(csl) || value === undefined || value === null || derived.has(csl) || written.has(csl)) continue;
    const name = nameFor(csl);
    if (Array.isArray(value)) {
      if (value.every(isName)) add(name, `{${formatNameList(value, others.has(csl), options)}}`);
      continue;
    }
    if (isDate(value)) {
      const text = formatDate(value);
      if (text !== undefined) add(name, `{${Array.isArray(value['date-parts']) ? text : encodeText(text, options)}}`);
      continue;
    }
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = String(value);
    // A biblatex type key (type = {mathesis}) that the entry type now says: classic BibTeX would print it.
    if (flavor === 'bibtex' && csl === 'genre' && BIBLATEX_TYPE_KEYS.has(text.trim().toLowerCase())) continue;
    if (csl === 'publisher' || csl === 'publisher-place') fromCsl.add(name);
    add(name, `{${encodeValue(csl, text, options)}}`);
  }
  // Classic BibTeX's styles print no url on @misc: the link goes in howpublished too, as Better BibTeX
  // and Google Scholar write web pages.
  if (flavor === 'bibtex' && type === 'misc' && typeof item.URL === 'string' && !taken.has('howpublished'))
    add('howpublished', `{\\url{${encodeValue('URL', item.URL, options)}}}`);
  // Name fields whose only content was "and others".
  for (const csl of others) if (item[csl] === undefined) add(nameFor(csl), '{others}');
  if (item.issued !== undefined && isDate(item.issued)) {
    // BibLaTeX always gets `date`; BibTeX gets it back only when the entry came with one.
    const asDate = flavor === 'biblatex';
    addIssued(item.issued, asDate ? 'biblatex' : 'bibtex', add);
  }
  for (const [name, raw] of Object.entries(source.fields ?? {})) {
    if (typeof raw === 'string') add(name, bracesBalance(raw) ? `{${raw}}` : `{${encodeText(raw, options)}}`);
  }
  // A place or publisher with "and" in it, written to a field the importer reads as a biblatex list,
  // is braced so it reads back as one name ("Taylor and Francis", not "Taylor; Francis").
  if (fromCsl.size > 0) {
    const biblatex = readsAsBiblatex(type, (name) => taken.has(name));
    for (const field of fields) {
      if (fromCsl.has(field[0]) && isListField(field[0], biblatex) && /\sand\s/i.test(field[1]))
        field[1] = `{${field[1]}}`;
    }
  }
  const body = fields.map(([name, value]) => `  ${name} = ${value}`).join(',\n');
  return body === '' ? `@${type}{${key}\n}\n` : `@${type}{${key},\n${body}\n}\n`;
}

const RICH = new Set([
  'title',
  'title-short',
  'container-title',
  'collection-title',
  'event-title',
  'original-title',
  'reviewed-title',
  'volume-title',
  'part-title',
]);

function encodeValue(csl: string, text: string, options: EncodeOptions): string {
  if (RICH.has(csl)) return encodeRich(text, options);
  if (csl === 'page') return encodePages(text);
  // URLs and DOIs are read verbatim; only braces and backslashes would break the file.
  if (csl === 'URL' || csl === 'DOI')
    return text.replace(/[{}\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return encodeText(text, options);
}

function addIssued(issued: CslDate, flavor: Flavor, add: (name: string, value: string) => void): void {
  const parts = issued['date-parts'];
  const first = Array.isArray(parts) && parts.length === 1 && Array.isArray(parts[0]) ? parts[0] : undefined;
  if (flavor === 'bibtex' && first && !issued.circa) {
    const [y, m, d] = first;
    add('year', `{${y}}`);
    if (m !== undefined && m !== null && Number(m) >= 1 && Number(m) <= 12)
      add('month', MONTH_MACRO_NAMES[Number(m) - 1]!);
    if (m !== undefined && m !== null && d !== undefined && d !== null) add('day', `{${d}}`);
    return;
  }
  const text = formatDate(issued);
  if (text === undefined) return;
  // Ranges and circa dates go to BibTeX's year as EDTF text (digits, -, /, ~), which the importer reads
  // back; a literal ("in press") is a year in both flavours, as LaTeX text.
  const hasParts = Array.isArray(parts) && parts.length > 0;
  if (!hasParts) add('year', `{${encodeText(text)}}`);
  else add(flavor === 'bibtex' ? 'year' : 'date', `{${text}}`);
}

function isName(v: unknown): v is CslName {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isDate(v: unknown): v is CslDate {
  return (
    v !== null && typeof v === 'object' && !Array.isArray(v) && ('date-parts' in v || 'literal' in v || 'raw' in v)
  );
}
