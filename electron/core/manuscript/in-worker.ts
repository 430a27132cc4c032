// The manuscript check's parse, in the formats worker: a 20 MB .docx or .tex is unzipped, decoded and
// scanned there, never on the thread that answers the UI. One worker per check, as for an import.
import { Worker } from 'node:worker_threads';
import { CoreError } from '../errors';
import { locateWorker } from '../worker-entry';
import { fromWire, type WireError } from '../worker-rpc';
import type { ParsedManuscript } from './check';

/** What the manuscript check reads: a path on disk (its .aux beside it is read too), or bytes the pane sent. */
export type ManuscriptSource =
  | { kind: 'path'; path: string }
  | { kind: 'bytes'; name: string; bytes: Uint8Array; aux?: { name: string; bytes: Uint8Array } | undefined };

/** The formats worker's request for a manuscript parse (its workerData). */
export interface ManuscriptRequest {
  op: 'manuscript';
  source: ManuscriptSource;
}

/** What the formats worker answers a manuscript request with. */
export type ManuscriptMessage = { type: 'parsed'; parsed: ParsedManuscript } | { type: 'failed'; error: WireError };

/** Parses a manuscript in the formats worker: the same answer and errors (code, file, line) as readManuscript / parseManuscript. */
export function parseManuscriptInWorker(
  source: ManuscriptSource,
  options: { workerUrl?: URL } = {},
): Promise<ParsedManuscript> {
  const entry = options.workerUrl ? { script: options.workerUrl } : locateWorker('formats-worker');
  const request: ManuscriptRequest = { op: 'manuscript', source };
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry.script, {
      workerData: request,
      eval: entry.eval ?? false,
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
    });
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.on('message', (message: ManuscriptMessage) => {
      if (message.type === 'parsed') settle(() => resolve(message.parsed));
      else settle(() => reject(fromWire(message.error)));
    });
    worker.on('error', (err) => settle(() => reject(err)));
    worker.on('exit', (code) =>
      settle(() =>
        reject(new CoreError('INTERNAL', `The manuscript reader stopped unexpectedly (exit code ${code}).`)),
      ),
    );
  });
}
