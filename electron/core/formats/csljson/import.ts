// CSL-JSON in → validated, normalised CSL items. Accepts an array of items, a single item, or an object
// with an `items` array (as some tools wrap them). Each item is checked on its own, so one bad item is
// reported with its line and the others are kept. Lenient where the intent is plain (a name given as a
// string, a year given as a number), strict where guessing would corrupt data.
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import {
  CSL_DATE_FIELDS,
  CSL_ITEM_TYPES,
  CSL_NAME_FIELDS,
  type CslDate,
  type CslItem,
  type CslItemType,
  type CslName,
} from '../../../../shared/model/csl';
import { doiFromUrl, parseDoi, writtenDoi } from '../../../../shared/model/doi';
import { parseDate } from '../bibtex/dates';
import { mendeleyType } from '../mendeley-types';
import { FormatError, type ImportLimits } from '../limits';
import { ItemCollector, SinkFailure } from '../collector';
import { takeOthersNames } from '../../../../shared/model/others';
import type { ImportedItem, ImportIssue, ParseResult } from '../result';
import { scanJson } from './scan';
import { idKeyProblem } from '../source-id';
import { jsonOrigin } from '../origin';
import { grouped } from '../../../../shared/model/numbers';
import { dropPrototypeKeys, prototypeKeyReason } from '../prototype-keys';

const TYPES = new Set<string>(CSL_ITEM_TYPES);
const NAME_FIELDS = new Set<string>(CSL_NAME_FIELDS);
const DATE_FIELDS = new Set<string>(CSL_DATE_FIELDS);

// zod is loaded with the first CSL-JSON item, not with this module: the formats worker imports every
// parser, and loading zod took 0.15 s of the start of every import, BibTeX and RIS included.
let cached: ReturnType<typeof makeSchemas> | undefined;
const schemas = (): ReturnType<typeof makeSchemas> => (cached ??= makeSchemas());

function makeSchemas() {
  const { z } = createRequire(import.meta.url)('zod') as typeof Zod;
  const stringish = z.union([z.string(), z.number()]).transform(String);
  const NameSchema = z.union([
    z.string().transform((literal): CslName => ({ literal })),
    z.looseObject({
      family: stringish.optional(),
      given: stringish.optional(),
      'dropping-particle': stringish.optional(),
      'non-dropping-particle': stringish.optional(),
      suffix: stringish.optional(),
      literal: stringish.optional(),
      'comma-suffix': z.union([z.boolean(), z.string(), z.number()]).optional(),
      'static-ordering': z.union([z.boolean(), z.string(), z.number()]).optional(),
      'parse-names': z.union([z.boolean(), z.string(), z.number()]).optional(),
    }),
  ]);
  const DatePartSchema = z.union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+$/, 'a date part must be a number')
      .transform(Number),
  ]);
  const DateSchema = z.union([
    z.number().transform((y): CslDate => ({ 'date-parts': [[y]] })),
    z.string().transform((s): CslDate => parseDate(s)),
    z.looseObject({
      'date-parts': z.array(z.array(DatePartSchema).min(1).max(3)).min(1).max(2).optional(),
      season: z.union([z.number(), z.string()]).optional(),
      circa: z.union([z.boolean(), z.string(), z.number()]).optional(),
      literal: z.string().optional(),
      raw: z.string().optional(),
    }),
  ]);
  return { names: z.array(NameSchema), date: DateSchema };
}

