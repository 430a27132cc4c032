// Zotero's item JSON ↔ CSL-JSON, the one mapping every Zotero path uses: the Connector's saveItems
// (items its translators made), the import of a Zotero data folder, the local Web API and Better
// BibTeX's JSON. The variables follow Zotero's own CSL mapping (schema.ts); what CSL has no variable
// for is kept in `custom.zotero` (the Zotero item type, fields such as libraryCatalog or callNumber,
// creators of roles CSL lacks, a date as the user wrote it), so that an item comes back from CSL as
// Zotero gave it. A value is stashed only when the CSL form cannot give it back, and used again only
// while it still agrees with the CSL (an item edited in Citewise is given back as edited).
import type { CslDate, CslItem, CslItemType, CslName } from '../../../../shared/model/csl';
import { CSL_ITEM_TYPES } from '../../../../shared/model/csl';
import { parseRisDate } from '../ris/import';
import { CSL_DATE_FIELDS, CSL_NAMES, CSL_TEXT_FIELDS, CSL_TYPES, ITEM_TYPE_FIELDS } from './schema';

/** A creator as Zotero writes it: two fields, or one (`name`, or `fieldMode` 1 in the database). */
export interface ZoteroCreator {
  creatorType: string;
  firstName?: string;
  lastName?: string;
  name?: string;
}

/** An item in Zotero's JSON (the API's `data`, a translator's item): fields by name beside these. */
export interface ZoteroItemJson {
  itemType: string;
  creators?: ZoteroCreator[];
  tags?: (string | { tag: string; type?: number })[];
  [field: string]: unknown;
}

/** What Citewise keeps of a Zotero item that CSL has no place for (`custom.zotero`). */
export interface ZoteroCustom {
  itemType: string;
  /** Fields without a CSL variable, and fields whose CSL variable another field of the item took. */
  fields?: Record<string, string>;
  /** The creators as given, when CSL's names cannot give them back (a role CSL lacks, the order of roles). */
  creators?: ZoteroCreator[];
  /** Date fields as the user wrote them, when the CSL date does not read back the same. */
  dates?: Record<string, string>;
}

/** Zotero item type → CSL type. */
const TYPE_TO_CSL: ReadonlyMap<string, CslItemType> = new Map(
  Object.entries(CSL_TYPES).flatMap(([csl, zotero]) => zotero.map((z) => [z, csl as CslItemType] as const)),
);
/** Zotero base field → CSL text variable (the first one listed wins: shortTitle → title-short). */
const FIELD_TO_CSL: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [variable, fields] of Object.entries(CSL_TEXT_FIELDS))
    for (const f of fields) if (!map.has(f) || variable === 'title-short') map.set(f, variable);
  // CSL 1.0.2's name for it (Zotero's mapping still says journalAbbreviation, which citeproc-js reads too).
  map.set('journalAbbreviation', 'container-title-short');
  return map;
})();
const DATE_TO_CSL: ReadonlyMap<string, string> = new Map(Object.entries(CSL_DATE_FIELDS).map(([c, z]) => [z, c]));
const CSL_TO_ROLE: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [role, variable] of Object.entries(CSL_NAMES)) if (!map.has(variable)) map.set(variable, role);
  map.set('author', 'author');
  return map;
})();

/** One field of a type: its own name and the base field its CSL mapping follows. */
interface TypeField {
  field: string;
  base: string;
}
const TYPE_FIELDS: ReadonlyMap<string, readonly TypeField[]> = new Map(
  Object.entries(ITEM_TYPE_FIELDS).map(([type, t]) => [
    type,
    t.fields.map((f) => {
      const [field = f, base = field] = f.split('>');
      return { field, base };
    }),
  ]),
);

export function isZoteroItemType(type: string): boolean {
  return TYPE_FIELDS.has(type) && type !== 'note' && type !== 'attachment' && type !== 'annotation';
}

export function primaryCreatorType(itemType: string): string {
  const creators = ITEM_TYPE_FIELDS[itemType]?.creators ?? [];
  return (creators.find((c) => c.endsWith('*')) ?? 'author*').replace(/\*$/, '');
}

export function cslTypeOf(itemType: string): CslItemType {
  return TYPE_TO_CSL.get(itemType) ?? 'document';
}

