// The worker-thread entry of imports: parses what importInWorker sends (a path, bytes or text) and
// posts the items in chunks to the import port (import-port.ts), or back to the caller. It is its own
// bundle entry (formats-worker.js) in the builds.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { CoreError } from '../errors';
import { parseManuscript, readManuscript } from '../manuscript/check';
import type { ManuscriptMessage, ManuscriptRequest } from '../manuscript/in-worker';
import { importBytes, importFile, importText } from './index';
import { TimeLimitError } from './limits';
import type { ImportedItem, ParseResult } from './result';
import { encodePortItems, FLOW, portItemOf, type PortItem, type PortMessage } from './import-port';
import type { ItemCheck } from './collector';
import { maxOf } from '../../../shared/model/arrays';
import { toWire, type WireError } from '../worker-rpc';
import type { WorkerMessage, WorkerRequest } from './worker-protocol';

function post(message: WorkerMessage): void {
  parentPort!.postMessage(message);
}

/** Why a parse failed, as it crosses to the caller: always a CoreError's code, the line in its details. */
function failure(err: unknown): WireError {
  // In one thread a parse over its budget is INVALID_INPUT; across it is TIMEOUT, which the caller words with the file's name.
  if (err instanceof TimeLimitError) return toWire(new CoreError('TIMEOUT', err.message, err.details));
  if (err instanceof CoreError) return toWire(err);
  if (err instanceof Error && 'code' in err && err.code === 'ENOENT')
    return toWire(new CoreError('NOT_FOUND', 'The file does not exist.'));
  return toWire(new CoreError('INTERNAL', err instanceof Error ? err.message : String(err)));
}

/** Chunks the store may have waiting, unread, before the parser waits for it. */
const MAX_UNREAD = 4;
/** A store that has not read a chunk for this long (once it has started reading) is not coming back; the parser stops waiting for it. */
const STALLED_MS = 30_000;

/**
 * Prepares each item for the library as the importer reads it (so a failure there is that entry's,
 * reported on its line, and never costs the others of its chunk), and posts them to the store's port
 * a chunk at a time, waiting (this thread only) while it is behind.
 */
function portWriter(port: MessagePort): { check: ItemCheck; sink: (items: ImportedItem[]) => void } {
  const counters = new SharedArrayBuffer(4 * (maxOf(Object.values(FLOW)) + 1));
  const flow = new Int32Array(counters);
  port.postMessage({ type: 'flow', counters } satisfies PortMessage);
  let posted = 0;
  let prepared: PortItem[] = [];
  const check: ItemCheck = (it) => {
    prepared.push(portItemOf(it));
  };
  const sink = (): void => {
    const message = encodePortItems(prepared);
    prepared = [];
    let waitedSince = 0;
    for (;;) {
      const written = Atomics.load(flow, FLOW.written);
      if (posted - written < MAX_UNREAD || Atomics.load(flow, FLOW.closed) !== 0) break;
      // Until the store reads the port, the parser waits however long the library takes to open: the
      // caller stops a parse whose library never opens (StartedParse.abort).
      if (Atomics.load(flow, FLOW.reading) !== 0) {
        const now = performance.now();
        waitedSince ||= now;
        if (now - waitedSince > STALLED_MS) break;
      }
      Atomics.wait(flow, FLOW.written, written, 100);
    }
    port.postMessage(message satisfies PortMessage, [message.text]);
    posted++;
  };
  return { check, sink };
}

/**
 * A preview's items: the first `size` kept for the caller, every one posted to the store's port (when
 * there is one, to look for the entries the library already holds); the rest never leave this thread.
 */
function sampleWriter(
  sample: ImportedItem[],
  size: number,
  toPort: ((items: ImportedItem[]) => void) | undefined,
): (items: ImportedItem[]) => void {
  return (items) => {
    for (let i = 0; i < items.length && sample.length < size; i++) sample.push(items[i]!);
    toPort?.(items);
  };
}

function run(request: WorkerRequest): void {
  const started = performance.now();
  const sample: ImportedItem[] | undefined = request.sample === undefined ? undefined : [];
  let result: ParseResult;
  try {
    const { source } = request;
    // Items go out as they are made, so the worker never holds them all.
    const { port } = request;
    const toPort = port ? portWriter(port) : undefined;
    const onItems = sample
      ? sampleWriter(sample, request.sample!, toPort?.sink)
      : (toPort?.sink ?? ((items: ImportedItem[]) => post({ type: 'items', items })));
    const options = { ...request.options, chunkSize: request.chunkSize, onItems, checkItem: toPort?.check };
    result =
      source.kind === 'path'
        ? importFile(source.path, options)
        : source.kind === 'bytes'
          ? importBytes(source.bytes, options)
          : importText(source.text, options);
  } catch (err) {
    post({ type: 'failed', error: failure(err) });
    return;
  }
  const parseMs = performance.now() - started;
  const { items: _streamed, ...rest } = result;
  // Before 'done': whoever reads the port has every item once it sees 'end'.
  request.port?.postMessage({ type: 'end', count: rest.count } satisfies PortMessage);
  request.port?.close();
  post(sample ? { type: 'done', result: rest, parseMs, sample } : { type: 'done', result: rest, parseMs });
}

/** A manuscript check's parse (manuscript/in-worker.ts): the citations found, or the CoreError that refused the file. */
function runManuscript(request: ManuscriptRequest): void {
  const { source } = request;
  let message: ManuscriptMessage;
  try {
    const parsed =
      source.kind === 'path' ? readManuscript(source.path) : parseManuscript(source.name, source.bytes, source.aux);
    message = { type: 'parsed', parsed };
  } catch (err) {
    message = { type: 'failed', error: failure(err) };
  }
  parentPort!.postMessage(message);
}

if (parentPort) {
  const request = workerData as WorkerRequest | ManuscriptRequest;
  if ('op' in request && request.op === 'manuscript') runManuscript(request);
  else run(request as WorkerRequest);
}
