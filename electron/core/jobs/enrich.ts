// Enrichment: fetch papers (metadata and editorial notices) and tallies for library items in bulk,
// store them with their fetch time, fill the fields items lack, and record editorial status changes.
// Work is a persisted queue (EnrichmentStore, in the library worker): a run processes it batch by
// batch, each batch stored in one transaction, so cancelling, a crash or going offline loses nothing
// that was fetched and the next run continues with what is left. The service being unreachable,
// rate-limited or refusing the key pauses the run (its DOIs stay queued); `resume()` continues it.
import type { ErrorCode, IpcError } from '../../../shared/ipc';
import type { EvidenceTally } from '../../../shared/model/evidence';
import type { BulkResult, UiPaper } from '../../../shared/model/service';
import { CoreError, toIpcError } from '../errors';
import type { AsyncEnrichment } from '../library/client';
import {
  NEED_PAPER,
  NEED_TALLIES,
  type BatchInput,
  type EnqueueResult,
  type EnrichReason,
  type EnrichRun,
  type EnrichScope,
  type StatusChange,
} from '../library/enrichment-store';
import type { ItemId } from '../library/types';
import type { JobRegistry } from './registry';
import { grouped } from '../../../shared/model/numbers';
import { Listeners } from '../../../shared/ipc/listeners';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

/** What enrichment needs of the service client (ServiceClient has both). */
export interface EnrichService {
  papers(dois: Iterable<string>, options?: { signal?: AbortSignal | undefined }): Promise<BulkResult<UiPaper>>;
  tallies(dois: Iterable<string>, options?: { signal?: AbortSignal | undefined }): Promise<BulkResult<EvidenceTally>>;
}

export interface EnrichPolicy {
  /** How old (ms) cached data may get before a refresh fetches it again. */
  maxAge: { papers: number; tallies: number; notices: number };
  /** DOIs per batch: one request per kind, and one transaction. At most 500 (the service's bulk limit). */
  batchSize: number;
  /** DOIs one background refresh takes on at most, oldest first. */
  refreshLimit: number;
  /**
   * DOIs stored per transaction. A batch's answers are stored in slices of this size, so the library
   * worker is never busy for long with one write (filling 500 items takes about half a second).
   */
  applySize: number;
}

export const DEFAULT_ENRICH_POLICY: EnrichPolicy = {
  // Metadata rarely changes; tallies grow slowly; notices are what a researcher must hear about soon.
  maxAge: { papers: 30 * DAY, tallies: 7 * DAY, notices: 1 * DAY },
  batchSize: 500,
  refreshLimit: 2000,
  applySize: 100,
};

/** Error codes that mean "not now" rather than "not this DOI": the run pauses and its DOIs stay queued. */
const PAUSING: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'OFFLINE',
  'RATE_LIMITED',
  'TIMEOUT',
  'SERVICE_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
]);

export interface EnrichOutcome {
  run: EnrichRun;
  /** Why the run stopped before its queue was empty; its DOIs stay queued for resume(). */
  paused: IpcError | null;
  /** Items that got fields filled, and which. */
  filled: { id: ItemId; fields: string[] }[];
  /** Editorial status changes this run found. */
  changes: StatusChange[];
}

export interface RunOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((run: EnrichRun) => void) | undefined;
}

export interface EnricherOptions {
  /** The library worker's enrichment methods: `LibraryClient.enrichment`. */
  library: AsyncEnrichment;
  service: EnrichService;
  /** When given, startJob() runs enrichment as a job with progress and cancel in the status bar. */
  jobs?: JobRegistry | undefined;
  policy?: Partial<EnrichPolicy> | undefined;
  now?: (() => number) | undefined;
  /** Told about unexpected errors (never with the API key: the client keeps it out of every error). */
  report?: ((err: unknown) => void) | undefined;
}

type Listener<T> = (value: T) => void;

export class Enricher {
  readonly policy: EnrichPolicy;
  readonly #lib: AsyncEnrichment;
  readonly #service: EnrichService;
  readonly #jobs: JobRegistry | undefined;
  readonly #now: () => number;
  readonly #report: (err: unknown) => void;
  readonly #progress: Listeners<EnrichRun>;
  readonly #statusChange: Listeners<StatusChange[]>;
  /** Aborted by close(): runs stop but stay queued, to continue at the next start. */
  readonly #lifetime = new AbortController();
  /** Runs go one at a time, so two never fetch the same queue. */
  #chain: Promise<unknown> = Promise.resolve();
  #background: { stop(): void } | null = null;

