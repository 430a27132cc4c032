// Ranking a broad search on two threads. bm25 costs about 0.75 µs per matching item (reading its
// positions and its length), so a word that matches 10,000 of 100,000 items costs ~8 ms to rank on
// one thread. The library worker ranks the items up to the middle id itself while a helper thread,
// with its own read-only connection, ranks the rest; the two top lists are merged. list() stays
// synchronous: the worker waits for the helper's answer on a shared flag (Atomics.wait) and reads it
// with receiveMessageOnPort.
//
// On a busy machine the helper may not get a core in time. It claims each request on a shared slot
// before starting it; if the worker finishes its own half first and finds the other unclaimed, it
// takes that one back and ranks it itself, so two threads are never slower than one by more than
// the cost of a message.
//
// Both halves see the same data: every write goes through the library worker, which is busy in this
// very call while the helper ranks, and WAL readers see each committed state whole. Should the helper
// be missing, failed, or late, the worker ranks the other half itself — the answer is the same.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { WorkerEntry } from '../worker-entry';
import type { SqlValue } from './sql';

/** One half to rank: a SELECT giving (id, score) rows, and its parameters. */
export interface RankRequest {
  id: number;
  text: string;
  params: SqlValue[];
}

export type RankReply = { id: number; rows: [number, number][] } | { id: number; error: string };

/** Starting data of the helper thread (rank-worker.ts). */
export interface RankWorkerInit {
  file: string;
  nativeBinding?: string | undefined;
  port: MessagePort;
  /**
   * Two Int32s: [0] a counter the helper raises (and notifies) after posting each reply; [1] the id of
   * the request on offer, which the helper or the worker sets to 0 to claim it.
   */
  flag: SharedArrayBuffer;
}

/**
 * The statements the helper may run: reads of the search index and the items table, shaped as the
 * Library builds them. The helper's connection is read-only as well; this keeps it to the one job.
 */
export function isRankQuery(text: string): boolean {
  return /^SELECT (?:rowid|i\.id) AS id, \S.* AS score FROM items_fts (?:WHERE|f JOIN items i ON i\.id = f\.rowid\s)/s.test(text) && !/;/.test(text.replace(/'[^']*'/g, ''));
}

export interface SplitRanker {
  /**
   * Whether the helper is running and has opened its connection. The first call starts it: a process
   * that never searches broadly (an import from the command line) never pays for the thread.
   */
  readonly ready: boolean;
  /** Halves handed to the helper so far. */
  readonly sent: number;
  /** Halves the helper ranked (the rest were taken back or failed). */
  readonly helped: number;
  /** Sends one half to the helper; returns a ticket for collect(). */
  send(text: string, params: SqlValue[]): number | null;
  /**
   * The helper's rows for a ticket, waiting up to timeoutMs; null if it failed or was late, or had not
   * started yet (the request is then withdrawn, and the caller ranks that half itself).
   */
  collect(ticket: number, timeoutMs?: number): [number, number][] | null;
  close(): Promise<void>;
}

export interface SplitRankerOptions {
  nativeBinding?: string | undefined;
  onError?: ((err: Error) => void) | undefined;
  /** Take back a half the helper has not started (default: yes; tests turn it off to make the helper work). */
  takeBack?: boolean;
}

/**
 * The helper thread, started on the first use of `ready`; it opens its connection in the background
 * and `ready` says when it has (until then, searches run on one thread).
 */
export function startSplitRanker(entry: WorkerEntry, file: string, options: SplitRankerOptions = {}): SplitRanker {
  const { nativeBinding, onError, takeBack = true } = options;
  const { port1, port2 } = new MessageChannel();
  const flagBuffer = new SharedArrayBuffer(8);
  const flag = new Int32Array(flagBuffer);
  // The helper never keeps the process alive on its own.
  port1.unref();
  let worker: Worker | null = null;
  let ready = false;
  let broken = false;
  let next = 1;
  let helped = 0;

  const start = (): void => {
    const init: RankWorkerInit = { file, nativeBinding, port: port2, flag: flagBuffer };
    const w = new Worker(entry.script, { workerData: init, transferList: [port2], ...(entry.eval ? { eval: true } : {}) });
    worker = w;
    w.unref();
    w.on('message', (msg: { type: string; error?: string }) => {
      if (msg.type === 'ready') ready = true;
      else if (msg.type === 'failed') {
        broken = true;
        onError?.(new Error(`The search helper could not open the library: ${msg.error ?? 'unknown error'}`));
      }
    });
    w.on('error', (err) => {
      broken = true;
      onError?.(err);
    });
    w.on('exit', () => {
      broken = true;
      ready = false;
    });
  };

  return {
    get ready() {
      if (!worker && !broken) start();
      return ready && !broken;
    },
    get sent() {
      return next - 1;
    },
    get helped() {
      return helped;
    },
    send(text, params) {
      if (!ready || broken) return null;
      const id = next++;
      Atomics.store(flag, 1, id);
      port1.postMessage({ id, text, params } satisfies RankRequest);
      return id;
    },
    collect(ticket, timeoutMs = 2_000) {
      // Not started by the helper: withdrawn.
      if (takeBack && Atomics.compareExchange(flag, 1, ticket, 0) === ticket) return null;
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        // Read the counter before looking at the port: a reply posted after the look raises it, and
        // the wait below then returns at once.
        const seen = Atomics.load(flag, 0);
        // Late replies to earlier requests are skipped.
        for (let m = receiveMessageOnPort(port1); m; m = receiveMessageOnPort(port1)) {
          const reply = m.message as RankReply;
          if (reply.id !== ticket) continue;
          if ('error' in reply) {
            onError?.(new Error(`The search helper failed: ${reply.error}`));
            return null;
          }
          helped++;
          return reply.rows;
        }
        const left = deadline - performance.now();
        if (broken || left <= 0) return null;
        Atomics.wait(flag, 0, seen, left);
      }
    },
    async close() {
      broken = true;
      port1.close();
      await (worker as Worker | null)?.terminate();
    },
  };
}
