/// <reference lib="dom" />
// Mounts one of the Library pane's components (the details column, the export dialog) on its own,
// talking to the real core over the host's WebSocket, for end-to-end tests while the Library pane
// that hosts them is being built elsewhere. Served by the tests through page routes on the app's own
// origin, with the app's CSP; never part of the product build.
import { mount, unmount } from 'svelte';
import '../../../renderer/src/app.css';
import { createSocketTransport, socketUrlFor } from '../../../renderer/src/lib/ipc/socket-transport';
import ExportDialog from '../../../renderer/src/panes/library/export/ExportDialog.svelte';
import ItemDetails from '../../../renderer/src/panes/library/details/ItemDetails.svelte';

const api = createSocketTransport({ url: socketUrlFor(window.location) });
const target = document.getElementById('harness')!;
const calls: [string, unknown][] = [];
let current: Record<string, unknown> | null = null;

function replace(make: () => Record<string, unknown>): void {
  if (current) void unmount(current);
  current = null;
  target.replaceChildren();
  current = make();
}

const harness = {
  api,
  calls,
  clear(): void {
    replace(() => ({}));
    current = null;
  },
  theme(theme: 'light' | 'dark'): void {
    document.documentElement.dataset.theme = theme;
  },
  details(props: Record<string, unknown>): void {
    target.className = 'details-column';
    replace(() =>
      mount(ItemDetails, {
        target,
        props: {
          api,
          selectedCount: 1,
          style: 'apa',
          onOpenGraph: (id: number) => calls.push(['graph', id]),
          onAsk: (id: number) => calls.push(['ask', id]),
          onOpenItem: (item: { id: number }) => calls.push(['open', item.id]),
          ...props,
        },
      }),
    );
  },
  exportDialog(props: Record<string, unknown>): void {
    target.className = '';
    replace(() =>
      mount(ExportDialog, {
        target,
        props: {
          api,
          scopeLabel: 'My Library',
          scope: { kind: 'library' },
          onClose: () => calls.push(['close', null]),
          ...props,
        },
      }),
    );
  },
};

(window as unknown as { __harness: typeof harness }).__harness = harness;
document.documentElement.dataset.ready = 'true';
