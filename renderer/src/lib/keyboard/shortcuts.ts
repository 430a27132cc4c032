// The keyboard shortcuts, declared once: the key handlers find their command here, and the `?`
// overlay lists this same array, so the two cannot drift apart.
import { PANES, isMac, type PaneId } from '../panes';

export type ShortcutScope = 'Anywhere' | 'Library' | 'Lists in the sidebar';

export interface Shortcut {
  /** What the handlers switch on. */
  readonly command: string;
  readonly scope: ShortcutScope;
  /** The keys as the overlay shows them, e.g. "Ctrl+Z" or "G then L". */
  readonly keys: string;
  readonly description: string;
  /** Whether a keydown is this shortcut (for a "G then X" sequence: whether it is the second key). */
  readonly matches: (event: KeyboardEvent) => boolean;
  /** The pane a pane shortcut goes to. */
  readonly pane?: PaneId;
  /** Set on the second key of a "G then X" sequence. */
  readonly afterG?: boolean;
}

const MOD = isMac ? '⌘' : 'Ctrl+';
const mod = (e: KeyboardEvent): boolean => (isMac ? e.metaKey : e.ctrlKey) && !e.altKey;
const plain = (e: KeyboardEvent): boolean => !e.ctrlKey && !e.metaKey && !e.altKey;
const key = (e: KeyboardEvent): string => e.key.toLowerCase();

export const SHORTCUTS: readonly Shortcut[] = [
  ...PANES.map((p): Shortcut => ({
    command: 'pane',
    pane: p.id,
    scope: 'Anywhere',
    keys: `${MOD}${p.key}`,
    description: `Go to ${p.label}`,
    matches: (e) => mod(e) && !e.shiftKey && e.key === p.key,
  })),
  ...PANES.map((p): Shortcut => ({
    command: 'pane',
    pane: p.id,
    afterG: true,
    scope: 'Anywhere',
    keys: `G then ${p.go.toUpperCase()}`,
    description: `Go to ${p.label}`,
    matches: (e) => plain(e) && key(e) === p.go,
  })),
  {
    command: 'next-region',
    scope: 'Anywhere',
    keys: 'F6',
    description: 'Move to the next region (sidebar, search, table, details)',
    matches: (e) => e.key === 'F6' && !e.shiftKey,
  },
  {
    command: 'previous-region',
    scope: 'Anywhere',
    keys: 'Shift+F6',
    description: 'Move to the previous region',
    matches: (e) => e.key === 'F6' && e.shiftKey,
  },
  {
    command: 'show-shortcuts',
    scope: 'Anywhere',
    keys: '?',
    description: 'Show these keyboard shortcuts',
    matches: (e) => e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey,
  },
  {
    command: 'search',
    scope: 'Library',
    keys: `${MOD}F`,
    description: 'Search the library',
    matches: (e) => mod(e) && !e.shiftKey && key(e) === 'f',
  },
  {
    command: 'advanced-search',
    scope: 'Library',
    keys: isMac ? '⇧⌘F' : 'Ctrl+Shift+F',
    description: 'Advanced search: build a query from fields and conditions, search or save it',
    matches: (e) => mod(e) && e.shiftKey && key(e) === 'f',
  },
  {
    command: 'undo',
    scope: 'Library',
    keys: `${MOD}Z`,
    description: 'Undo',
    matches: (e) => mod(e) && !e.shiftKey && key(e) === 'z',
  },
  {
    command: 'redo',
    scope: 'Library',
    keys: isMac ? '⇧⌘Z' : 'Ctrl+Shift+Z or Ctrl+Y',
    description: 'Redo',
    matches: (e) => mod(e) && ((e.shiftKey && key(e) === 'z') || (!isMac && !e.shiftKey && key(e) === 'y')),
  },
  {
    command: 'file-in-collection',
    scope: 'Library',
    keys: isMac ? '⇧⌘L' : 'Ctrl+Shift+L',
    description: 'Add the selected items to a collection (a picker)',
    matches: (e) => mod(e) && e.shiftKey && key(e) === 'l',
  },
  {
    command: 'toggle-colored-tag',
    scope: 'Library',
    keys: '1 to 9',
    description: 'In the table: add the coloured tag with that key to the selected items, or take it off',
    matches: (e) => plain(e) && !e.shiftKey && /^[1-9]$/.test(e.key),
  },
  {
    command: 'quick-copy-bibliography',
    scope: 'Library',
    keys: isMac ? '⇧⌘C' : 'Ctrl+Shift+C',
    description: 'Quick Copy: copy the bibliography of the selected items in the default style',
    matches: (e) => mod(e) && e.shiftKey && key(e) === 'c',
  },
  {
    command: 'quick-copy-citation',
    scope: 'Library',
    keys: isMac ? '⇧⌘A' : 'Ctrl+Shift+A',
    description: 'Quick Copy: copy an in-text citation of the selected items in the default style',
    matches: (e) => mod(e) && e.shiftKey && key(e) === 'a',
  },
  {
    command: 'copy-selection',
    scope: 'Library',
    keys: `${MOD}C`,
    description: 'In the table: copy the selected items’ references in the default style (as Quick Copy)',
    matches: (e) => mod(e) && !e.shiftKey && key(e) === 'c',
  },
  {
    command: 'new-item',
    scope: 'Library',
    keys: isMac ? '⇧⌘N' : 'Ctrl+Shift+N',
    description: 'New item: type one in, of any type (the desktop app; a browser keeps this key)',
    matches: (e) => mod(e) && e.shiftKey && key(e) === 'n',
  },
  {
    command: 'new-note',
    scope: 'Library',
    keys: isMac ? '⇧⌘O' : 'Ctrl+Shift+O',
    description: 'New note: a standalone note, in the collection shown (as Zotero’s New Note)',
    matches: (e) => mod(e) && e.shiftKey && key(e) === 'o',
  },
  {
    command: 'selection-menu',
    scope: 'Library',
    keys: 'Menu or Shift+F10',
    description: 'Commands for the selected items (in the table)',
    matches: (e) => e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey),
  },
  {
    command: 'list-next',
    scope: 'Lists in the sidebar',
    keys: '↓',
    description: 'Next view, collection, saved search or tag',
    matches: (e) => plain(e) && e.key === 'ArrowDown',
  },
  {
    command: 'list-previous',
    scope: 'Lists in the sidebar',
    keys: '↑',
    description: 'Previous one',
    matches: (e) => plain(e) && e.key === 'ArrowUp',
  },
  {
    command: 'list-first',
    scope: 'Lists in the sidebar',
    keys: 'Home',
    description: 'First in the list',
    matches: (e) => plain(e) && e.key === 'Home',
  },
  {
    command: 'list-last',
    scope: 'Lists in the sidebar',
    keys: 'End',
    description: 'Last in the list',
    matches: (e) => plain(e) && e.key === 'End',
  },
  {
    command: 'list-delete',
    scope: 'Lists in the sidebar',
    keys: 'Delete',
    description: 'Delete the saved search (asks first)',
    matches: (e) => plain(e) && e.key === 'Delete',
  },
];

/** The shortcut of a scope that a keydown is, if any (the "G then X" second keys only when `afterG`). */
export function shortcutFor(event: KeyboardEvent, scope: ShortcutScope, afterG = false): Shortcut | undefined {
  return SHORTCUTS.find((s) => s.scope === scope && !!s.afterG === afterG && s.matches(event));
}

/** Whether the keydown comes from a place where the user types text, where single keys are text. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}
