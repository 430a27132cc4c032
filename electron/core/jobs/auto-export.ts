// The AutoExporter decides when auto-export files are brought up to date: after library changes
// (debounced, so a burst of edits writes each file once), when a definition is added or changed, and
// on demand. Each run is a JobRegistry job (the status bar shows it, a failure says why), executed in
// the library worker, where the entry cache and the items are (see library/auto-export-store.ts).
// Runs go one at a time: they share the worker, and two runs of one file must not race.
import { basename } from 'node:path';
import { CoreError } from '../errors';
import type { AsyncStore } from '../library/client';
import type { AutoExport, AutoExportInput, AutoExportPatch, AutoExportRun } from '../library/auto-export-store';
import type { ItemId } from '../library/types';
import type { AutoExportStatusEvent } from '../../../shared/ipc/auto-export';
import { systemClock, type Clock } from '../clock';
import type { JobRegistry } from './registry';
import { Listeners } from '../../../shared/ipc/listeners';

export type { AutoExport, AutoExportInput, AutoExportPatch, AutoExportRun } from '../library/auto-export-store';

/** The auto-export store, through the library worker (LibraryClient's `autoExports`). */
export type AutoExportLibrary = AsyncStore<'autoExports'>;

/** Sent after every run, successful or not (the IPC event autoExport.status carries it as is). */
export type { AutoExportStatusEvent } from '../../../shared/ipc/auto-export';

export interface AutoExporterOptions {
  library: { autoExports: AutoExportLibrary };
  jobs: JobRegistry;
  /** Quiet time after the last change before files are written. Default 1000 ms. */
  debounceMs?: number;
  /** Longest a change waits while changes keep coming (an import, an enrichment run). Default 10 s. */
  maxWaitMs?: number;
  clock?: Clock;
  onStatus?: (status: AutoExportStatusEvent) => void;
  /** Write the file as soon as a definition is added or changed. Default true. */
  runOnChange?: boolean;
  /** Told when a status listener throws (the queue goes on). */
  report?: (err: unknown) => void;
}

export class AutoExporter {
  readonly #store: AutoExportLibrary;
  readonly #jobs: JobRegistry;
  readonly #clock: Clock;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #runOnChange: boolean;
  readonly #listeners: Listeners<AutoExportStatusEvent>;
  /** Runs waiting for their turn, by definition: a second request for one joins the first. */
  readonly #queued = new Map<number, { force: boolean; promise: Promise<AutoExportRun> }>();
  #chain: Promise<unknown> = Promise.resolve();
  /** Flushes still asking the library which files a change affects (not yet queued). */
  readonly #flushing = new Set<Promise<void>>();
  /** Items changed since the last flush; null: something changed that has no item ids (collections). */
  #changed: Set<ItemId> | null = new Set();
  #dirty = false;
  #firstChangeAt = 0;
  #timer: unknown = null;
  #closed = false;

  constructor(options: AutoExporterOptions) {
    this.#store = options.library.autoExports;
    this.#jobs = options.jobs;
    this.#clock = options.clock ?? systemClock;
    this.#debounceMs = options.debounceMs ?? 1000;
    this.#maxWaitMs = options.maxWaitMs ?? 10_000;
    this.#runOnChange = options.runOnChange ?? true;
    this.#listeners = new Listeners(options.report ?? (() => {}));
    if (options.onStatus) this.#listeners.add(options.onStatus);
  }

  /** Listens to run results; returns the disposer. */
  onStatus(listener: (status: AutoExportStatusEvent) => void): () => void {
    return this.#listeners.add(listener);
  }

  list(): Promise<AutoExport[]> {
    return this.#store.list();
  }

  get(id: number): Promise<AutoExport> {
    return this.#store.get(id);
  }

