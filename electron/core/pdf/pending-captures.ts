// Captures waiting for the service's paper search: PDFs with no DOI or arXiv id, captured while the
// service could not be asked (state `pending`). When it answers again (the core calls resume() where
// it resumes queued enrichment: the connectivity probe bringing it back online, the app's start, a
// restore), each one's first-page title and byline are searched and judged as at capture
// (capture.ts, searchByTitle), and the capture lands where an online capture of the PDF would have:
// identified (the item becomes a DOI placeholder that enrichment completes) or in Needs review.
// A search the service cannot answer now stops the run; the rest wait for the next time. The app
// also looks soon after it starts and then hourly (retrySchedule); `citewise enrich` runs them too.
import { systemClock, type Clock } from '../clock';
import { CoreError } from '../errors';
import type { JobRegistry } from '../jobs/registry';
import type { AsyncLibrary } from '../library/client';
import { searchByTitle, type CaptureService, type TitleDecision } from './capture';

export interface PendingCapturesOptions {
  library: { lib: Pick<AsyncLibrary, 'pendingTitleSearches' | 'completePendingCapture'> };
  /** Null: no service (no key): nothing is searched. */
  service: () => CaptureService | null;
  /** When given, a run with work to do is a job in the status bar (cancelling it leaves the rest waiting). */
  jobs?: JobRegistry | undefined;
  /** Told of each item whose capture was settled (the table and Needs review follow). */
  changed: (ids: readonly number[]) => void;
  /** Told of the items that became DOI placeholders, to enrich them. */
  onIdentified: (ids: readonly number[]) => void;
  /** Told of a search that failed for another reason than the service being out of reach. */
  report?: (err: unknown) => void;
}

export interface PendingRun {
  /** Searches run and settled. */
  settled: number;
  identified: number;
  /** Still waiting (the service could not be asked, or the run was cancelled). */
  waiting: number;
  /** Searches that failed for another reason than the service being out of reach: still pending, tried again next time. */
  failed: number;
}

/** The app's first look, soon after it starts: the service may answer without anything having asked it (no online event). */
export const FIRST_LOOK_MS = 30_000;
/** Then hourly: a service that came back unnoticed is asked within the hour, and a search that failed is tried again. */
export const RETRY_EVERY_MS = 60 * 60_000;

/**
 * Calls `look` FIRST_LOOK_MS from now and then every RETRY_EVERY_MS, on `clock` (its timers do not
 * keep the process alive); returns the stop. One timer at a time: each look arms the next.
 */
export function retrySchedule(look: () => void, clock: Clock = systemClock): () => void {
  let timer: unknown = null;
  let stopped = false;
  const arm = (ms: number): void => {
    timer = clock.setTimeout(() => {
      if (stopped) return;
      arm(RETRY_EVERY_MS);
      look();
    }, ms);
    (timer as { unref?: () => void } | null)?.unref?.();
  };
  arm(FIRST_LOOK_MS);
  return () => {
    stopped = true;
    clock.clearTimeout(timer);
  };
}

export class PendingCaptures {
  readonly #o: PendingCapturesOptions;
  readonly #lifetime = new AbortController();
  #running: Promise<PendingRun> | null = null;
  #again = false;

  constructor(options: PendingCapturesOptions) {
    this.#o = options;
  }

  /** Runs the waiting searches; called while a run is going, it runs once more after it (new captures may wait). */
  resume(): Promise<PendingRun> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    const run = (async (): Promise<PendingRun> => {
      let last: PendingRun;
      do {
        this.#again = false;
        last = await this.#runOnce();
      } while (this.#again && !this.#lifetime.signal.aborted);
      return last;
    })();
    this.#running = run.finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** Stops a run (what is left stays pending for the next start) and waits for it. */
  async close(): Promise<void> {
    this.#lifetime.abort();
    await this.#running?.catch(() => undefined);
  }

  async #runOnce(): Promise<PendingRun> {
    const waiting = await this.#o.library.lib.pendingTitleSearches();
    const service = this.#o.service();
    if (waiting.length === 0 || !service || this.#lifetime.signal.aborted)
      return { settled: 0, identified: 0, waiting: waiting.length, failed: 0 };
    const n = waiting.length;
    const run: PendingRun = { settled: 0, identified: 0, waiting: n, failed: 0 };
    /** Runs the searches; true when it stopped because the service could not be asked. */
    const work = async (signal: AbortSignal, progress: (done: number) => void): Promise<boolean> => {
      const identified: number[] = [];
      try {
        for (const [i, w] of waiting.entries()) {
          if (signal.aborted) return false;
          let decided: TitleDecision | null;
          try {
            decided = await searchByTitle(service, w.title, w.byline, signal);
          } catch (err) {
            if (signal.aborted) return false;
            // This one failed (not for being out of reach); it stays pending, the others go on.
            this.#o.report?.(err);
            run.failed++;
            run.waiting--;
            continue;
          }
          // The service cannot be asked now: the rest wait for the next time it is back.
          if (!decided) return true;
          const done = await this.#o.library.lib.completePendingCapture(w.attachmentId, decided);
          progress(i + 1);
          if (!done) {
            // Settled, removed or trashed meanwhile: it no longer waits.
            run.waiting--;
            continue;
          }
          run.settled++;
          run.waiting--;
          if (done.enrich) identified.push(done.itemId);
          this.#o.changed([done.itemId]);
        }
        return false;
      } finally {
        run.identified = identified.length;
        if (identified.length > 0) this.#o.onIdentified(identified);
      }
    };
    if (!this.#o.jobs) {
      await work(this.#lifetime.signal, () => {});
      return run;
    }
    const job = this.#o.jobs.start(
      'pdfs.pending',
      `Looking up ${n === 1 ? 'the title of 1 PDF' : `the titles of ${n} PDFs`} captured offline`,
      async (job) => {
        job.progress(0, n);
        const unreachable = await work(AbortSignal.any([job.signal, this.#lifetime.signal]), (done) =>
          job.progress(done, n),
        );
        // Listed as a job that did not finish, with why, as a paused enrichment is.
        if (unreachable)
          throw new CoreError(
            'OFFLINE',
            `Waiting until the citation service can be reached: ${run.waiting + run.failed} of ${n} PDFs keep waiting for their title search.`,
          );
        return run;
      },
    );
    return job.done.catch((err: unknown) => {
      if (err instanceof CoreError && (err.code === 'CANCELLED' || err.code === 'OFFLINE')) return run;
      throw err;
    });
  }
}
