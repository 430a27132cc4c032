// Messages between importInWorker and the worker entry. Items travel in chunks so the thread that
// answers the UI only ever deserialises a small batch at a time; on the import port (import-port.ts)
// they go to the library worker and never reach it at all.
import type { MessagePort } from 'node:worker_threads';
import type { ImportOptions } from './index';
import type { ImportedItem, ParseResult } from './result';
import type { WireError } from '../worker-rpc';

export type WorkerSource =
  { kind: 'path'; path: string } | { kind: 'bytes'; bytes: Uint8Array } | { kind: 'text'; text: string };

export interface WorkerRequest {
  source: WorkerSource;
  options: ImportOptions;
  chunkSize: number;
  /** Items go to this port (transferred here) instead of the caller: see PortMessage (import-port.ts). */
  port?: MessagePort;
  /** A preview: only the first `sample` items come back to the caller, in 'done'; see importInWorker's `sample`. */
  sample?: number;
}

export type WorkerMessage =
  | { type: 'items'; items: ImportedItem[] }
  | { type: 'done'; result: Omit<ParseResult, 'items'>; parseMs: number; sample?: ImportedItem[] }
  | { type: 'failed'; error: WireError };