/** The Zotero item type for a CSL type (the first Zotero lists for it). */
export function zoteroTypeOf(type: string): string {
  return CSL_TYPES[type]?.[0] ?? 'document';
}

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return t === '' ? null : t;
}

/** Zotero's database keeps a date as "2021-03-04 March 4, 2021" (SQL form, then as written): the written part. */
export function writtenDate(value: string): string {
  const m = /^\d{4}-\d{2}-\d{2} (.*)$/s.exec(value);
  return m ? m[1]! : value;
}

/** A date as Zotero users write it ("2021-03-04", "March 2021", "2021"), as CSL. */
export function zoteroDate(value: string): CslDate {
  const written = writtenDate(value).trim();
  // Zotero's "CURRENT_TIMESTAMP" and SQL datetimes ("2021-03-04 10:20:30", "2021-03-04T10:20:30Z").
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?$/.exec(written);
  if (iso) {
    const parts: [number, number?, number?] = [Number(iso[1])];
    if (iso[2] !== '00') parts.push(Number(iso[2]));
    if (iso[2] !== '00' && iso[3] !== '00') parts.push(Number(iso[3]));
    return { 'date-parts': [parts] };
  }
  return parseRisDate(written);
}

/** A CSL date as Zotero writes one: "2021-03-04", "2021-03", "2021", or the literal. */
export function dateText(date: CslDate | undefined): string | undefined {
  if (!date || typeof date !== 'object') return undefined;
  const parts = date['date-parts']?.[0];
  if (
    Array.isArray(parts) &&
    parts.length > 0 &&
    parts[0] !== undefined &&
    parts[0] !== null &&
    String(parts[0]) !== ''
  ) {
    return parts
      .slice(0, 3)
      .filter((p) => p !== undefined && p !== null)
      .map((p, i) => (i === 0 ? String(p) : String(p).padStart(2, '0')))
      .join('-');
  }
  return date.literal ?? date.raw;
}

function sameDate(a: CslDate, b: CslDate | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b ?? null);
}

function nameOf(c: ZoteroCreator): CslName | null {
  const single = text(c.name);
  if (single !== null) return { literal: single };
  const family = text(c.lastName);
  const given = text(c.firstName);
  if (family === null && given === null) return null;
  if (family === null) return { literal: given! };
  return given === null ? { family } : { family, given };
}

export function creatorOf(name: CslName, creatorType: string): ZoteroCreator {
  if (name.literal !== undefined) return { creatorType, name: name.literal };
  const lastName = [name['non-dropping-particle'], name.family].filter(Boolean).join(' ');
  const firstName = [name.given, name['dropping-particle']].filter(Boolean).join(' ');
  if (lastName === '' && firstName !== '') return { creatorType, name: firstName };
  return { creatorType, firstName, lastName };
}

/** The CSL name variable of a creator type on an item type (the primary type is CSL's author); null: CSL has none. */
function nameVariable(creatorType: string, itemType: string): string | null {
  if (creatorType === primaryCreatorType(itemType)) return 'author';
  return CSL_NAMES[creatorType] ?? null;
}

function namesOf(creators: readonly ZoteroCreator[], itemType: string): Record<string, CslName[]> {
  const out: Record<string, CslName[]> = {};
  for (const c of creators) {
    const variable = nameVariable(c.creatorType, itemType);
    const name = nameOf(c);
    if (variable === null || name === null) continue;
    (out[variable] ??= []).push(name);
  }
  return out;
}

/** The same names for each variable, whatever order the variables came in. */
function sameNames(a: Record<string, CslName[]>, b: Record<string, CslName[]>): boolean {
  const keys = Object.keys(a).sort();
  return (
    JSON.stringify(keys) === JSON.stringify(Object.keys(b).sort()) &&
    keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]))
  );
}

function creatorsFromNames(csl: CslItem, itemType: string): ZoteroCreator[] {
  const primary = primaryCreatorType(itemType);
  const allowed = new Set((ITEM_TYPE_FIELDS[itemType]?.creators ?? []).map((c) => c.replace(/\*$/, '')));
  const out: ZoteroCreator[] = [];
  const record = csl as Record<string, unknown>;
  const variables = ['author', ...[...CSL_TO_ROLE.keys()].filter((v) => v !== 'author')];
  for (const variable of variables) {
    const names = record[variable];
    if (!Array.isArray(names)) continue;
    let role = variable === 'author' ? primary : CSL_TO_ROLE.get(variable)!;
    if (!allowed.has(role) && allowed.has('contributor')) role = 'contributor';
    for (const n of names as CslName[]) if (n && typeof n === 'object') out.push(creatorOf(n, role));
  }
  return out;
}

