// Imports in a worker thread, so a 100,000-entry file never stalls the process that answers the UI.
// One worker per import: it starts in tens of milliseconds, and terminating it is the one sure way to
// stop a parse that runs over its time budget and to give its memory back.
import { basename } from 'node:path';
import { Worker, type MessagePort, type TransferListItem } from 'node:worker_threads';
import { CoreError } from '../errors';
import { fromWire } from '../worker-rpc';
import { locateWorker, type WorkerEntry } from '../worker-entry';
import type { ImportOptions } from './index';
import { resolveLimits, timeLimitMessage } from './limits';
import type { ImportedItem, ParseResult } from './result';
import type { WorkerMessage, WorkerRequest, WorkerSource } from './worker-protocol';
import { appendAll } from '../../../shared/model/arrays';

export type { WorkerSource } from './worker-protocol';
export type { PortItem, PortMessage } from './import-port';

export interface WorkerImportOptions extends ImportOptions {
  /**
   * Receives the items in chunks as they arrive; the result's `items` then stays empty, so the caller
   * (the store, writing one transaction) never needs all of them in memory at once.
   */
  onItems?: (chunk: ImportedItem[]) => void;
  /** Items per message; 1,000 keeps each message's deserialisation in the low milliseconds. */
  chunkSize?: number;
  signal?: AbortSignal;
  /** The worker script; found next to this module (bundled or source) when omitted. */
  workerUrl?: URL;
  /**
   * Post the items to this port (transferred to the worker) instead of here, followed by
   * `{ type: 'end' }` after a successful parse (PortMessage). With the port's twin in the library
   * worker, items go from parser to store without crossing the thread that answers the UI.
   */
  port?: MessagePort;
  /**
   * A preview: the result's `items` are only the first `sample` entries; the others are parsed and
   * counted (and posted to `port` when given) but never sent to this thread.
   */
  sample?: number;
}

export interface WorkerImportResult extends ParseResult {
  /** Time spent parsing inside the worker. */
  parseMs: number;
}

/** The worker script (see locateWorker in worker-entry.ts). */
export function resolveWorkerScript(): WorkerEntry {
  return locateWorker('formats-worker');
}

export function importInWorker(source: WorkerSource, options: WorkerImportOptions = {}): Promise<WorkerImportResult> {
  const { onItems, chunkSize = 1000, signal, workerUrl, port, sample, ...importOptions } = options;
  const limits = resolveLimits(importOptions.limits);
  const entry = workerUrl ? { script: workerUrl } : resolveWorkerScript();
  const request: WorkerRequest = {
    source,
    options: { ...importOptions, limits },
    chunkSize,
    ...(port ? { port } : {}),
    ...(sample !== undefined ? { sample } : {}),
  };
  return new Promise<WorkerImportResult>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CoreError('CANCELLED', 'The import was cancelled.'));
      return;
    }
    const transferList: TransferListItem[] =
      source.kind === 'bytes' &&
      source.bytes.byteOffset === 0 &&
      source.bytes.byteLength === source.bytes.buffer.byteLength &&
      source.bytes.buffer instanceof ArrayBuffer
        ? [source.bytes.buffer]
        : [];
    if (port) transferList.push(port);
    const worker = new Worker(entry.script, {
      workerData: request,
      transferList,
      eval: entry.eval ?? false,
      // A runaway parse must not take the app's memory with it.
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
    });
    const items: ImportedItem[] = [];
    let settled = false;
    const fileName = importOptions.fileName ?? (source.kind === 'path' ? basename(source.path) : undefined);
    const overTime = (line = 0) =>
      new CoreError('TIMEOUT', timeLimitMessage(limits.timeBudgetMs, fileName), line > 0 ? { line } : undefined);
    // The worker checks its own time budget between entries; this is the backstop for work that cannot
    // check it (JSON.parse of a whole file, one huge entry). Its grace lets the worker's own check, which
    // knows the line, speak first, and stays small beside the budget.
    const timer = setTimeout(() => fail(overTime()), limits.timeBudgetMs + backstopGraceMs(limits.timeBudgetMs));
    const onAbort = () => fail(new CoreError('CANCELLED', 'The import was cancelled.'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    // Rejects only once the worker has ended: nothing it would still post (items to the library's port)
    // can arrive after the caller has been told, and undone what was written.
    function fail(err: Error): void {
      if (settled) return;
      cleanup();
      worker.terminate().then(
        () => reject(err),
        () => reject(err),
      );
    }
    worker.on('message', (message: WorkerMessage) => {
      if (settled) return;
      if (message.type === 'items') {
        if (onItems) onItems(message.items);
        else for (const it of message.items) items.push(it);
      } else if (message.type === 'done') {
        cleanup();
        if (message.sample) appendAll(items, message.sample);
        resolve({ ...message.result, items, parseMs: message.parseMs });
      } else {
        const err = fromWire(message.error);
        const line = (message.error.details as { line?: number } | undefined)?.line ?? 0;
        fail(err instanceof CoreError && err.code === 'TIMEOUT' ? overTime(line) : err);
      }
    });
    worker.on('error', (err) =>
      fail(
        err.message.includes('ERR_WORKER_OUT_OF_MEMORY') ||
          (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new CoreError('INVALID_INPUT', 'The file needs more memory to parse than an import may use.')
          : err,
      ),
    );
    worker.on('exit', (code) => {
      if (!settled) fail(new CoreError('INTERNAL', `The import worker stopped unexpectedly (exit code ${code}).`));
    });
  });
}

/** How long after its budget a parse is stopped from outside: a tenth of the budget, 0.25 to 5 s. */
export function backstopGraceMs(budgetMs: number): number {
  return Math.min(5000, Math.max(250, budgetMs / 10));
}
