// Two worker threads (by default) for big formatting jobs, so formatting thousands of references never
// stalls the process that answers the UI. A style/locale always goes to the same worker, where its
// engine and entry cache stay warm; different styles run side by side on both cores.
import { Worker } from 'node:worker_threads';
import { CoreError } from '../../errors';
import { locateWorker, type WorkerEntry } from '../../worker-entry';
import { WorkerRpc } from '../../worker-rpc';
import type { Job, JobResult } from './protocol';

export type { WorkerEntry } from '../../worker-entry';

interface Slot {
  /** The slot's worker and its calls (worker-rpc.ts); none until the first job, or after it stopped. */
  rpc: WorkerRpc<Job> | undefined;
  /** Style versions and locale tags this worker already holds. */
  styles: Set<string>;
  locales: Set<string>;
}

export interface Holds {
  styles: Set<string>;
  locales: Set<string>;
}

export type PoolJob = Job extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;

/** Node's flags that take their value as the next argument when not written `--flag=value`. */
const PROFILER_VALUE_FLAGS = new Set([
  '--cpu-prof-dir',
  '--cpu-prof-interval',
  '--heap-prof-dir',
  '--heap-prof-interval',
]);

/**
 * The CPU and heap profiler flags among a process's execArgv (`node --cpu-prof --cpu-prof-dir=D …`),
 * for its citation workers: without them `--cpu-prof` profiled every thread but the one that renders
 * (docs/cite-cold.md). `--cpu-prof-name`/`--heap-prof-name` stay behind: two workers would write one file.
 */
export function profilerFlags(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const name = arg.split('=', 1)[0]!;
    if (name !== '--cpu-prof' && name !== '--heap-prof' && !PROFILER_VALUE_FLAGS.has(name)) continue;
    out.push(arg);
    if (PROFILER_VALUE_FLAGS.has(arg) && i + 1 < execArgv.length) out.push(execArgv[++i]!);
  }
  return out;
}

export class WorkerPool {
  readonly #entry: (() => WorkerEntry) | WorkerEntry;
  readonly #slots: Slot[];
  #closed = false;

  /** `entry`: the worker script; found by locateWorker('cite-worker') when the first worker starts. */
  constructor(size = 2, entry: WorkerEntry | (() => WorkerEntry) = () => locateWorker('cite-worker')) {
    this.#entry = entry;
    this.#slots = Array.from({ length: Math.max(1, size) }, () => ({
      rpc: undefined,
      styles: new Set(),
      locales: new Set(),
    }));
  }

  get size(): number {
    return this.#slots.length;
  }

  /** The slot for a routing key: stable, so the same style and locale meet their warm engine. */
  slotFor(key: string): number {
    let h = 2166136261;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
    return (h >>> 0) % this.#slots.length;
  }

  /**
   * Runs a job on a slot's worker. `build` gets what that worker already holds (style versions, locale
   * tags), so the job can leave out XML it has; it adds what it sends.
   */
  run(slot: number, build: (holds: Holds) => PoolJob): Promise<JobResult> {
    if (this.#closed) return Promise.reject(new CoreError('CANCELLED', 'The citation formatter is closed.'));
    const s = this.#slots[slot]!;
    let rpc: WorkerRpc<Job>;
    let job: PoolJob;
    try {
      rpc = this.#spawn(s);
      job = build({ styles: s.styles, locales: s.locales });
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return rpc.call<JobResult>({ ...job, id: 0 } as Job);
  }

  /** Starts a slot's worker ahead of its first job (it loads its script meanwhile); a no-op when it runs. */
  start(slot: number): void {
    if (!this.#closed) this.#spawn(this.#slots[slot]!);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      this.#slots.map(async (s) => {
        const rpc = s.rpc;
        s.rpc = undefined;
        rpc?.failAll(new CoreError('CANCELLED', 'The citation formatter was closed.'));
        if (rpc) await rpc.worker.terminate();
      }),
    );
  }

  #spawn(s: Slot): WorkerRpc<Job> {
    if (s.rpc) return s.rpc;
    const entry = typeof this.#entry === 'function' ? this.#entry() : this.#entry;
    // Of the parent's execArgv (a test runner's loader flags) only the profiler's reach the worker.
    const worker = new Worker(entry.script, { eval: entry.eval ?? false, execArgv: profilerFlags(process.execArgv) });
    s.styles.clear();
    s.locales.clear();
    // An idle worker must not keep the process alive; one with a job out must. A worker that stopped
    // is replaced by the next job.
    const rpc = new WorkerRpc<Job>(worker, {
      what: 'citation worker',
      refWhileBusy: true,
      onStop: () => {
        if (s.rpc === rpc) s.rpc = undefined;
      },
    });
    s.rpc = rpc;
    return rpc;
  }
}