/** The "Citation Key: …" line Better BibTeX keeps in Extra (before Zotero 7 had the field). */
const EXTRA_KEY = /^\s*Citation Key\s*:\s*(\S+)\s*$/im;

export function extraCitationKey(extra: string): string | null {
  return EXTRA_KEY.exec(extra)?.[1] ?? null;
}

export interface FromZotero {
  csl: CslItem;
  /** The item's tags (manual and automatic alike). */
  tags: string[];
}

/**
 * A Zotero item (API data, a translator's item, or one read from zotero.sqlite) as CSL-JSON. `id` is
 * the CSL id to give it. Notes, attachments, collections and relations are the caller's.
 */
export function zoteroToCsl(item: ZoteroItemJson, id: string): FromZotero {
  const itemType = typeof item.itemType === 'string' && TYPE_FIELDS.has(item.itemType) ? item.itemType : 'document';
  const csl: CslItem = { id, type: cslTypeOf(itemType) };
  const custom: ZoteroCustom = { itemType };
  const fields: Record<string, string> = {};
  const dates: Record<string, string> = {};
  const record = csl as Record<string, unknown>;
  const known = new Map((TYPE_FIELDS.get(itemType) ?? []).map((f) => [f.field, f.base]));
  for (const [field, raw] of Object.entries(item)) {
    if (RESERVED.has(field)) continue;
    const value = text(raw);
    if (value === null) continue;
    const base = known.get(field) ?? field;
    const dateVar = DATE_TO_CSL.get(base);
    if (dateVar !== undefined) {
      const date = zoteroDate(value);
      if (record[dateVar] === undefined) {
        record[dateVar] = date;
        const written = writtenDate(value);
        if (dateText(date) !== written) dates[field] = written;
        continue;
      }
      fields[field] = value;
      continue;
    }
    if (field === 'citationKey') {
      csl['citation-key'] = value;
      continue;
    }
    const variable = FIELD_TO_CSL.get(base);
    if (variable === undefined || record[variable] !== undefined || !known.has(field)) {
      fields[field] = value;
      continue;
    }
    record[variable] = value;
  }
  if (typeof csl.note === 'string' && csl['citation-key'] === undefined) {
    const key = extraCitationKey(csl.note);
    if (key !== null) csl['citation-key'] = key;
  }
  const creators = Array.isArray(item.creators)
    ? item.creators.filter((c): c is ZoteroCreator => !!c && typeof c === 'object' && typeof c.creatorType === 'string')
    : [];
  Object.assign(csl, namesOf(creators, itemType));
  const back = creatorsFromNames(csl, itemType);
  if (JSON.stringify(back) !== JSON.stringify(creators.map(normalCreator)))
    custom.creators = creators.map(normalCreator);
  if (Object.keys(fields).length > 0) custom.fields = fields;
  if (Object.keys(dates).length > 0) custom.dates = dates;
  if (zoteroTypeOf(csl.type) !== itemType || custom.fields || custom.creators || custom.dates)
    csl.custom = { zotero: custom };
  const tags = [
    ...new Set(
      (Array.isArray(item.tags) ? item.tags : [])
        .map((t) => (typeof t === 'string' ? t : t && typeof t === 'object' ? t.tag : ''))
        .map((t) => (typeof t === 'string' ? t.trim() : ''))
        .filter((t) => t !== '' && t.length <= 500),
    ),
  ];
  return { csl, tags };
}

/** Properties of an item's JSON that are not fields. */
const RESERVED = new Set([
  'itemType',
  'creators',
  'tags',
  'notes',
  'attachments',
  'seeAlso',
  'collections',
  'relations',
  'key',
  'version',
  'id',
  'itemID',
  'itemKey',
  'parentItem',
  'dateAdded',
  'dateModified',
  'deleted',
  'inPublications',
  'complete',
  'libraryID',
  'uri',
  'multi',
]);

