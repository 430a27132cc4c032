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

/** The item with the service's values in the fields it lacks and the user did not edit; `filled` names them. */
export function fillMissing(current: CslItem, fromService: CslItem, edited: ReadonlySet<string>): { csl: CslItem; filled: string[] } {
  const csl: Record<string, unknown> = { ...current };
  const filled: string[] = [];
  for (const [k, v] of Object.entries(fromService)) {
    if (NEVER_FILLED.has(k) || edited.has(k) || isEmptyValue(v)) continue;
    if (!isEmptyValue(csl[k])) continue;
    csl[k] = v;
    filled.push(k);
  }
  return { csl: csl as CslItem, filled: filled.sort() };
}
