import type { Result } from './define';

// The messages of the host's WebSocket transport. Electron IPC carries the same (channel, input) →
// Result and (event, payload) pairs through ipcRenderer.invoke and webContents.send.

export const WS_PATH = '/ipc';
/** The largest text an import or paste may carry over IPC (the contract's bound; the renderer checks it first). */
export const MAX_IMPORT_CHARS = 64 * 1024 * 1024;
/**
 * The largest message either side accepts. Every request the contract allows must fit, or the
 * socket is closed under it and the user reads "connection lost" instead of the contract's error:
 * JSON writes a character in up to 6 bytes (a control character or a lone surrogate as \u0001), so
 * an import text at its bound takes up to 6 × MAX_IMPORT_CHARS, plus the envelope. The host
 * listens on 127.0.0.1 and answers only its launch token.
 */
export const WS_MAX_MESSAGE_BYTES = 6 * MAX_IMPORT_CHARS + 1024 * 1024;
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
