// CSL-JSON in → validated, normalised CSL items. Accepts an array of items, a single item, or an object
// with an `items` array (as some tools wrap them). Each item is checked on its own, so one bad item is
// reported with its line and the others are kept. Lenient where the intent is plain (a name given as a
// string, a year given as a number), strict where guessing would corrupt data.
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import { CSL_DATE_FIELDS, CSL_ITEM_TYPES, CSL_NAME_FIELDS, type CslDate, type CslItem, type CslItemType, type CslName } from '../../../../shared/model/csl';
import { parseDoi } from '../../../../shared/model/doi';
import { parseDate } from '../bibtex/dates';
import { FormatError, type ImportLimits } from '../limits';
import { ItemCollector } from '../collector';
import type { ImportIssue, ImportResult } from '../result';
import { scanJson } from './scan';

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
  const DatePartSchema = z.union([z.number(), z.string().regex(/^-?\d+$/, 'a date part must be a number').transform(Number)]);
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

export function importCslJson(text: string, limits: ImportLimits, out: ItemCollector = new ItemCollector()): ImportResult {
  const scan = scanJson(text, limits.maxDepth);
  if (scan.error) throw new FormatError(`This is not valid JSON: ${scan.error.reason}`, scan.error.line);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const at = /position (\d+)/.exec(message);
    throw new FormatError(`This is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}.`, at ? lineAt(text, Number(at[1])) : 0);
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
  if (list.length > limits.maxEntries) throw new FormatError(`The file has more than ${limits.maxEntries.toLocaleString('en')} items, the import limit.`);
  const errors: ImportIssue[] = [];
  const warnings: ImportIssue[] = [];
  const ids = new Set<string>();
  list.forEach((raw, index) => {
    const line = lines[index] ?? 1;
    const result = normalizeItem(raw, index, line, limits, warnings);
    if (typeof result === 'string') {
      errors.push({ line, reason: `Item ${index + 1}: ${result}` });
      return;
    }
    if (ids.has(result.id)) {
      warnings.push({ line, reason: `Item ${index + 1}: the id "${result.id}" is used by an earlier item too; it was renamed.` });
      result.id = `${result.id}#${index + 1}`;
    }
    ids.add(result.id);
    const key = typeof result['citation-key'] === 'string' ? result['citation-key'] : undefined;
    out.push({ item: result, line, sourceKey: key ?? result.id });
  });
  out.flush();
  return { format: 'csljson', items: out.items, count: out.count, errors, warnings };
}

/** The normalised item, or the reason it cannot be imported. */
export function normalizeItem(raw: unknown, index: number, line: number, limits: Pick<ImportLimits, 'maxFieldLength'>, warnings: ImportIssue[]): CslItem | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return `an item must be a JSON object, not ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}.`;
  const source = raw as Record<string, unknown>;
  const item: CslItem = { id: '', type: 'document' };
  const rawType = source['type'];
  if (typeof rawType === 'string' && TYPES.has(rawType)) item.type = rawType as CslItemType;
  else if (rawType === undefined) warnings.push({ line, reason: `Item ${index + 1} has no "type"; it was imported as a document.` });
  else {
    warnings.push({ line, reason: `Item ${index + 1} has the type ${JSON.stringify(rawType)}, which is not a CSL type; it was imported as a document.` });
  }
  const rawId = source['id'];
  if (typeof rawId === 'string' && rawId !== '') item.id = rawId;
  else if (typeof rawId === 'number' && Number.isFinite(rawId)) item.id = String(rawId);
  else item.id = `csl-item-${index + 1}`;
  for (const [key, value] of Object.entries(source)) {
    if (key === 'id' || key === 'type' || value === undefined || value === null) continue;
    if (NAME_FIELDS.has(key)) {
      const names = schemas().names.safeParse(value);
      if (!names.success) return `"${key}" must be a list of names ({"family": …, "given": …} or {"literal": …}): ${issueText(names.error)}.`;
      item[key] = names.data.map(cleanName);
    } else if (DATE_FIELDS.has(key)) {
      const date = schemas().date.safeParse(value);
      if (!date.success) return `"${key}" is not a CSL date ({"date-parts": [[2020, 5, 17]]}): ${issueText(date.error)}.`;
      item[key] = date.data as CslDate;
    } else if (key === 'custom') {
      if (typeof value !== 'object' || Array.isArray(value)) return '"custom" must be an object.';
      item.custom = value as Record<string, unknown>;
    } else if (typeof value === 'string') {
      if (value.length > limits.maxFieldLength) return `"${key}" is ${value.length.toLocaleString('en')} characters long; the limit is ${limits.maxFieldLength.toLocaleString('en')}.`;
      item[key] = value;
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      item[key] = value;
    } else {
      // Not a CSL variable shape (an object or list under a text variable): kept, since other tools put
      // their own data there, but only if it is small.
      const size = JSON.stringify(value).length;
      if (size > limits.maxFieldLength) return `"${key}" holds ${size.toLocaleString('en')} characters of data; the limit is ${limits.maxFieldLength.toLocaleString('en')}.`;
      item[key] = value;
    }
  }
  if (typeof rawType === 'string' && !TYPES.has(rawType)) item.custom = { ...(item.custom ?? {}), 'csl-type': rawType };
  if (typeof item.DOI === 'string') {
    const doi = parseDoi(item.DOI);
    if (doi.ok) item.DOI = doi.doi;
    else warnings.push({ line, reason: `Item ${index + 1}: the DOI "${item.DOI}" is not valid (${doi.reason}); it was kept as written.` });
  }
  return item;
}

function cleanName(name: CslName | Record<string, unknown>): CslName {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(name)) if (v !== undefined && v !== '') out[k] = v;
  return out as CslName;
}

function issueText(error: Zod.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.length > 0 ? `at ${issue.path.join('.')}: ` : '';
  if (issue.code === 'invalid_union') return `${path}the value has the wrong shape`;
  return `${path}${issue.message}`;
}


function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
