// Two worker threads (by default) for big formatting jobs, so formatting thousands of references never
// stalls the process that answers the UI. A style/locale always goes to the same worker, where its
// engine and entry cache stay warm; different styles run side by side on both cores.
import { Worker } from 'node:worker_threads';
import { CoreError } from '../../errors';
import { locateWorker, type WorkerEntry } from '../../worker-entry';
import type { ErrorCode } from '../../../../shared/ipc';
import type { Job, JobResult } from './protocol';

export type { WorkerEntry } from '../../worker-entry';

interface Slot {
  worker: Worker | undefined;
  pending: Map<number, { resolve: (r: JobResult) => void; reject: (e: Error) => void }>;
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
const PROFILER_VALUE_FLAGS = new Set(['--cpu-prof-dir', '--cpu-prof-interval', '--heap-prof-dir', '--heap-prof-interval']);

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
  #next = 1;
  #closed = false;

  /** `entry`: the worker script; found by locateWorker('cite-worker') when the first worker starts. */
  constructor(size = 2, entry: WorkerEntry | (() => WorkerEntry) = () => locateWorker('cite-worker')) {
    this.#entry = entry;
    this.#slots = Array.from({ length: Math.max(1, size) }, () => ({ worker: undefined, pending: new Map(), styles: new Set(), locales: new Set() }));
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
    let worker: Worker;
    let job: PoolJob;
    try {
      worker = this.#spawn(s);
      job = build({ styles: s.styles, locales: s.locales });
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const id = this.#next++;
    return new Promise<JobResult>((resolve, reject) => {
      s.pending.set(id, { resolve, reject });
      // Keep the process alive while a job is out; an idle worker must not.
      worker.ref();
      worker.postMessage({ ...job, id });
    }).then((result) => {
      if (!result.ok) throw new CoreError((result.error.code as ErrorCode | undefined) ?? 'INTERNAL', result.error.message);
      return result;
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      this.#slots.map(async (s) => {
        const w = s.worker;
        s.worker = undefined;
        for (const p of s.pending.values()) p.reject(new CoreError('CANCELLED', 'The citation formatter was closed.'));
        s.pending.clear();
        if (w) await w.terminate();
      }),
    );
  }

  #spawn(s: Slot): Worker {
    if (s.worker) return s.worker;
    const entry = typeof this.#entry === 'function' ? this.#entry() : this.#entry;
    // Of the parent's execArgv (a test runner's loader flags) only the profiler's reach the worker.
    const worker = new Worker(entry.script, { eval: entry.eval ?? false, execArgv: profilerFlags(process.execArgv) });
    worker.unref();
    s.styles.clear();
    s.locales.clear();
    worker.on('message', (result: JobResult) => {
      const p = s.pending.get(result.id);
      if (!p) return;
      s.pending.delete(result.id);
      if (s.pending.size === 0) worker.unref();
      p.resolve(result);
    });
    const fail = (err: Error): void => {
      if (s.worker === worker) s.worker = undefined;
      for (const p of s.pending.values()) p.reject(err);
      s.pending.clear();
    };
    worker.on('error', (err) => fail(err));
    worker.on('exit', (code) => fail(new CoreError('INTERNAL', `The citation worker stopped (exit code ${code}).`)));
    s.worker = worker;
    return worker;
  }
}
