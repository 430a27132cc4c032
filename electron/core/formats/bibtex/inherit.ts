// crossref and xdata: a child entry inherits the fields it lacks from its parent (biblatex §2.4.1).
// A chapter's parent book gives its title as the chapter's booktitle, not as the chapter's title.
import type { ImportIssue } from '../result';
import type { RawEntry } from './parser';

const NOT_INHERITED = new Set([
  'ids',
  'crossref',
  'xref',
  'xdata',
  'entryset',
  'entrysubtype',
  'execute',
  'label',
  'options',
  'presort',
  'related',
  'relatedoptions',
  'relatedstring',
  'relatedtype',
  'shorthand',
  'shorthandintro',
  'sortkey',
  'key',
]);
/** The types that are a part of another work (a chapter, a paper in proceedings), whose booktitle names that work. */
export const CONTAINED: ReadonlySet<string> = new Set([
  'inbook',
  'bookinbook',
  'suppbook',
  'incollection',
  'suppcollection',
  'inproceedings',
  'conference',
  'inreference',
]);
const CONTAINERS = new Set([
  'book',
  'mvbook',
  'collection',
  'mvcollection',
  'proceedings',
  'mvproceedings',
  'reference',
  'mvreference',
]);
const MULTI_VOLUME = new Set(['mvbook', 'mvcollection', 'mvproceedings', 'mvreference']);
const VOLUMES = new Set(['book', 'collection', 'proceedings', 'reference']);
const MAX_CHAIN = 8;

/** Resolves xdata then crossref in place; returns the entries that are items (xdata entries are not). */
export function resolveInheritance(entries: RawEntry[], warnings: ImportIssue[]): RawEntry[] {
  let needed = false;
  for (const e of entries) {
    if (e.type === 'xdata' || e.fields.has('crossref') || e.fields.has('xdata')) {
      needed = true;
      break;
    }
  }
  if (!needed) return entries;
  const byKey = new Map<string, RawEntry>();
  for (const e of entries) {
    if (e.key !== '' && !byKey.has(e.key.toLowerCase())) byKey.set(e.key.toLowerCase(), e);
  }
  const xdataDone = new Set<RawEntry>();
  const resolveXdata = (e: RawEntry, depth: number): void => {
    if (xdataDone.has(e)) return;
    xdataDone.add(e);
    const refs = e.fields.get('xdata');
    if (refs === undefined) return;
    for (const ref of refs
      .split(',')
      .map((r) => r.trim())
      .filter((r) => r !== '')) {
      const parent = byKey.get(ref.toLowerCase());
      if (!parent) {
        warnings.push({
          line: e.line,
          reason: `"${e.key}" takes data from "${ref}" (xdata), which is not in the file.`,
        });
        continue;
      }
      if (depth >= MAX_CHAIN) {
        warnings.push({
          line: e.line,
          reason: `The xdata chain from "${e.key}" is longer than ${MAX_CHAIN} links or loops; it was cut there.`,
        });
        continue;
      }
      resolveXdata(parent, depth + 1);
      for (const [name, value] of parent.fields)
        if (!NOT_INHERITED.has(name) && !e.fields.has(name)) e.fields.set(name, value);
    }
  };
  for (const e of entries) resolveXdata(e, 0);

  const crossDone = new Set<RawEntry>();
  const resolveCrossref = (e: RawEntry, depth: number): void => {
    if (crossDone.has(e)) return;
    crossDone.add(e);
    const ref = e.fields.get('crossref')?.trim();
    if (!ref) return;
    const parent = byKey.get(ref.toLowerCase());
    if (!parent) {
      warnings.push({
        line: e.line,
        reason: `"${e.key}" refers to "${ref}" (crossref), which is not in the file; it was imported without the inherited fields.`,
      });
      return;
    }
    if (depth >= MAX_CHAIN || parent === e) {
      warnings.push({
        line: e.line,
        reason: `The crossref chain from "${e.key}" is longer than ${MAX_CHAIN} links or loops; it was cut there.`,
      });
      return;
    }
    resolveCrossref(parent, depth + 1);
    // A multi-volume parent (@mvbook…) names the whole work: its title is the maintitle of a volume
    // and of a part of a volume (biblatex appendix B); any other container's title is a booktitle.
    const main = MULTI_VOLUME.has(parent.type) && (CONTAINED.has(e.type) || VOLUMES.has(e.type));
    const contained = main || (CONTAINED.has(e.type) && CONTAINERS.has(parent.type));
    const prefix = main ? 'main' : 'book';
    for (const [name, value] of parent.fields) {
      if (NOT_INHERITED.has(name)) continue;
      let target = name;
      if (contained) {
        if (name === 'title' || name === 'subtitle' || name === 'titleaddon') target = prefix + name;
        else if (name === 'shorttitle') continue;
        else if (name === 'author' && (e.type === 'inbook' || e.type === 'bookinbook' || e.type === 'suppbook'))
          target = 'bookauthor';
      }
      if (!e.fields.has(target)) e.fields.set(target, value);
    }
  };
  for (const e of entries) resolveCrossref(e, 0);
  return entries.filter((e) => e.type !== 'xdata');
}
