import { randomUUID } from 'node:crypto';
import type { JobInfo } from '../../../shared/ipc';
import { systemClock, type Clock } from '../clock';
import { CoreError } from '../errors';

export interface JobControl {
  readonly id: string;
  readonly signal: AbortSignal;
  /** Reports progress; cheap to call often, since change events are throttled. */
  progress(done: number, total?: number | null, message?: string): void;
}

interface Entry {
  info: JobInfo;
  controller: AbortController;
}

export interface JobRegistryOptions {
  onChange(jobs: JobInfo[]): void;
  clock?: Clock;
  /** Minimum time between two change events while jobs only report progress. */
  throttleMs?: number;
  /** How many finished jobs stay listed, so the status bar can say what just happened. */
  keepFinished?: number;
}

/** Background jobs with progress and cancellation; the status bar lists them through `jobs.changed`. */
export class JobRegistry {
  readonly #jobs = new Map<string, Entry>();
  readonly #onChange: (jobs: JobInfo[]) => void;
  readonly #clock: Clock;
  readonly #throttleMs: number;
  readonly #keepFinished: number;
  #pending: unknown = null;
  #lastEmit = 0;

  constructor(options: JobRegistryOptions) {
    this.#onChange = options.onChange;
    this.#clock = options.clock ?? systemClock;
    this.#throttleMs = options.throttleMs ?? 100;
    this.#keepFinished = options.keepFinished ?? 10;
  }

  list(): JobInfo[] {
    return [...this.#jobs.values()].map((e) => ({ ...e.info }));
  }

  /** Starts a job; the promise settles with the job's result, or rejects when it fails or is cancelled. */
  start<T>(kind: string, label: string, run: (job: JobControl) => Promise<T>): { id: string; done: Promise<T> } {
    const id = randomUUID();
    const controller = new AbortController();
    const info: JobInfo = {
      id,
      kind,
      label,
      state: 'running',
      done: 0,
      total: null,
      startedAt: new Date(this.#clock.now()).toISOString(),
      finishedAt: null,
      message: '',
    };
    this.#jobs.set(id, { info, controller });
    this.#changed(true);
    const control: JobControl = {
      id,
      signal: controller.signal,
      progress: (done, total, message) => {
        if (info.state !== 'running') return;
        info.done = done;
        if (total !== undefined) info.total = total;
        if (message !== undefined) info.message = message;
        this.#changed(false);
      },
    };
    const done = (async () => {
      try {
        const value = await run(control);
        if (controller.signal.aborted) throw new CoreError('CANCELLED', `${label}: cancelled`);
        this.#finish(info, 'done', '');
        return value;
      } catch (err) {
        const cancelled = controller.signal.aborted;
        this.#finish(info, cancelled ? 'cancelled' : 'failed', cancelled ? 'Cancelled' : errorText(err));
        throw err;
      }
    })();
    // The caller may not await; the failure is already recorded in the job list.
    done.catch(() => {});
    return { id, done };
  }

  cancel(id: string): JobInfo {
    const entry = this.#jobs.get(id);
    if (!entry) throw new CoreError('NOT_FOUND', `There is no background job with id ${id}.`);
    if (entry.info.state === 'running') entry.controller.abort();
    return { ...entry.info };
  }

  /** Cancels every running job (used when the core closes). */
  cancelAll(): void {
    for (const entry of this.#jobs.values()) if (entry.info.state === 'running') entry.controller.abort();
    if (this.#pending !== null) this.#clock.clearTimeout(this.#pending);
    this.#pending = null;
  }

  #finish(info: JobInfo, state: JobInfo['state'], message: string): void {
    info.state = state;
    info.message = message;
    info.finishedAt = new Date(this.#clock.now()).toISOString();
    const finished = [...this.#jobs.values()].filter((e) => e.info.state !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - this.#keepFinished)))
      this.#jobs.delete(old.info.id);
    this.#changed(true);
  }

  #changed(immediate: boolean): void {
    const now = this.#clock.now();
    if (immediate || now - this.#lastEmit >= this.#throttleMs) {
      if (this.#pending !== null) this.#clock.clearTimeout(this.#pending);
      this.#pending = null;
      this.#lastEmit = now;
      this.#onChange(this.list());
      return;
    }
    if (this.#pending !== null) return;
    this.#pending = this.#clock.setTimeout(
      () => {
        this.#pending = null;
        this.#lastEmit = this.#clock.now();
        this.#onChange(this.list());
      },
      this.#throttleMs - (now - this.#lastEmit),
    );
  }
}

function errorText(err: unknown): string {
  if (err instanceof CoreError) return err.message;
  return 'Failed; details are in the log.';
}
