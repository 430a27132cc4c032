// The renderer's one way to the core: `window.citewise` from the Electron preload, or the host's
// WebSocket in browser mode. Both carry the same contract (shared/ipc).
import type { CitewiseApi } from '../../../shared/ipc';
import { createSocketTransport, socketUrlFor, type ConnectionState } from './ipc/socket-transport';

declare global {
  interface Window {
    citewise?: CitewiseApi;
  }
}

export interface Connection {
  api: CitewiseApi;
  mode: 'electron' | 'browser';
  /** The transport's own state; Electron IPC is always open. */
  onState(listener: (state: ConnectionState) => void): () => void;
}

export function connect(): Connection {
  if (window.citewise) {
    return { api: window.citewise, mode: 'electron', onState: () => () => {} };
  }
  const transport = createSocketTransport({ url: socketUrlFor(window.location) });
  return { api: transport, mode: 'browser', onState: (l) => transport.onState(l) };
}