export function importCslJson(
  text: string,
  limits: ImportLimits,
  out: ItemCollector = new ItemCollector(),
): ParseResult {
  const scan = scanJson(text, limits.maxDepth);
  if (scan.error) throw new FormatError(`This is not valid JSON: ${scan.error.reason}`, scan.error.line);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const at = /position (\d+)/.exec(message);
    throw new FormatError(
      `This is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}.`,
      at ? lineAt(text, Number(at[1])) : 0,
    );
  }
  let list: unknown[];
  let lines: number[];
  if (Array.isArray(root)) {
    list = root;
    lines = scan.elementLines;
  } else if (root !== null && typeof root === 'object' && Array.isArray((root as { items?: unknown }).items)) {
    list = (root as { items: unknown[] }).items;
    lines = scan.itemsLines;
  } else if (root !== null && typeof root === 'object') {
    list = [root];
    lines = [scan.rootLine];
  } else {
    throw new FormatError('CSL-JSON is an array of items (objects) or a single item; this JSON is neither.', 1);
  }
  if (list.length > limits.maxEntries)
    throw new FormatError(`The file has more than ${grouped(limits.maxEntries)} items, the import limit.`);
  const errors: ImportIssue[] = [];
  const warnings: ImportIssue[] = [];
  const ids = new Set<string>();
  list.forEach((raw, index) => {
    const line = lines[index] ?? 1;
    const result = normalizeItem(raw, index, line, limits, warnings);
    if (typeof result === 'string') {
      errors.push({ line, reason: `Item ${index + 1}${nameOf(raw)}: ${result}` });
      return;
    }
    const givenId = givenIdOf(raw);
    const givenKey =
      typeof result['citation-key'] === 'string' && result['citation-key'].trim() !== ''
        ? result['citation-key']
        : undefined;
    // pandoc, citeproc and Better BibTeX cite an item by its id when it has no citation-key: the id
    // is the key a Pandoc or Quarto document's [@id] refers to, so it stays the key here.
    const idProblem = givenKey === undefined && givenId !== undefined ? idKeyProblem(givenId) : undefined;
    if (givenKey === undefined && givenId !== undefined && idProblem === null) result['citation-key'] = givenId;
    if (ids.has(result.id) && (givenKey !== undefined || idProblem !== null)) {
      // The key is what identifies an item in the library; a repeated id that is a key is handled
      // there (a repeat of the same entry, or another entry given the key with a suffix).
      warnings.push({
        line,
        reason: `Item ${index + 1}: the id "${result.id}" is used by an earlier item too; it was renamed.`,
      });
      result.id = `${result.id}#${index + 1}`;
    }
    ids.add(result.id);
    const key = typeof result['citation-key'] === 'string' ? result['citation-key'] : undefined;
    const imported: ImportedItem = { item: result, line, sourceKey: key ?? result.id, origin: jsonOrigin(raw) };
    if (key === undefined && givenId !== undefined && idProblem)
      imported.replacedId = { id: givenId, reason: idProblem };
    try {
      out.push(imported);
    } catch (err) {
      // The library could not take a chunk of items: not this item's fault, and the import ends.
      if (err instanceof SinkFailure) throw err;
      errors.push({
        line,
        reason: `Item ${index + 1}${nameOf(raw)}: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  });
  out.flush();
  return { format: 'csljson', items: out.items, count: out.count, errors, warnings };
}

/** The normalised item, or the reason it cannot be imported. */
export function normalizeItem(
  raw: unknown,
  index: number,
  line: number,
  limits: Pick<ImportLimits, 'maxFieldLength'>,
  warnings: ImportIssue[],
): CslItem | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return `an item must be a JSON object, not ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}.`;
  const source = raw as Record<string, unknown>;
  for (const at of dropPrototypeKeys(source))
    warnings.push({ line, reason: prototypeKeyReason(`Item ${index + 1}${nameOf(raw)}`, at) });
  const item: CslItem = { id: '', type: 'document' };
  const rawType = source['type'];
  if (typeof rawType === 'string' && TYPES.has(rawType)) item.type = rawType as CslItemType;
  else if (typeof rawType === 'string' && mendeleyType(rawType) !== undefined) item.type = mendeleyType(rawType)!;
  else if (rawType === undefined)
    warnings.push({ line, reason: `Item ${index + 1}${nameOf(raw)} has no "type"; it was imported as a document.` });
  else {
    warnings.push({
      line,
      reason: `Item ${index + 1}${nameOf(raw)} has the type ${JSON.stringify(rawType)}, which is not a CSL type; it was imported as a document.`,
    });
  }
  const rawId = source['id'];
  if (typeof rawId === 'string' && rawId !== '') item.id = rawId;
  else if (typeof rawId === 'number' && Number.isFinite(rawId)) item.id = String(rawId);
  else item.id = `csl-item-${index + 1}`;
  for (const [key, value] of Object.entries(source)) {
    if (key === 'id' || key === 'type' || value === undefined || value === null) continue;
    if (NAME_FIELDS.has(key)) {
      const names = schemas().names.safeParse(value);
      if (!names.success)
        return `"${key}" must be a list of names ([{"family": …, "given": …}] or [{"literal": …}]); ${nameProblem(value)}.`;
      item[key] = names.data.map(cleanName);
    } else if (DATE_FIELDS.has(key)) {
      const date = schemas().date.safeParse(value);
      if (date.success) item[key] = date.data as CslDate;
      else {
        // A date no CSL processor can read is still the user's date: kept as written, as a literal
        // (what citeproc prints as it is), never the reason to lose the whole item.
        const text = dateText(value);
        const shown = excerpt(JSON.stringify(value));
        const who = `Item ${index + 1}${nameOf(raw)}`;
        if (text === '') warnings.push({ line, reason: `${who}: "${key}" holds no date (${shown}); it was left out.` });
        else {
          const kept = parseDate(text);
          item[key] = kept;
          warnings.push({
            line,
            reason: kept['date-parts']
              ? `${who}: "${key}" is not a CSL date (${shown}); it was read as ${JSON.stringify(kept)}.`
              : `${who}: "${key}" is not a CSL date (${shown}); it was kept as the literal date "${text}".`,
          });
        }
      }
    } else if (key === 'custom') {
      if (typeof value !== 'object' || Array.isArray(value)) return '"custom" must be an object.';
      item.custom = value as Record<string, unknown>;
    } else if (typeof value === 'string') {
      if (value.length > limits.maxFieldLength)
        return `"${key}" is ${grouped(value.length)} characters long; the limit is ${grouped(limits.maxFieldLength)}.`;
      item[key] = value;
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      item[key] = value;
    } else {
      // Not a CSL variable shape (an object or list under a text variable): kept, since other tools put
      // their own data there, but only if it is small.
      const size = JSON.stringify(value).length;
      if (size > limits.maxFieldLength)
        return `"${key}" holds ${grouped(size)} characters of data; the limit is ${grouped(limits.maxFieldLength)}.`;
      item[key] = value;
    }
  }
  if (typeof rawType === 'string' && !TYPES.has(rawType)) item.custom = { ...(item.custom ?? {}), 'csl-type': rawType };
  if (typeof item.DOI === 'string') {
    const doi = parseDoi(item.DOI);
    if (doi.ok) item.DOI = writtenDoi(item.DOI) ?? doi.doi;
    else
      warnings.push({
        line,
        reason: `Item ${index + 1}${nameOf(raw)}: the DOI "${item.DOI}" is not valid (${doi.reason}); it was kept as written.`,
      });
  } else if (typeof item.URL === 'string') {
    // A DOI given only as a resolver link (https://doi.org/10.…) is the item's DOI.
    const doi = doiFromUrl(item.URL);
    if (doi !== null) item.DOI = doi;
  }
  // A last name {"literal": "others"} (pandoc's "and others"; also "et al.") is not an author: the
  // list ends in "and others" (shared/model/others.ts), and exports write it back.
  takeOthersNames(item);
  return item;
}

/** The id the file gave the item, as text; undefined when it gave none. */
function givenIdOf(raw: unknown): string | undefined {
  const id = raw !== null && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
  if (typeof id === 'string' && id.trim() !== '') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}

/** ' ("id")' for messages about an item, so the researcher can find it; '' when it has no id. */
function nameOf(raw: unknown): string {
  const id = givenIdOf(raw);
  return id === undefined ? '' : ` ("${id.length > 60 ? `${id.slice(0, 59)}…` : id}")`;
}

function cleanName(name: CslName | Record<string, unknown>): CslName {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(name)) if (v !== undefined && v !== '') out[k] = v;
  return out as CslName;
}

/** What is wrong with a names value, in the researcher's words: which name, which part, what it is. */
function nameProblem(value: unknown): string {
  if (!Array.isArray(value)) return `this is ${kindOf(value)}`;
  for (const [i, name] of value.entries()) {
    if (typeof name === 'string') continue;
    if (name === null || typeof name !== 'object' || Array.isArray(name)) return `name ${i + 1} is ${kindOf(name)}`;
    for (const [part, v] of Object.entries(name as Record<string, unknown>)) {
      if (['comma-suffix', 'static-ordering', 'parse-names'].includes(part)) {
        if (v !== undefined && !['boolean', 'string', 'number'].includes(typeof v))
          return `name ${i + 1} has "${part}" as ${kindOf(v)}, not true or false`;
      } else if (
        ['family', 'given', 'dropping-particle', 'non-dropping-particle', 'suffix', 'literal'].includes(part)
      ) {
        if (v !== undefined && typeof v !== 'string' && typeof v !== 'number')
          return `name ${i + 1} has "${part}" as ${kindOf(v)}, not text`;
      }
    }
  }
  return 'one of the names has the wrong shape';
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the text ${excerpt(JSON.stringify(v))}`;
  return `${typeof v === 'number' ? 'the number' : 'the value'} ${String(v)}`;
}

/** The readable text of a date value no schema accepts: its literal or raw text, else its parts. */
function dateText(value: unknown): string {
  if (typeof value === 'boolean') return '';
  if (value === null || typeof value !== 'object') return String(value).trim();
  if (Array.isArray(value))
    return value
      .map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : ''))
      .filter(Boolean)
      .join('-');
  const v = value as Record<string, unknown>;
  for (const field of ['literal', 'raw'])
    if (typeof v[field] === 'string' && v[field].trim() !== '') return v[field].trim();
  const parts = v['date-parts'];
  const text = Array.isArray(parts)
    ? parts
        .map((p) =>
          (Array.isArray(p) ? p : [p])
            .map((x) => (typeof x === 'string' || typeof x === 'number' ? String(x).trim() : ''))
            .filter(Boolean)
            .join('-'),
        )
        .filter(Boolean)
        .join('/')
    : '';
  const season = typeof v['season'] === 'string' || typeof v['season'] === 'number' ? String(v['season']).trim() : '';
  return [text, season].filter(Boolean).join(' ');
}

function excerpt(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
