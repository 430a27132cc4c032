// The one request/response scheme of the core's worker threads (library, citations, PDF reader): a
// call posts its request with a fresh id, the worker answers with a Reply naming that id, and an
// error crosses the thread as WireError and comes back as the same class (CoreError with its code,
// else an Error with its name) and message. When a worker fails or exits, every call it left
// pending is rejected with a WorkerStopped that names the worker; later calls on it are too.
// Streams (an import's port) are not calls and do not go through here.
import type { TransferListItem, Worker } from 'node:worker_threads';
import { CoreError } from './errors';

/** An error as it crosses the thread boundary. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
  details?: unknown;
}

/** A worker's answer to the call with this id. */
export type Reply =
  { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; error: WireError };

export const replied = (id: number, value: unknown): Reply => ({ type: 'reply', id, ok: true, value });
export const refused = (id: number, error: WireError): Reply => ({ type: 'reply', id, ok: false, error });

/** An error in its wire form; anything that is not an Error becomes one with its text. */
export function toWire(err: unknown): WireError {
  if (err instanceof CoreError)
    return err.details === undefined
      ? { name: err.name, message: err.message, code: err.code }
      : { name: err.name, message: err.message, code: err.code, details: err.details };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

/** The error a WireError stands for: a CoreError when it has a code, else an Error with its name. */
export function fromWire(e: WireError): Error {
  if (e.code) return new CoreError(e.code as CoreError['code'], e.message, e.details);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

/** A worker stopped before answering: it failed (`failure`, the thread's own error) or exited (`exitCode`). */
export class WorkerStopped extends CoreError {
  readonly failure: Error | null;
  readonly exitCode: number | null;

  constructor(what: string, how: { error: unknown } | { exitCode: number }) {
    const failure = 'error' in how ? thrownAsError(how.error) : null;
    const exitCode = 'exitCode' in how ? how.exitCode : null;
    super(
      'INTERNAL',
      failure ? `The ${what} failed: ${failure.message}` : `The ${what} stopped (exit code ${exitCode}).`,
    );
    this.failure = failure;
    this.exitCode = exitCode;
  }
}

/**
 * What a thread threw, as an Error with a message. A worker's 'error' event carries the thrown value
 * itself: code that throws `undefined`, a string or a plain object (a dependency's rejection) would
 * otherwise be reported as "failed: undefined".
 */
function thrownAsError(thrown: unknown): Error {
  if (thrown instanceof Error && thrown.message) return thrown;
  const described = describeThrown(thrown);
  const err = new Error(`it threw ${described}`);
  if (thrown instanceof Error) err.name = thrown.name;
  return err;
}

function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return `${thrown.name} without a message`;
  if (thrown === undefined || thrown === null) return `${String(thrown)}, not an error`;
  if (typeof thrown === 'string') return thrown ? JSON.stringify(thrown.slice(0, 200)) : 'an empty string';
  if (typeof thrown !== 'object') return `${typeof thrown} ${String(thrown)}`;
  const o = thrown as Record<string, unknown>;
  const parts = ['name', 'code', 'message']
    .filter((k) => typeof o[k] === 'string' || typeof o[k] === 'number')
    .map((k) => `${k} ${JSON.stringify(o[k])}`);
  return parts.length > 0
    ? `an object with ${parts.join(', ')}`
    : `an object with keys ${Object.keys(o).slice(0, 8).join(', ') || '(none)'}`;
}

export interface WorkerRpcOptions {
  /** The worker's name in errors: "library worker", "citation worker". */
  what: string;
  /** Messages that are not replies (a scheduled backup's news, a notice). */
  onMessage?: (message: unknown) => void;
  /** Told once when the worker fails or exits, after its pending calls were rejected. */
  onStop?: (err: WorkerStopped) => void;
  /** Keep the process alive only while calls are out: an idle worker must not. */
  refWhileBusy?: boolean;
}

function isReply(message: unknown): message is Reply {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'reply';
}

/** The calling side of one worker: request ids, the calls waiting for their reply, and the worker's end. */
export class WorkerRpc<Req extends { id: number }> {
  readonly worker: Worker;
  readonly #options: WorkerRpcOptions;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #next = 1;
  #stopped: WorkerStopped | null = null;

  constructor(worker: Worker, options: WorkerRpcOptions) {
    this.worker = worker;
    this.#options = options;
    if (options.refWhileBusy) worker.unref();
    worker.on('message', (message: unknown) => {
      if (!isReply(message)) return options.onMessage?.(message);
      const p = this.#pending.get(message.id);
      if (!p) return;
      this.#pending.delete(message.id);
      if (options.refWhileBusy && this.#pending.size === 0) worker.unref();
      if (message.ok) p.resolve(message.value);
      else p.reject(fromWire(message.error));
    });
    worker.on('error', (error) => this.#stop(new WorkerStopped(options.what, { error })));
    worker.on('exit', (exitCode) => this.#stop(new WorkerStopped(options.what, { exitCode })));
  }

  /** Calls waiting for their reply. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Set once the worker failed or exited. */
  get stopped(): WorkerStopped | null {
    return this.#stopped;
  }

  /** Posts `request` under a fresh id (its own `id` is replaced); settles with the worker's reply. */
  call<T>(request: Req, transfer: readonly TransferListItem[] = []): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      if (this.#options.refWhileBusy) this.worker.ref();
      try {
        this.worker.postMessage({ ...request, id }, transfer);
      } catch (err) {
        // Nothing clonable: the call never left this thread.
        this.#pending.delete(id);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /** Rejects every call still waiting with `err` (the owner closing, or giving the worker up). */
  failAll(err: Error): void {
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of waiting) p.reject(err);
  }

  #stop(err: WorkerStopped): void {
    if (this.#stopped) return;
    this.#stopped = err;
    this.failAll(err);
    this.#options.onStop?.(err);
  }
}
