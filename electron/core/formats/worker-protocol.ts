// Messages between importInWorker and the worker entry. Items travel in chunks so the thread that
// answers the UI only ever deserialises a small batch at a time; or, with a sink, they never leave
// the worker at all.
import type { MessagePort } from 'node:worker_threads';
import type { PreparedItem } from '../library/derive';
import type { ImportOptions } from './index';
import type { ImportedItem, ImportResult } from './result';

export type WorkerSource = { kind: 'path'; path: string } | { kind: 'bytes'; bytes: Uint8Array } | { kind: 'text'; text: string };

/**
 * Where items go inside the worker instead of being posted to the caller: for the library store,
 * which can open its own connection there and write the whole import in one transaction, saving the
 * copy of every item between threads (about a second and 150 MB per 100,000 entries).
 * The module's `createImportSink(options)` is called once per import.
 */
export interface SinkSpec {
  /** file: URL of a module exporting `createImportSink`; bundled, its own entry like formats-worker.js. */
  module: string;
  /** Structured-cloneable options for it (a database path, a collection id…). */
  options?: unknown;
}

export interface ImportSink {
  /** Called with each chunk as the parser makes it; synchronous, as the parser is. */
  write(items: ImportedItem[]): void;
  /** After a successful parse: make the writes durable (commit); the answer goes back to the caller. */
  commit(summary: Omit<ImportResult, 'items'>): unknown;
  /** After a failed parse (time budget, entry limit, unreadable file): undo every write. */
  rollback(reason: string): void;
}

export type CreateImportSink = (options: unknown) => ImportSink | Promise<ImportSink>;

export interface WorkerRequest {
  source: WorkerSource;
  options: ImportOptions;
  chunkSize: number;
  sink?: SinkSpec;
  /** Items go to this port (transferred here) instead of the caller: see PortMessage. */
  port?: MessagePort;
}

/**
 * What the worker posts on a request's port, whose other end is in the library worker (so a large
 * import never passes through the thread that answers the UI): the items in order, each already
 * prepared for the store (derived columns, CSL-JSON text: work this thread does while the store
 * writes), then `end` once the parse succeeded; nothing more after a failure, which the caller learns
 * from its own 'failed' message.
 */
export type PortMessage = { type: 'flow'; counters: SharedArrayBuffer } | { type: 'items'; items: PortItem[] } | { type: 'end'; count: number };

/**
 * Flow control on a port: the parser is faster than the store, and chunks waiting in the port hold
 * memory. The first message hands the reader a SharedArrayBuffer of these Int32 slots; the reader
 * counts the chunks it has written (and notifies), and the parser waits while too many are unread.
 */
export const FLOW = { written: 0, closed: 1 } as const;

export interface PortItem {
  prepared: PreparedItem;
  line: number;
  sourceKey?: string;
}

export type WorkerMessage =
  | { type: 'items'; items: ImportedItem[] }
  | { type: 'done'; result: Omit<ImportResult, 'items'>; parseMs: number; sinkResult?: unknown }
  | { type: 'failed'; error: { message: string; line: number; code: string } };
