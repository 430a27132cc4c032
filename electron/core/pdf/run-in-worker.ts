// Reading PDFs in a worker thread, one file at a time, each with a time limit that really ends the
// work: a file that runs over it gets its worker terminated (the one sure way to stop pdf.js and give
// its memory back), and the next file starts a fresh worker.
import { Worker } from 'node:worker_threads';
import { CoreError } from '../errors';
import { locateWorker, type WorkerEntry } from '../worker-entry';
import { WorkerRpc, WorkerStopped } from '../worker-rpc';
import type { ExpansionCaps } from './expansion-cap';
import type { ExtractFailure, PdfFacts } from './extract';

export interface PdfWorkerRequest {
  id: number;
  bytes: Uint8Array;
  maxPages: number;
  /** See ExtractOptions.wholeOrNone. */
  wholeOrNone?: boolean;
  /** Send `bytes` back with the facts (moved, not copied); pdf.js then reads a copy made in the worker. */
  returnBytes?: boolean;
}

/** What a read's reply carries (worker-rpc.ts Reply): a file that cannot be read is an answer, not an error. */
export type PdfWorkerReply = { ok: true; facts: PdfFacts; bytes?: Uint8Array } | { ok: false; failure: ExtractFailure };

export interface PdfWorkerReady {
  ready: true;
}

/** How long a worker may take to start and load pdf.js (a slow disk, a busy machine) before it is given up. */
const START_LIMIT_MS = 120_000;

export type ReadOutcome =
  | { ok: true; facts: PdfFacts; bytes?: Uint8Array }
  | { ok: false; failure: ExtractFailure | { code: 'timeout'; message: string } };

export interface ReadOptions {
  wholeOrNone?: boolean;
  cancelMessage?: string;
  /**
   * Move `bytes` to the worker instead of copying them: copying a large PDF on this thread (the one
   * that answers the UI) stalls it for as long as the copy takes. The caller's view is unusable
   * afterwards (a small Buffer sharing Node's pool is copied, since moving it would take the pool).
   */
  move?: boolean;
  /** With `move`: a successful read gives the bytes back (`bytes`), moved again. */
  returnBytes?: boolean;
}

/** Whether `bytes` is the whole of its buffer, so moving the buffer moves nothing else. */
const ownsBuffer = (bytes: Uint8Array): boolean =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;

export interface PdfReaderOptions {
  /** Per file; the worker is terminated when a file takes longer. */
  timeLimitMs: number;
  /** The worker script; found by locateWorker when omitted. */
  entry?: WorkerEntry;
  /** What a file may expand to when read (expansion-cap.ts); DEFAULT_EXPANSION_CAPS when omitted. */
  expansion?: ExpansionCaps;
}

export class PdfReader {
  readonly #options: PdfReaderOptions;
  #worker: Worker | null = null;
  #ready: Promise<WorkerRpc<PdfWorkerRequest>> | null = null;

  constructor(options: PdfReaderOptions) {
    this.#options = options;
  }

  #start(): Promise<WorkerRpc<PdfWorkerRequest>> {
    const entry = this.#options.entry ?? locateWorker('pdf-worker');
    const worker = new Worker(entry.script, {
      eval: entry.eval ?? false,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      ...(this.#options.expansion ? { workerData: { expansion: this.#options.expansion } } : {}),
    });
    worker.unref();
    this.#worker = worker;
    const ready = new Promise<WorkerRpc<PdfWorkerRequest>>((resolve, reject) => {
      const done = (then: () => void): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        then();
      };
      const onMessage = (m: PdfWorkerReady): void => {
        if (m.ready) done(() => resolve(new WorkerRpc<PdfWorkerRequest>(worker, { what: 'PDF worker' })));
      };
      const onError = (err: Error): void =>
        done(() => reject(new CoreError('INTERNAL', `The PDF reader could not start: ${err.message}`)));
      const onExit = (code: number): void =>
        done(() => reject(new CoreError('INTERNAL', `The PDF reader stopped while starting (exit code ${code}).`)));
      const timer = setTimeout(() => {
        this.#discard(worker);
        done(() => reject(new CoreError('TIMEOUT', `The PDF reader did not start within ${START_LIMIT_MS / 1000} s.`)));
      }, START_LIMIT_MS);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    this.#ready = ready;
    ready.catch(() => {
      if (this.#ready === ready) this.#ready = null;
    });
    return ready;
  }

  /** Reads one PDF; `bytes` is copied to the worker (the caller keeps its own) unless `options.move`. */
  async read(
    bytes: Uint8Array,
    maxPages: number,
    signal?: AbortSignal,
    options: ReadOptions = {},
  ): Promise<ReadOutcome> {
    let rpc = await (this.#ready ?? this.#start());
    // A worker that stopped between two files is replaced.
    if (rpc.stopped) {
      this.#discard(rpc.worker);
      rpc = await this.#start();
    }
    return new Promise<ReadOutcome>((resolve, reject) => {
      let settled = false;
      const finish = (kill: boolean, then: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (kill) this.#discard(rpc.worker);
        then();
      };
      // A worker that fails (pdf.js out of memory, a crash) failed on this file: it cannot be read.
      const onStopped = (err: unknown): void => {
        const failure = err instanceof WorkerStopped ? err.failure : null;
        if (!failure) return finish(true, () => reject(err instanceof Error ? err : new Error(String(err))));
        const oom = (failure as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish(true, () =>
          resolve({
            ok: false,
            failure: {
              code: 'corrupt',
              message: oom
                ? 'reading it needs more memory than a PDF may use'
                : `it cannot be read (${failure.message})`,
            },
          }),
        );
      };
      const onAbort = (): void =>
        finish(true, () =>
          reject(new CoreError('CANCELLED', options.cancelMessage ?? 'The PDF capture was cancelled.')),
        );
      const limit = this.#options.timeLimitMs;
      const timer = setTimeout(
        () =>
          finish(true, () =>
            resolve({
              ok: false,
              failure: { code: 'timeout', message: `reading it took longer than ${limit / 1000} s and was stopped` },
            }),
          ),
        limit,
      );
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      // After a time-out or an abort the worker is terminated, and this call's rejection is ignored.
      const moved = options.move === true && ownsBuffer(bytes);
      const request: PdfWorkerRequest = {
        id: 0,
        bytes,
        maxPages,
        ...(options.wholeOrNone ? { wholeOrNone: true } : {}),
        ...(options.move && options.returnBytes ? { returnBytes: true } : {}),
      };
      rpc.call<PdfWorkerReply>(request, moved ? [bytes.buffer as ArrayBuffer] : []).then(
        (reply) =>
          // A file that met an expansion cap leaves buffers behind: a fresh worker gives their memory back.
          finish(!reply.ok && reply.failure.code === 'too-large', () =>
            resolve(
              reply.ok
                ? { ok: true, facts: reply.facts, ...(reply.bytes ? { bytes: reply.bytes } : {}) }
                : { ok: false, failure: reply.failure },
            ),
          ),
        onStopped,
      );
    });
  }

  #discard(worker: Worker): void {
    if (this.#worker === worker) {
      this.#worker = null;
      this.#ready = null;
    }
    void worker.terminate();
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#ready = null;
    if (worker) await worker.terminate();
  }
}