  constructor(options: EnricherOptions) {
    const batchSize = options.policy?.batchSize ?? DEFAULT_ENRICH_POLICY.batchSize;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 500)
      throw new RangeError('batchSize must be an integer from 1 to 500');
    const applySize = options.policy?.applySize ?? DEFAULT_ENRICH_POLICY.applySize;
    if (!Number.isInteger(applySize) || applySize < 1) throw new RangeError('applySize must be a positive integer');
    this.policy = {
      ...DEFAULT_ENRICH_POLICY,
      ...options.policy,
      maxAge: { ...DEFAULT_ENRICH_POLICY.maxAge, ...options.policy?.maxAge },
      batchSize,
    };
    this.#lib = options.library;
    this.#service = options.service;
    this.#jobs = options.jobs;
    this.#now = options.now ?? Date.now;
    this.#report = options.report ?? (() => {});
    // A listener that throws (a closed window's forwarder) is reported; the run goes on.
    this.#progress = new Listeners(this.#report);
    this.#statusChange = new Listeners(this.#report);
  }

  /** Progress of every run (after each batch and when it stops); returns the disposer. */
  onProgress(listener: Listener<EnrichRun>): () => void {
    return this.#progress.add(listener);
  }

  /** Items whose editorial status changed (retracted, withdrawn, corrected, concern…); returns the disposer. */
  onStatusChange(listener: Listener<StatusChange[]>): () => void {
    return this.#statusChange.add(listener);
  }

  /** Queues the items in scope as a run without starting it. */
  enqueue(scope: EnrichScope, options: { reason?: EnrichReason; label?: string } = {}): Promise<EnqueueResult> {
    return this.#lib.enqueue(scope, options);
  }

  /** Queues the items in scope and runs the run to its end (or until it pauses or is cancelled). */
  async enrich(
    scope: EnrichScope,
    options: RunOptions & { reason?: EnrichReason; label?: string } = {},
  ): Promise<{ queued: EnqueueResult; outcome: EnrichOutcome | null }> {
    const queued = await this.enqueue(scope, {
      ...(options.reason ? { reason: options.reason } : {}),
      ...(options.label ? { label: options.label } : {}),
    });
    if (!queued.run) return { queued, outcome: null };
    return { queued, outcome: await this.runQueued(queued.run.id, options) };
  }

  /**
   * The same as a job of the registry: progress counts in the job list, cancellable there. `done`
   * resolves with the outcome, also when the run paused (the job itself is then listed as failed
   * with the reason, so the status bar says why).
   */
  async startJob(
    scope: EnrichScope,
    options: { reason?: EnrichReason; label?: string } = {},
  ): Promise<{ jobId: string | null; queued: EnqueueResult; done: Promise<EnrichOutcome | null> }> {
    const queued = await this.enqueue(scope, options);
    const run = queued.run;
    if (!run) return { jobId: null, queued, done: Promise.resolve(null) };
    if (!this.#jobs) return { jobId: null, queued, done: this.runQueued(run.id) };
    let outcome: EnrichOutcome | null = null;
    const job = this.#jobs.start('enrich', run.label, async (control) => {
      outcome = await this.runQueued(run.id, {
        signal: control.signal,
        onProgress: (r) => control.progress(r.done + r.failed, r.total, progressText(r)),
      });
      if (outcome.paused) throw new CoreError(outcome.paused.code, pauseText(outcome));
      return outcome;
    });
    const done = job.done.then(
      (o) => o,
      (err: unknown) => {
        if (outcome) return outcome;
        throw err;
      },
    );
    // Callers that only start the job (an import's enrichment) drop `done`; a run that fails, or is
    // stopped by the core closing, is already reported in the job list and must not also surface as
    // an unhandled rejection, which ends a Node process. Whoever awaits `done` still sees the error.
    done.catch(() => {});
    return { jobId: job.id, queued, done };
  }

  /** Processes one queued run; aborting the signal cancels it (its queued DOIs are dropped). */
  runQueued(runId: number, options: RunOptions = {}): Promise<EnrichOutcome> {
    return this.#exclusive(() => this.#process(runId, options));
  }

  /** Continues every run left unfinished by a crash, a shutdown or going offline, oldest first; stops at the first that pauses. */
  async resume(options: RunOptions = {}): Promise<EnrichOutcome[]> {
    const out: EnrichOutcome[] = [];
    for (const run of await this.#lib.openRuns()) {
      const outcome = await this.runQueued(run.id, options);
      out.push(outcome);
      if (outcome.paused || outcome.run.state === 'cancelled') break;
    }
    return out;
  }

  /** Fetches again, in one bounded run, what is stale by the policy (missing included); null when nothing is. */
  async refreshStale(
    options: RunOptions & { limit?: number; only?: 'papers' | 'tallies'; label?: string } = {},
  ): Promise<EnrichOutcome | null> {
    const now = this.#now();
    const { maxAge } = this.policy;
    const { run } = await this.#lib.enqueueStale(
      { papers: now - maxAge.papers, tallies: now - maxAge.tallies, notices: now - maxAge.notices },
      options.limit ?? this.policy.refreshLimit,
      {
        ...(options.only ? { only: options.only === 'papers' ? NEED_PAPER : NEED_TALLIES } : {}),
        ...(options.label ? { label: options.label } : {}),
      },
    );
    return run ? this.runQueued(run.id, options) : null;
  }

  /**
   * Background upkeep: after `initialDelayMs`, then every `intervalMs`, resume unfinished runs and refresh
   * one bounded batch of stale data. Never the whole library at start. Returns the disposer.
   */
  startBackground(options: { intervalMs?: number; initialDelayMs?: number } = {}): () => void {
    this.#background?.stop();
    const interval = options.intervalMs ?? HOUR;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    const tick = async (): Promise<void> => {
      try {
        const resumed = await this.resume();
        if (!resumed.some((o) => o.paused)) await this.refreshStale();
      } catch (err) {
        if (!(err instanceof CoreError && err.code === 'CANCELLED')) this.#report(err);
      }
      if (!stopped) schedule(interval);
    };
    const schedule = (ms: number): void => {
      timer = setTimeout(() => void tick(), ms);
      timer.unref?.();
    };
    schedule(options.initialDelayMs ?? 30_000);
    const handle = {
      stop: () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      },
    };
    this.#background = handle;
    return () => {
      handle.stop();
      if (this.#background === handle) this.#background = null;
    };
  }

  /** Stops: a running run is left queued (paused) and continues after the next start. Call before the library closes. */
  async close(): Promise<void> {
    this.#background?.stop();
    this.#lifetime.abort();
    await this.#chain.catch(() => undefined);
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(fn, fn);
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #process(runId: number, options: RunOptions): Promise<EnrichOutcome> {
    const signal = options.signal ? AbortSignal.any([options.signal, this.#lifetime.signal]) : this.#lifetime.signal;
    const filled: EnrichOutcome['filled'] = [];
    const changes: StatusChange[] = [];
    let run = await this.#lib.run(runId);
    if (run.state === 'done' || run.state === 'cancelled') return { run, paused: null, filled, changes };
    run = await this.#lib.setRunState(runId, 'running');
    const last = { value: '' };
    this.#emitProgress(run, options, last);
    let paused: IpcError | null = null;
    while (!signal.aborted) {
      const batch = await this.#lib.nextBatch(runId, this.policy.batchSize);
      if (batch.length === 0) break;
      const paperDois = batch.filter((b) => b.needs & NEED_PAPER).map((b) => b.doi);
      const tallyDois = batch.filter((b) => b.needs & NEED_TALLIES).map((b) => b.doi);
      let papers: BulkResult<UiPaper> | null;
      let tallies: BulkResult<EvidenceTally> | null;
      try {
        [papers, tallies] = await Promise.all([
          paperDois.length > 0 ? this.#service.papers(paperDois, { signal }) : null,
          tallyDois.length > 0 ? this.#service.tallies(tallyDois, { signal }) : null,
        ]);
      } catch (err) {
        if (signal.aborted) break;
        const e = toIpcError(err, this.#report);
        if (!PAUSING.has(e.code)) throw err;
        paused = e;
        break;
      }
      const input: BatchInput = { fetchedAt: this.#now(), failed: [] };
      for (const result of [papers, tallies]) {
        if (!result) continue;
        for (const f of result.failed) {
          const transient = PAUSING.has(f.error.code);
          if (transient) paused ??= f.error;
          for (const doi of f.ids) input.failed.push({ doi, message: f.error.message, transient });
        }
        for (const i of result.invalid) input.failed.push({ doi: i.input, message: i.reason, transient: false });
      }
      if (papers) input.papers = { found: papers.found, unknown: papers.unknown };
      if (tallies) input.tallies = { found: tallies.found, unknown: tallies.unknown };
      // Everything fetched is stored, even when the run was cancelled meanwhile.
      for (const part of slices(
        batch.map((b) => b.doi),
        input,
        this.policy.applySize,
      )) {
        const outcome = await this.#lib.applyBatch(runId, part);
        run = outcome.run;
        filled.push(...outcome.filled);
        if (outcome.changes.length > 0) {
          changes.push(...outcome.changes);
          this.#statusChange.emit(outcome.changes);
        }
        this.#emitProgress(run, options, last);
      }
      if (paused) break;
    }
    if (paused) {
      run = await this.#lib.setRunState(runId, 'paused', pauseMessage(paused));
    } else if (signal.aborted) {
      // Shutting down keeps the run for the next start; the user's cancel drops what is left.
      run = this.#lifetime.signal.aborted
        ? await this.#lib
            .setRunState(runId, 'paused', 'Stopped when Citewise closed; continues at the next start.')
            .catch(() => run)
        : await this.#lib.cancelRun(runId);
    } else {
      run = await this.#lib.run(runId);
    }
    this.#emitProgress(run, options, last);
    return { run, paused, filled, changes };
  }

  #emitProgress(run: EnrichRun, options: RunOptions, last?: { value: string }): void {
    // The final state is often what the last batch already reported: listeners hear it once.
    if (last) {
      const key = `${run.id}:${run.state}:${run.done}:${run.failed}:${run.remaining}:${run.message}`;
      if (key === last.value) return;
      last.value = key;
    }
    options.onProgress?.(run);
    this.#progress.emit(run);
  }
}

/** The answers for a batch, cut into parts of `size` DOIs (in queue order), each stored in its own transaction. */
function slices(dois: readonly string[], input: BatchInput, size: number): BatchInput[] {
  if (dois.length <= size) return [input];
  const out: BatchInput[] = [];
  for (let i = 0; i < dois.length; i += size) {
    const part = new Set(dois.slice(i, i + size));
    const pick = <T>(found: Record<string, T>, unknown: string[]) => ({
      found: Object.fromEntries(Object.entries(found).filter(([d]) => part.has(d))),
      unknown: unknown.filter((d) => part.has(d)),
    });
    out.push({
      fetchedAt: input.fetchedAt,
      failed: input.failed.filter((f) => part.has(f.doi)),
      ...(input.papers ? { papers: pick(input.papers.found, input.papers.unknown) } : {}),
      ...(input.tallies ? { tallies: pick(input.tallies.found, input.tallies.unknown) } : {}),
    });
  }
  return out;
}

function pauseMessage(e: IpcError): string {
  const wait = (e.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
  // Offline is already said by the status bar with its reason; the job only says it waits for it.
  if (e.code === 'OFFLINE') return 'Paused: waiting until the citation service can be reached again';
  return `Paused: ${e.message}${wait ? ` (the service asked to wait ${wait} s)` : ''}`;
}

function pauseText(o: EnrichOutcome): string {
  return `${o.run.message}. ${grouped(o.run.remaining)} of ${grouped(o.run.total)} DOIs stay queued and are fetched when enrichment resumes.`;
}

export function progressText(r: EnrichRun): string {
  const parts = [`${grouped(r.done)} of ${grouped(r.total)} DOIs`];
  if (r.filled > 0) parts.push(`${grouped(r.filled)} items completed`);
  if (r.failed > 0) parts.push(`${grouped(r.failed)} failed`);
  return parts.join(', ');
}
