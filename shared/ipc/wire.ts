import type { Result } from './define';

// The messages of the host's WebSocket transport. Electron IPC carries the same (channel, input) →
// Result and (event, payload) pairs through ipcRenderer.invoke and webContents.send.

export const WS_PATH = '/ipc';
/** The largest message either side accepts; a 10 MB payload must fit. */
export const WS_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** The largest text an import or paste may carry over IPC (the contract's bound; the renderer checks it first). */
export const MAX_IMPORT_CHARS = 64 * 1024 * 1024;
export const ELECTRON_INVOKE_CHANNEL = 'citewise:invoke';
export const ELECTRON_EVENT_CHANNEL = 'citewise:event';
/**
 * PDFs dropped on the desktop app, by path: only the preload sends on it (the page cannot reach
 * ipcRenderer), with the paths webUtils.getPathForFile gave for the dropped files.
 */
export const ELECTRON_DROP_CHANNEL = 'citewise:dropped-pdfs';
/** PDFs one drop may bring by path. */
export const MAX_DROPPED_PDFS = 1000;

export interface WireInvoke {
  type: 'invoke';
  id: number;
  channel: string;
  input: unknown;
}

export interface WireResult {
  type: 'result';
  id: number;
  result: Result<unknown>;
}

export interface WireEvent {
  type: 'event';
  name: string;
  payload: unknown;
}

export type ServerMessage = WireResult | WireEvent;
