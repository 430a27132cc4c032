export const PANES = [
  { id: 'library', label: 'Library', key: '1', go: 'l', icon: 'library' },
  { id: 'graph', label: 'Citation graph', key: '2', go: 'g', icon: 'graph' },
  { id: 'collections', label: 'Collections', key: '3', go: 'c', icon: 'collections' },
  { id: 'assistant', label: 'Assistant', key: '4', go: 'a', icon: 'assistant' },
  { id: 'evidence', label: 'Evidence', key: '5', go: 'e', icon: 'evidence' },
  { id: 'journals', label: 'Journals & Authors', key: '6', go: 'j', icon: 'journals' },
  { id: 'settings', label: 'Settings', key: ',', go: 's', icon: 'settings' },
] as const;

export type Pane = (typeof PANES)[number];
export type PaneId = Pane['id'];

export function isPaneId(value: string): value is PaneId {
  return PANES.some((p) => p.id === value);
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function shortcutLabel(pane: Pane): string {
  return `${isMac ? '⌘' : 'Ctrl+'}${pane.key}`;
}
