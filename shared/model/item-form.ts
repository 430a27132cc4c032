// An item typed in by hand, in the New item dialog or as `citewise add --type T field=value…`: field
// text read into CSL (dates, names), each value checked (a DOI, an ISBN's check digit, an ISSN, a URL),
// and the whole refused with the field and the reason when something cannot be stored.
import { citationKeyProblem } from './citekey';
import { CSL_DATE_FIELDS, CSL_NAME_FIELDS, type CslDate, type CslItem, type CslItemType, type CslName } from './csl';
import { parseDoi, parseIssn, writtenDoi } from './doi';
import { parseIsbn } from './identifiers';
import { FIELD_VARIABLES, isItemType, itemTypeLabel, typeCreators, typeFields } from './item-types';

const DATE_FIELDS = new Set<string>(CSL_DATE_FIELDS);

export function isDateField(key: string): boolean {
  return DATE_FIELDS.has(key);
}

/** A CSL date as the text a field shows: 2021-03-09, 2021-03, 2021, or the literal as written. */
export function dateText(date: CslDate | undefined): string {
  if (!date) return '';
  const parts = date['date-parts']?.[0];
  if (parts && parts.length > 0 && typeof parts[0] === 'number') {
    const [y, m, d] = parts;
    return [String(y), m ? String(m).padStart(2, '0') : null, m && d ? String(d).padStart(2, '0') : null]
      .filter(Boolean)
      .join('-');
  }
  return date.literal ?? date.raw ?? '';
}

/** "2021", "2021-3", "2021-03-09" become date parts; anything else ("Spring 2021", "n.d.") a literal. */
export function parseDate(text: string): CslDate | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const m = /^(-?\d{1,4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(t);
  if (m) {
    const y = Number(m[1]);
    const mo = m[2] ? Number(m[2]) : undefined;
    const d = m[3] ? Number(m[3]) : undefined;
    if ((mo === undefined || (mo >= 1 && mo <= 12)) && (d === undefined || (d >= 1 && d <= 31))) {
      const parts: [number, number?, number?] = [y];
      if (mo !== undefined) parts.push(mo);
      if (d !== undefined) parts.push(d);
      return { 'date-parts': [parts] };
    }
  }
  return { literal: t };
}

/** The longest value a field takes (an abstract-sized Extra included). */
export const MAX_FIELD_CHARS = 100_000;

/**
 * Why a field's text cannot be stored, or null when it can. Identifiers are checked the way they are
 * everywhere else (the DOI normaliser, ISBN and ISSN check digits); several ISBNs or ISSNs may be given,
 * separated by commas or spaces, as books and journals often have more than one.
 */
export function fieldProblem(key: string, text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  if (text.length > MAX_FIELD_CHARS) return `It is longer than ${MAX_FIELD_CHARS.toLocaleString('en')} characters.`;
  switch (key) {
    case 'DOI': {
      const parsed = parseDoi(t);
      return parsed.ok ? null : parsed.reason;
    }
    case 'ISBN': {
      for (const one of splitList(t)) {
        const parsed = parseIsbn(one);
        if (!parsed.ok) return `${one}: ${parsed.reason}`;
      }
      return null;
    }
    case 'ISSN': {
      for (const one of splitList(t)) {
        const parsed = parseIssn(one);
        if (!parsed.ok) return `${one}: ${parsed.reason}`;
      }
      return null;
    }
    case 'citation-key':
      return citationKeyProblem(t);
    case 'PMID':
      return /^\d{1,9}$/.test(t) ? null : 'A PMID is a number of one to nine digits, as in 31452104.';
    case 'PMCID':
      return /^PMC\d{1,9}$/i.test(t) ? null : 'A PMCID is "PMC" followed by digits, as in PMC6704497.';
    case 'URL':
      try {
        const url = new URL(t);
        return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'ftp:'
          ? null
          : 'A URL starts with http://, https:// or ftp://.';
      } catch {
        return 'This is not a URL; a URL starts with http:// or https://.';
      }
    default:
      return null;
  }
}

/** ISBNs and ISSNs written as a list: "0-306-40615-2, 978-3-16-148410-0" or "1935-8237 1935-8245". */
function splitList(text: string): string[] {
  // An ISBN may itself contain spaces ("978 0 306 40615 7"): commas and semicolons separate first.
  const byComma = text
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean);
  return byComma.flatMap((part) => (parseIsbn(part).ok || parseIssn(part).ok ? [part] : part.split(/\s+/)));
}

/** A field's value as CSL stores it: a date parsed, a DOI without its resolver prefix, text trimmed. */
export function fieldValue(key: string, text: string): unknown {
  const t = key === 'note' ? text.replace(/\s+$/, '') : text.trim();
  if (t.trim() === '') return undefined;
  if (isDateField(key)) return parseDate(t);
  if (key === 'DOI') return writtenDoi(t) ?? t;
  if (key === 'PMCID') return t.toUpperCase();
  return t;
}

/** One creator as typed: family and given, or one field (an institution, a name not to be split). */
export interface TypedCreator {
  role: string;
  family?: string;
  given?: string;
  literal?: string;
}

export interface FormProblem {
  /** The field (a CSL variable, "type", or "creators") the problem is in. */
  field: string;
  message: string;
}

export type NewItemResult = { ok: true; item: CslItem } | { ok: false; problems: FormProblem[] };

/**
 * The item a form (or a command line) describes, or every problem with it. A new item needs a title or
 * a creator: anything less could not be cited or found again. Fields the type does not have are
 * refused rather than dropped, so nothing typed is lost silently.
 */
