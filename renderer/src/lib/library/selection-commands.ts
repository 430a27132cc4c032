// What can be done with the table's selection: the one list the context menu, the multi-selection
// panel and the keyboard share, and the collection picker's filter. Pure, so tested without a DOM.
import { MAX_COLLECTION_NAME, type Collection } from '../../../../shared/model/library';
import type { View } from './views';
import { collectionTree, type CollectionNode } from './views';

export type SelectionCommandId =
  | 'collection'
  | 'tags'
  | 'copy'
  | 'export'
  | 'refresh'
  | 'graph'
  | 'duplicate'
  | 'regenerateKeys'
  | 'trash'
  | 'restore'
  | 'deleteForGood';

export interface SelectionCommand {
  id: SelectionCommandId;
  label: string;
  /** The shortcut shown beside it (the table handles it). */
  shortcut?: string;
  danger?: boolean;
}

/** `library.cite` takes at most this many items in one call. */
export const MAX_COPY_ITEMS = 5000;
/** `graph.seed` takes at most this many items. */
export const MAX_GRAPH_ITEMS = 20_000;

/** The commands for a selection of `count` items in `view` (none without a selection). */
export function selectionCommands(view: View, count: number, mod: string): SelectionCommand[] {
  if (count === 0 || view.kind === 'duplicates') return [];
  if (view.kind === 'trash') {
    return [
      { id: 'restore', label: 'Restore' },
      { id: 'deleteForGood', label: 'Delete for good…', danger: true },
    ];
  }
  return [
    { id: 'collection', label: 'Add to collection…', shortcut: `${mod}+Shift+L` },
    { id: 'tags', label: 'Add or remove tags…' },
    { id: 'copy', label: count === 1 ? 'Copy citation…' : 'Copy citations…' },
    { id: 'export', label: 'Export…' },
    { id: 'refresh', label: 'Refresh from the service' },
    { id: 'graph', label: 'Open in citation graph' },
    ...(count === 1 ? [{ id: 'duplicate' as const, label: 'Duplicate item' }] : []),
    { id: 'regenerateKeys', label: count === 1 ? 'Regenerate citation key…' : 'Regenerate citation keys…' },
    { id: 'trash', label: 'Move to Trash', shortcut: 'Delete', danger: true },
  ];
}

/** Why a command cannot run for `count` items, or null when it can. */
export function commandLimit(id: SelectionCommandId, count: number): string | null {
  if (id === 'copy' && count > MAX_COPY_ITEMS)
    return `Copying takes at most ${MAX_COPY_ITEMS.toLocaleString('en')} items at once; export the selection instead.`;
  if (id === 'graph' && count > MAX_GRAPH_ITEMS)
    return `A citation graph starts from at most ${MAX_GRAPH_ITEMS.toLocaleString('en')} items; choose fewer.`;
  return null;
}

export interface PickerEntry {
  id: number;
  name: string;
  /** The names above it, "Thesis / Chapter 2", so two "Methods" can be told apart. */
  path: string;
  depth: number;
  itemCount: number;
}

/** Every collection in tree order with its path. */
export function pickerEntries(collections: readonly Collection[]): PickerEntry[] {
  const out: PickerEntry[] = [];
  const walk = (nodes: CollectionNode[], above: string[]): void => {
    for (const n of nodes) {
      out.push({
        id: n.collection.id,
        name: n.collection.name,
        path: [...above, n.collection.name].join(' / '),
        depth: n.depth,
        itemCount: n.collection.itemCount,
      });
      walk(n.children, [...above, n.collection.name]);
    }
  };
  walk(collectionTree(collections), []);
  return out;
}

const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The entries whose path holds every word typed (any order, case and accents ignored); those whose
 * own name starts with the text come first, then the rest in tree order.
 */
export function filterPicker(entries: readonly PickerEntry[], text: string): PickerEntry[] {
  const words = fold(text).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  const matches = entries.filter((e) => {
    const path = fold(e.path);
    return words.every((w) => path.includes(w));
  });
  const head = fold(text.trim());
  const starts = matches.filter((e) => fold(e.name).startsWith(head));
  return [...starts, ...matches.filter((e) => !starts.includes(e))];
}

/**
 * The top-level collection "New collection…" in a picker would create from the text typed: the text
 * trimmed, when it is not empty, not longer than a collection name may be, and no top-level
 * collection has that name already (the library compares names without case); null otherwise.
 */
export function newCollectionName(collections: readonly Collection[], text: string): string | null {
  const name = text.trim();
  if (name === '' || name.length > MAX_COLLECTION_NAME) return null;
  const lower = name.toLowerCase();
  return collections.some((c) => c.parentId === null && c.name.toLowerCase() === lower) ? null : name;
}
