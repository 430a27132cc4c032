// Messages between importInWorker and the worker entry. Items travel in chunks so the thread that
// answers the UI only ever deserialises a small batch at a time.
import type { ImportOptions } from './index';
import type { ImportedItem, ImportResult } from './result';

export type WorkerSource = { kind: 'path'; path: string } | { kind: 'bytes'; bytes: Uint8Array } | { kind: 'text'; text: string };

export interface WorkerRequest {
  source: WorkerSource;
  options: ImportOptions;
  chunkSize: number;
}

export type WorkerMessage =
  | { type: 'items'; items: ImportedItem[] }
  | { type: 'done'; result: Omit<ImportResult, 'items'>; parseMs: number }
  | { type: 'failed'; error: { message: string; line: number; code: string } };
