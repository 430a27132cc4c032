// Messages between importInWorker and the worker entry. Items travel in chunks so the thread that
// answers the UI only ever deserialises a small batch at a time; or, with a sink, they never leave
// the worker at all.
import type { MessagePort } from 'node:worker_threads';
import type { ImportOptions } from './index';
import type { ImportedItem, ParseResult } from './result';

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
  commit(summary: Omit<ParseResult, 'items'>): unknown;
  /** After a failed parse (time budget, entry limit, unreadable file): undo every write. */
  rollback(reason: string): void;
}

export type CreateImportSink = (options: unknown) => ImportSink | Promise<ImportSink>;

export interface WorkerRequest {
  source: WorkerSource;
  options: ImportOptions;
  chunkSize: number;
  sink?: SinkSpec;
  /** Items go to this port (transferred here) instead of the caller: see PortMessage (import-port.ts). */
  port?: MessagePort;
  /** A preview: only the first `sample` items come back to the caller, in 'done'; see importInWorker's `sample`. */
  sample?: number;
}

export type WorkerMessage =
  | { type: 'items'; items: ImportedItem[] }
  | { type: 'done'; result: Omit<ParseResult, 'items'>; parseMs: number; sinkResult?: unknown; sample?: ImportedItem[] }
  | { type: 'failed'; error: { message: string; line: number; code: string } };
