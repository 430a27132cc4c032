// "and others" at the end of a name list (BibTeX's `author = {Kim, Ana and others}`): the work has
// more authors than the list names. The library stores the names it has and records the role in
// custom.bibtex.others, so "others" is never an author of its own (in the table, in search, in the
// first creator). CSL has no such flag: pandoc writes the list with a last name {"literal": "others"},
// and its citeproc prints that as the style's "et al."; CSL-JSON export writes it so, and the citation
// formatter gives it to citeproc-js so (a patch there prints it as "et al." too).
import { CSL_NAME_FIELDS, type CslItem, type CslName } from './csl';

/** The literal name that stands for "and others" in CSL-JSON, as pandoc writes it. */
export const OTHERS_NAME: Readonly<CslName> = Object.freeze({ literal: 'others' });

/** Whether a CSL name is the "and others" marker. */
export function isOthersName(name: unknown): boolean {
  if (name === null || typeof name !== 'object') return false;
  const n = name as Record<string, unknown>;
  // As written: {"literal": "others"} (pandoc), or "et al." read as a name ("al., et" from RIS's AU).
  const text =
    typeof n['literal'] === 'string'
      ? n['literal']
      : [n['given'], n['family']].filter((p) => typeof p === 'string').join(' ');
  return /^(?:others|et\.? al\.?)$/i.test(text.trim());
}

/** The name roles of an item that end in "and others". */
export function othersRoles(item: CslItem): string[] {
  const bibtex = (item.custom as { bibtex?: { others?: unknown } } | undefined)?.bibtex;
  const list = bibtex?.others;
  return Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [];
}

/**
 * The item as CSL processors and CSL-JSON readers expect it: each list that ends in "and others" gets
 * the {"literal": "others"} name last. The item itself is not changed; one without such a list is
 * returned as it is.
 */
export function withOthersNames<T extends CslItem>(item: T): T {
  const roles = othersRoles(item);
  if (roles.length === 0) return item;
  let out: T | undefined;
  for (const role of roles) {
    const names = item[role];
    if (!Array.isArray(names) || names.length === 0 || isOthersName(names[names.length - 1])) continue;
    out ??= { ...item };
    (out as CslItem)[role] = [...(names as CslName[]), { ...OTHERS_NAME }];
  }
  return out ?? item;
}

/**
 * The other way, for import: each name list that ends in the marker loses it, and the role is
 * recorded as the BibTeX importer records it. Returns whether anything changed.
 */
export function takeOthersNames(item: CslItem): boolean {
  const roles: string[] = [];
  for (const role of CSL_NAME_FIELDS) {
    const names = item[role];
    if (!Array.isArray(names) || names.length < 2 || !isOthersName(names[names.length - 1])) continue;
    item[role] = names.slice(0, -1);
    roles.push(role);
  }
  if (roles.length === 0) return false;
  const custom = (item.custom ??= {});
  const bibtex = (custom['bibtex'] ??= {}) as { others?: string[] };
  bibtex.others = [...new Set([...(bibtex.others ?? []), ...roles])];
  return true;
}
