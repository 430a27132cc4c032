// The worker-thread entry of imports: parses what importInWorker sends (a path, bytes or text) and
// streams the items back in chunks. It is its own bundle entry (formats-worker.js) in the builds.
import { parentPort, workerData } from 'node:worker_threads';
import { importBytes, importFile, importText } from './index';
import { FormatError } from './limits';
import type { ImportedItem, ImportResult } from './result';
import type { WorkerMessage, WorkerRequest } from './worker-protocol';

function post(message: WorkerMessage): void {
  parentPort!.postMessage(message);
}

function run(request: WorkerRequest): void {
  const started = performance.now();
  let result: ImportResult;
  try {
    const { source } = request;
    // Items go out as they are made, so the worker never holds them all.
    const options = { ...request.options, chunkSize: request.chunkSize, onItems: (items: ImportedItem[]) => post({ type: 'items', items }) };
    result = source.kind === 'path' ? importFile(source.path, options) : source.kind === 'bytes' ? importBytes(source.bytes, options) : importText(source.text, options);
  } catch (err) {
    if (err instanceof FormatError) post({ type: 'failed', error: { message: err.message, line: err.line, code: err.code } });
    else if (err instanceof Error && 'code' in err && err.code === 'ENOENT') post({ type: 'failed', error: { message: 'The file does not exist.', line: 0, code: 'NOT_FOUND' } });
    else post({ type: 'failed', error: { message: err instanceof Error ? err.message : String(err), line: 0, code: 'INTERNAL' } });
    return;
  }
  const parseMs = performance.now() - started;
  const { items: _streamed, ...rest } = result;
  post({ type: 'done', result: rest, parseMs });
}

if (parentPort) run(workerData as WorkerRequest);