  /** Adds a definition and (unless runOnChange is false) queues its first write; the result arrives through onStatus. */
  async add(input: AutoExportInput): Promise<AutoExport> {
    const def = await this.#store.add(input);
    if (this.#runOnChange) this.#background(def.id, false);
    return def;
  }

  /** Changes a definition and queues a run, which re-renders what the change requires. */
  async update(id: number, patch: AutoExportPatch): Promise<AutoExport> {
    const def = await this.#store.update(id, patch);
    if (this.#runOnChange) this.#background(id, false);
    return def;
  }

  /** Forgets a definition; the file it wrote stays where it is. */
  async remove(id: number): Promise<void> {
    await this.#store.remove(id);
  }

  /**
   * Runs one definition now (after any run already going). `force` rewrites the file even when its
   * bytes would not change. Resolves with the run's report, status "error" included; rejects only
   * when the definition does not exist or the run could not happen at all.
   */
  runNow(id: number, options: { force?: boolean } = {}): Promise<AutoExportRun> {
    return this.#enqueue(id, options.force ?? false);
  }

  /**
   * Tells the exporter the library changed: these items (edited, added, trashed, deleted, moved between
   * collections), or, without ids, anything (collections created, moved or deleted; an undo; an import).
   * Files are brought up to date once changes stop for `debounceMs`.
   */
  libraryChanged(itemIds?: readonly ItemId[]): void {
    if (this.#closed) return;
    if (itemIds === undefined) this.#changed = null;
    else if (this.#changed !== null) for (const id of itemIds) this.#changed.add(id);
    const now = this.#clock.now();
    if (!this.#dirty) this.#firstChangeAt = now;
    this.#dirty = true;
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    const wait = Math.max(0, Math.min(this.#debounceMs, this.#firstChangeAt + this.#maxWaitMs - now));
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, wait);
  }

  /** Runs what the pending changes affect now, without waiting for the debounce; resolves when they ran. */
  flush(): Promise<void> {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
    if (!this.#dirty) return Promise.resolve();
    const done = this.#flush().finally(() => this.#flushing.delete(done));
    this.#flushing.add(done);
    return done;
  }

  async #flush(): Promise<void> {
    const ids = this.#changed === null ? undefined : [...this.#changed];
    this.#changed = new Set();
    this.#dirty = false;
    let affected: number[];
    try {
      affected = await this.#store.affected(ids);
    } catch {
      // The library is closing; nothing to write to.
      return;
    }
    await Promise.all(affected.map((id) => this.#enqueue(id, false).catch(() => undefined)));
  }

  /** Resolves when no run is queued or going. */
  async idle(): Promise<void> {
    for (;;) {
      const chain = this.#chain;
      await Promise.all([...this.#flushing]);
      await chain.catch(() => undefined);
      if (chain === this.#chain && this.#flushing.size === 0) return;
    }
  }

  /**
   * Stops listening to changes, writes what pending changes affect (an edit made just before quitting
   * still reaches its file) and waits for queued runs. Call before closing the library.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.flush();
    await this.idle();
    this.#listeners.clear();
  }

  #background(id: number, force: boolean): void {
    this.#enqueue(id, force).catch(() => undefined);
  }

  #enqueue(id: number, force: boolean): Promise<AutoExportRun> {
    const waiting = this.#queued.get(id);
    if (waiting) {
      // A forced request joining an unforced one makes it forced.
      waiting.force ||= force;
      return waiting.promise;
    }
    const slot = { force, promise: null as unknown as Promise<AutoExportRun> };
    slot.promise = this.#chain.then(() => {
      this.#queued.delete(id);
      return this.#runJob(id, slot.force);
    });
    this.#queued.set(id, slot);
    this.#chain = slot.promise.catch(() => undefined);
    return slot.promise;
  }

  async #runJob(id: number, force: boolean): Promise<AutoExportRun> {
    const def = await this.#store.get(id);
    let run: AutoExportRun | null = null;
    const job = this.#jobs.start('auto-export', `Auto-export to ${basename(def.path)}`, async (control) => {
      if (control.signal.aborted) throw new CoreError('CANCELLED', 'Auto-export cancelled.');
      run = await this.#store.run(id, { force });
      control.progress(
        run.itemCount,
        run.itemCount,
        run.status === 'unchanged' ? 'Already up to date' : `${run.itemCount} entries`,
      );
      if (run.status === 'error')
        throw new CoreError(run.errorCode ?? 'INTERNAL', run.error ?? `Could not write ${def.path}.`);
      return run;
    });
    let failure: unknown = null;
    try {
      await job.done;
    } catch (err) {
      if (run === null) failure = err;
    }
    const finished = run as AutoExportRun | null;
    const definition = await this.#store.get(id).catch(() => null);
    if (definition) {
      this.#listeners.emit({ definition, run: finished });
    }
    if (finished === null) throw failure ?? new CoreError('INTERNAL', 'The auto-export did not run.');
    return finished;
  }
}
