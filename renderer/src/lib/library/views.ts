// What the Library pane shows, as the contract's `where` (query, collection, trash): the built-in
// views, the tag filter and the search box combine here into one query in the search language.
import type { LibraryWhere } from '../../../../shared/ipc';
import type { Collection, Sort } from '../../../../shared/model/library';

export type View =
  | { kind: 'library' }
  | { kind: 'collection'; id: number }
  | { kind: 'unfiled' }
  | { kind: 'duplicates' }
  /** Captured PDFs whose identification a person has to settle (its own list, not the table). */
  | { kind: 'review' }
  | { kind: 'notices' }
  | { kind: 'recent' }
  | { kind: 'trash' };

/** The contract's own `where` (shared/ipc/library.ts), so the pane cannot ask for what the core refuses. */
export type Where = LibraryWhere;

export const NOTICES_QUERY = 'retracted:yes OR notice:any';
export const RECENT_SORT: Sort = { column: 'dateAdded', direction: 'desc' };

/** A value as one quoted term, its quote marks and backslashes escaped with a backslash. */
export function quoted(value: string): string {
  return `"${value.replace(/[\\"“”]/g, (c) => `\\${c}`)}"`;
}

/** ANDs query parts, each in parentheses so an OR inside one cannot leak into the others. */
export function combine(...parts: (string | null | undefined)[]): string {
  const kept = parts.map((p) => p?.trim() ?? '').filter((p) => p !== '');
  return kept.length === 1 ? kept[0]! : kept.map((p) => `(${p})`).join(' ');
}

/** The tag filter: each chosen tag as a `tag:` term. */
export function tagTerms(tags: readonly string[]): string {
  return tags.map((t) => `tag:${quoted(t)}`).join(' ');
}

/** The `where` of library.list/count for a view, the search box and the tag filter. */
export function whereOf(view: View, search: string, tags: readonly string[]): Where {
  const filter = combine(search, tagTerms(tags));
  switch (view.kind) {
    case 'library':
    case 'recent':
    case 'duplicates':
    case 'review':
      return filter ? { query: filter } : {};
    case 'collection':
      return { collectionId: view.id, ...(filter ? { query: filter } : {}) };
    case 'trash':
      return { trash: true, ...(filter ? { query: filter } : {}) };
    case 'notices':
      return { query: combine(NOTICES_QUERY, filter) };
    case 'unfiled':
      return { unfiled: true, ...(filter ? { query: filter } : {}) };
  }
}

export function sameView(a: View, b: View): boolean {
  return a.kind === b.kind && (a.kind !== 'collection' || a.id === (b as { id: number }).id);
}

/** Collections as a tree, children sorted by name, for the sidebar. */
export interface CollectionNode {
  collection: Collection;
  children: CollectionNode[];
  depth: number;
}

export function collectionTree(collections: readonly Collection[]): CollectionNode[] {
  const byParent = new Map<number | null, Collection[]>();
  for (const c of collections) {
    const list = byParent.get(c.parentId) ?? [];
    list.push(c);
    byParent.set(c.parentId, list);
  }
  const build = (parent: number | null, depth: number, seen: Set<number>): CollectionNode[] =>
    (byParent.get(parent) ?? [])
      .filter((c) => !seen.has(c.id))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((c) => ({ collection: c, depth, children: build(c.id, depth + 1, new Set([...seen, c.id])) }));
  return build(null, 0, new Set());
}

/** Whether `id` is `ancestor` or lies under it (a collection cannot be moved into its own subtree). */
export function isWithin(collections: readonly Collection[], id: number, ancestor: number): boolean {
  const parent = new Map(collections.map((c) => [c.id, c.parentId]));
  for (
    let cur: number | null | undefined = id, hops = 0;
    cur != null && hops <= collections.length;
    cur = parent.get(cur), hops++
  ) {
    if (cur === ancestor) return true;
  }
  return false;
}