function normalCreator(c: ZoteroCreator): ZoteroCreator {
  const name = nameOf(c);
  if (name === null) return { creatorType: c.creatorType, firstName: '', lastName: '' };
  return creatorOf(name, c.creatorType);
}

/** CSL variables with a Zotero field somewhere, or kept elsewhere (so not written to Extra). */
const NOT_FOR_EXTRA = new Set(['id', 'type', 'custom', 'citation-key', 'keyword', 'note']);

export interface ToZotero {
  itemType: string;
  /** Fields by name, each a non-empty string; `creators` aside. */
  fields: Record<string, string>;
  creators: ZoteroCreator[];
}

/**
 * A CSL item as Zotero's item JSON fields (without key, tags, collections). CSL variables the item's
 * Zotero type has no field for go to Extra as "variable: value" lines, Zotero's own convention.
 */
export function cslToZotero(csl: CslItem): ToZotero {
  const record = csl as Record<string, unknown>;
  const kept = ((csl.custom as Record<string, unknown> | undefined)?.['zotero'] ?? null) as ZoteroCustom | null;
  const itemType =
    kept && TYPE_FIELDS.has(kept.itemType) && cslTypeOf(kept.itemType) === csl.type
      ? kept.itemType
      : zoteroTypeOf(csl.type);
  const typeFields = TYPE_FIELDS.get(itemType) ?? [];
  const fields: Record<string, string> = {};
  const used = new Set<string>(NOT_FOR_EXTRA);
  for (const { field, base } of typeFields) {
    const dateVar = DATE_TO_CSL.get(base);
    if (dateVar !== undefined) {
      const date = record[dateVar] as CslDate | undefined;
      const value = dateText(date);
      if (value === undefined) continue;
      used.add(dateVar);
      const written = kept?.dates?.[field];
      fields[field] = written !== undefined && date && sameDate(zoteroDate(written), date) ? written : value;
      continue;
    }
    if (field === 'citationKey') {
      const key = text(csl['citation-key']);
      if (key !== null) fields[field] = key;
      continue;
    }
    const variable = FIELD_TO_CSL.get(base);
    if (variable === undefined || fields[field] !== undefined) continue;
    const value = text(record[variable]);
    if (value === null) continue;
    // title-short and shortTitle share Zotero's one field.
    used.add(variable);
    fields[field] = value;
  }
  const typeFieldNames = new Set(typeFields.map((f) => f.field));
  for (const [field, value] of Object.entries(kept?.fields ?? {}))
    if (fields[field] === undefined && typeof value === 'string' && typeFieldNames.has(field)) fields[field] = value;
  const names = creatorsFromNames(csl, itemType);
  const keptCreators = kept?.creators;
  const creators =
    keptCreators && sameNames(namesOf(keptCreators, itemType), namesOf(names, itemType)) ? keptCreators : names;
  // What no field took: CSL variables as Extra lines, and stashed fields of another item type.
  const extra: string[] = [];
  const note = text(csl.note);
  if (note !== null) extra.push(note);
  for (const [variable, value] of Object.entries(record)) {
    if (used.has(variable) || CSL_TO_ROLE.has(variable) || DATE_VARIABLES.has(variable)) continue;
    const t = text(value);
    if (t === null || t.includes('\n')) continue;
    if (!CSL_VARIABLE.test(variable)) continue;
    if (note !== null && note.includes(`${variable}: ${t}`)) continue;
    extra.push(`${variable}: ${t}`);
  }
  for (const variable of DATE_VARIABLES) {
    if (used.has(variable)) continue;
    const t = dateText(record[variable] as CslDate | undefined);
    if (t !== undefined) extra.push(`${variable}: ${t}`);
  }
  if (extra.length > 0 && typeFieldNames.has('extra')) fields.extra = extra.join('\n');
  return { itemType, fields, creators };
}

const DATE_VARIABLES = new Set(['accessed', 'available-date', 'event-date', 'issued', 'original-date', 'submitted']);
/** A CSL variable name (lowercase words with hyphens, or the upper-case ones). */
const CSL_VARIABLE = /^(?:[a-z]+(?:[-_][a-z]+)*|DOI|ISBN|ISSN|PMID|PMCID|URL)$/;

/** Whether a string names a CSL item type. */
export function isCslType(type: string): type is CslItemType {
  return (CSL_ITEM_TYPES as readonly string[]).includes(type);
}
