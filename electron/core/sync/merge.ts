// Three-way merge of one shared object, field by field: what only one side changed since the version
// both started from is taken from that side; a field both changed to different values is a conflict,
// and the local value stays until the user chooses (nothing is lost on either side). Some fields merge
// by a rule of their own (FieldRule): sets (tags, key aliases) merge what each side added and removed,
// dates that only say "when first" take the earliest. Pure: no database, no clock.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** An object's fields as the server keeps them: a flat JSON object. */
export type Doc = Record<string, Json>;

/**
 * How a field merges when both sides changed it: 'conflict' (the default: the user chooses), 'set'
 * (an array of distinct strings: additions and removals of both sides), 'min' / 'max' (numbers: the
 * smaller / larger), 'server' (the server's value, silently: bookkeeping nobody edits).
 */
export type FieldRule = 'conflict' | 'set' | 'min' | 'max' | 'server';

export interface MergeResult {
  doc: Doc;
  /** Fields both sides changed to different values: the doc keeps the local value. */
  conflicts: { field: string; local: Json | undefined; server: Json | undefined }[];
}

/** Deep equality of JSON values; object keys in any order (the server's jsonb reorders them). */
export function sameJson(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as Json[];
    return a.length === bb.length && a.every((v, i) => sameJson(v, bb[i]));
  }
  const ao = a as Record<string, Json>;
  const bo = b as Record<string, Json>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(bo, k) && sameJson(ao[k], bo[k]));
}

export function sameDoc(a: Doc | null, b: Doc | null): boolean {
  if (a === null || b === null) return a === b;
  return sameJson(a, b);
}

/** The fields whose values differ between two docs. */
export function changedKeys(a: Doc | null, b: Doc | null): string[] {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  return [...keys].filter((k) => !sameJson(a?.[k], b?.[k]));
}

function asSet(v: Json | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Three-way merge of string sets: kept where both kept it, or added on either side. Sorted. */
export function mergeSet(base: Json | undefined, local: Json | undefined, server: Json | undefined): string[] {
  const b = new Set(asSet(base));
  const l = new Set(asSet(local));
  const s = new Set(asSet(server));
  const out = new Set<string>();
  for (const x of l) if (s.has(x) || !b.has(x)) out.add(x);
  for (const x of s) if (l.has(x) || !b.has(x)) out.add(x);
  return [...out].sort();
}

/**
 * Merges `local` and `server`, both changed since `base` (null: the object was new on both sides, as
 * after a push whose answer was lost). `held` are fields already in conflict: they keep the local
 * value and stay in conflict whatever the server now says.
 */
export function mergeDocs(
  base: Doc | null,
  local: Doc,
  server: Doc,
  rules: Readonly<Record<string, FieldRule>> = {},
  held: ReadonlySet<string> = new Set(),
): MergeResult {
  const b = base ?? {};
  const doc: Doc = {};
  const conflicts: MergeResult['conflicts'] = [];
  const keys = new Set([...Object.keys(local), ...Object.keys(server), ...Object.keys(b)]);
  for (const k of [...keys].sort()) {
    const lv = local[k];
    const sv = server[k];
    const bv = b[k];
    let out: Json | undefined;
    if (held.has(k)) {
      out = lv;
      if (!sameJson(lv, sv)) conflicts.push({ field: k, local: lv, server: sv });
    } else if (sameJson(lv, sv)) out = lv;
    else if (sameJson(lv, bv)) out = sv;
    else if (sameJson(sv, bv)) out = lv;
    else {
      const rule = rules[k] ?? 'conflict';
      if (rule === 'set') out = mergeSet(bv, lv, sv);
      else if (rule === 'server') out = sv;
      else if ((rule === 'min' || rule === 'max') && typeof lv === 'number' && typeof sv === 'number')
        out = rule === 'min' ? Math.min(lv, sv) : Math.max(lv, sv);
      else {
        out = lv;
        conflicts.push({ field: k, local: lv, server: sv });
      }
    }
    if (out !== undefined) doc[k] = out;
  }
  return { doc, conflicts };
}

/** `doc` with the conflicted fields set back to the server's values: what a push may send. */
export function withoutConflicts(doc: Doc, server: Doc | null, fields: readonly string[]): Doc {
  if (fields.length === 0) return doc;
  const out: Doc = { ...doc };
  for (const f of fields) {
    const v = server?.[f];
    if (v === undefined) delete out[f];
    else out[f] = v;
  }
  return out;
}