export function buildNewItem(
  type: string,
  values: Readonly<Record<string, string>>,
  people: readonly TypedCreator[] = [],
): NewItemResult {
  const problems: FormProblem[] = [];
  if (!isItemType(type)) return { ok: false, problems: [{ field: 'type', message: `"${type}" is not an item type.` }] };
  const item: CslItem = { id: 'new', type: type as CslItemType };
  const known = new Map(typeFields(type).map((f) => [f.key, f]));
  // Every type has these, edited outside its list of fields: the abstract, and the key the user chose.
  known.set('abstract', { key: 'abstract', label: 'Abstract', kind: 'long' });
  known.set('citation-key', { key: 'citation-key', label: 'Citation key', kind: 'text' });
  for (const [key, text] of Object.entries(values)) {
    if (text.trim() === '') continue;
    const spec = known.get(key);
    if (!spec) {
      problems.push({
        field: key,
        message: FIELD_VARIABLES.includes(key)
          ? `A ${itemTypeLabel(type).toLowerCase()} has no field "${key}".`
          : `"${key}" is not a field Citewise knows.`,
      });
      continue;
    }
    const problem = fieldProblem(key, text);
    if (problem) problems.push({ field: key, message: `${spec.label}: ${problem}` });
    else item[key] = fieldValue(key, text);
  }
  const roles = new Set(typeCreators(type).map((c) => c.role));
  for (const c of people) {
    const name: CslName = {};
    if (c.literal?.trim()) name.literal = c.literal.trim();
    else {
      if (c.family?.trim()) name.family = c.family.trim();
      if (c.given?.trim()) name.given = c.given.trim();
    }
    if (Object.keys(name).length === 0) continue;
    if (!roles.has(c.role as never)) {
      problems.push({
        field: 'creators',
        message: `A ${itemTypeLabel(type).toLowerCase()} has no "${c.role}"; its creators are ${[...roles].join(', ')}.`,
      });
      continue;
    }
    const list = (item[c.role] as CslName[] | undefined) ?? [];
    item[c.role] = [...list, name];
  }
  const hasTitle = typeof item.title === 'string' && item.title.trim() !== '';
  const hasCreator = [...roles].some((r) => Array.isArray(item[r]) && (item[r] as unknown[]).length > 0);
  if (!hasTitle && !hasCreator)
    problems.push({ field: 'title', message: 'A new item needs a title or a creator, so it can be cited and found.' });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, item };
}

// What people type for a field on the command line besides its CSL name: Zotero's field names and
// BibTeX's, where they say the same thing.
const ALIASES: Record<string, string> = {
  date: 'issued',
  year: 'issued',
  url: 'URL',
  doi: 'DOI',
  isbn: 'ISBN',
  issn: 'ISSN',
  pmid: 'PMID',
  pmcid: 'PMCID',
  extra: 'note',
  pages: 'page',
  place: 'publisher-place',
  address: 'publisher-place',
  location: 'publisher-place',
  shorttitle: 'title-short',
  journal: 'container-title',
  publicationtitle: 'container-title',
  booktitle: 'container-title',
  journalabbreviation: 'container-title-short',
  series: 'collection-title',
  seriestitle: 'collection-title',
  seriesnumber: 'collection-number',
  numpages: 'number-of-pages',
  numberofvolumes: 'number-of-volumes',
  accessdate: 'accessed',
  urldate: 'accessed',
  university: 'publisher',
  institution: 'publisher',
  school: 'publisher',
  repository: 'publisher',
  company: 'publisher',
  type: 'genre',
  thesistype: 'genre',
  reporttype: 'genre',
  versionnumber: 'version',
  archivelocation: 'archive_location',
  callnumber: 'call-number',
  librarycatalog: 'source',
  rights: 'license',
  conferencename: 'event-title',
  eventplace: 'event-place',
  abstract: 'abstract',
  abstractnote: 'abstract',
  key: 'citation-key',
  citationkey: 'citation-key',
};

/** The CSL variable a command-line field name means ("date", "url", "Journal" → issued, URL, container-title). */
export function fieldKey(name: string): string {
  const lower = name.trim().toLowerCase();
  const exact = FIELD_VARIABLES.find((v) => v.toLowerCase() === lower);
  return exact ?? ALIASES[lower.replace(/[-_\s]/g, '')] ?? name.trim();
}

/**
 * What is wrong with a new item's CSL record as it arrives at the core (the dialog built it with
 * buildNewItem; the core checks again, since a message may come from anywhere): the same rules.
 */
export function newItemProblems(csl: Readonly<Record<string, unknown>>): FormProblem[] {
  const type = String(csl['type'] ?? '');
  if (!isItemType(type)) return [{ field: 'type', message: `"${type}" is not an item type.` }];
  const values: Record<string, string> = {};
  const people: TypedCreator[] = [];
  const problems: FormProblem[] = [];
  const names = new Set<string>(CSL_NAME_FIELDS);
  for (const [key, value] of Object.entries(csl)) {
    if (key === 'id' || key === 'type' || value === undefined || value === null) continue;
    if (names.has(key)) {
      if (!Array.isArray(value)) {
        problems.push({ field: key, message: `${key} must be a list of names.` });
        continue;
      }
      for (const n of value as CslName[]) {
        if (!n || typeof n !== 'object') problems.push({ field: key, message: `${key} must be a list of names.` });
        else people.push({ role: key, family: n.family ?? '', given: n.given ?? '', literal: n.literal ?? '' });
      }
    } else if (isDateField(key)) {
      if (typeof value !== 'object') problems.push({ field: key, message: `${key} must be a date.` });
      else values[key] = dateText(value as CslDate) || ' ';
    } else if (typeof value === 'string' || typeof value === 'number') values[key] = String(value);
    else problems.push({ field: key, message: `${key} must be text.` });
  }
  if (problems.length > 0) return problems;
  const built = buildNewItem(type, values, people);
  return built.ok ? [] : built.problems;
}
