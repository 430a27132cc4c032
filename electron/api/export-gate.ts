// Exports through the editor API wait their turn here. They all run in the one library worker, which
// also answers every search of the app and of editors: 300 clients pulling the whole library at once
// queued 300 exports there, and searches waited behind them for minutes after the clients had gone.
// So one export runs at a time, a few wait, and the rest are refused at once (503, "busy"); an export
// whose client has gone is dropped while it waits, and never reaches the worker.
import PQueue from 'p-queue';
import { RpcError } from './json-rpc';

/** JSON-RPC's range for implementation-defined server errors: -32000 "busy, try again". */
export const SERVER_BUSY = -32000;

/** Too many exports are waiting: the client may try again later (HTTP 503, JSON-RPC -32000). */
export class BusyError extends RpcError {
  constructor(waiting: number) {
    super(
      SERVER_BUSY,
      `Citewise is busy with ${waiting} other exports; try again in a moment (one export runs at a time).`,
    );
    this.name = 'BusyError';
  }
}

/** Thrown when the client that asked has gone: there is no one to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client closed the connection before its export ran.');
    this.name = 'ClientGoneError';
  }
}

export class ExportGate {
  readonly #queue = new PQueue({ concurrency: 1 });

  /** `maxWaiting`: exports that may wait behind the running one before more are refused. */
  constructor(readonly maxWaiting = 4) {}

  /** Exports waiting now (not the one running). */
  get waiting(): number {
    return this.#queue.size;
  }

  /** Runs `task` when no other export runs; BusyError when too many wait, ClientGoneError when `signal` aborts first. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(new ClientGoneError());
    if (this.#queue.pending > 0 && this.#queue.size >= this.maxWaiting)
      return Promise.reject(new BusyError(this.#queue.size + this.#queue.pending));
    return this.#queue
      .add(() => task(), signal ? { signal } : {})
      .catch((err: unknown) => {
        if (signal?.aborted) throw new ClientGoneError();
        throw err;
      });
  }
}
