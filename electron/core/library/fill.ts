// Filling an item from the service's record: only fields the item lacks, and never a field the user
// edited (a field the user cleared stays cleared). Values imported from the user's own files are kept
// as they are: the service fills gaps, it does not correct the user's data.
import type { CslItem } from '../../../shared/model/csl';

/** Fields the fill never touches: identity and the citation key are the library's, not the service's. */
const NEVER_FILLED: ReadonlySet<string> = new Set(['id', 'citation-key', 'type', 'DOI']);

export function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

/** The fields whose value differs between two versions of an item: what an edit changed. */
export function changedFields(before: CslItem, after: CslItem): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const out: string[] = [];
  for (const k of keys) {
    if (k === 'id' || k === 'citation-key') continue;
    const a = (before as Record<string, unknown>)[k];
    const b = (after as Record<string, unknown>)[k];
    if (isEmptyValue(a) && isEmptyValue(b)) continue;
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(k);
  }
  return out.sort();
}

/** Whether the item stands in for a DOI whose metadata was not fetched yet (doiPlaceholder). */
export function isPlaceholder(item: CslItem): boolean {
  const citewise = (item.custom as { citewise?: { pendingMetadata?: unknown } } | undefined)?.citewise;
  return citewise?.pendingMetadata === true;
}

/** The fields of a placeholder that hold stand-ins until the service's values arrive. */
export function provisionalFields(item: CslItem): string[] {
  const list = (item.custom as { citewise?: { provisional?: unknown } } | undefined)?.citewise?.provisional;
  return Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : [];
}

/**
 * The item with the service's values in the fields it lacks and the user did not edit; `filled`
 * names them. A placeholder (a DOI added offline) becomes the entry an online add would have made:
 * it takes the service's type too, and loses its pending mark (`completed`).
 */
export function fillMissing(
  current: CslItem,
  fromService: CslItem,
  edited: ReadonlySet<string>,
): { csl: CslItem; filled: string[]; completed?: true } {
  const csl: Record<string, unknown> = { ...current };
  const filled: string[] = [];
  const placeholder = isPlaceholder(current);
  // A placeholder's stand-in values (a captured PDF's title read from its page or file name) give way
  // to the service's.
  const provisional = new Set(placeholder ? provisionalFields(current) : []);
  for (const [k, v] of Object.entries(fromService)) {
    if (edited.has(k) || isEmptyValue(v)) continue;
    if (NEVER_FILLED.has(k) && !(placeholder && k === 'type')) continue;
    if (k === 'type' ? csl[k] === v : !isEmptyValue(csl[k]) && !(provisional.has(k) && csl[k] !== v)) continue;
    csl[k] = v;
    filled.push(k);
  }
  if (!placeholder) return { csl: csl as CslItem, filled: filled.sort() };
  const {
    pendingMetadata: _pending,
    provisional: _provisional,
    ...citewise
  } = (csl['custom'] as { citewise: Record<string, unknown> }).citewise;
  const { citewise: _old, ...custom } = csl['custom'] as Record<string, unknown>;
  const rest = Object.keys(citewise).length > 0 ? { ...custom, citewise } : custom;
  if (Object.keys(rest).length > 0) csl['custom'] = rest;
  else delete csl['custom'];
  return { csl: csl as CslItem, filled: filled.sort(), completed: true };
}
