// The retraction watch: which library items are retracted, withdrawn, corrected or under an expression
// of concern (from their cached editorial notices), and which changed status since the user last looked.
// A check refreshes the notices that are stale by the enrichment policy (through the Enricher, so it
// shares its queue, pausing and resume), then brings the recorded statuses up to date. Each change is
// recorded once (status_changes) and stays unseen until markSeen().
import type { AsyncEnrichment } from '../library/client';
import type { FlaggedItem, StatusChange } from '../library/enrichment-store';
import type { EnrichOutcome, Enricher, RunOptions } from './enrich';
import { Listeners } from '../../../shared/ipc/listeners';

export interface CheckResult {
  /** The notice refresh; null when nothing was stale or refresh was off. */
  refreshed: EnrichOutcome | null;
  flagged: FlaggedItem[];
  /** Changes not yet seen, newest first (including older unseen ones). */
  changes: StatusChange[];
}

export class RetractionWatch {
  readonly #lib: AsyncEnrichment;
  readonly #enricher: Enricher;
  readonly #listeners: Listeners<StatusChange[]>;
  readonly #unsubscribe: () => void;

  constructor(options: { library: AsyncEnrichment; enricher: Enricher; report?: (err: unknown) => void }) {
    this.#lib = options.library;
    this.#listeners = new Listeners(options.report);
    this.#enricher = options.enricher;
    this.#unsubscribe = this.#enricher.onStatusChange((changes) => this.#emit(changes));
  }

  /** Told whenever an item's status changes, by a check or by any enrichment run; returns the disposer. */
  onStatusChange(listener: (changes: StatusChange[]) => void): () => void {
    return this.#listeners.add(listener);
  }

  /**
   * Refreshes stale notices (all of them when `limit` is not given), records status changes, and
   * reports the flagged items and the unseen changes. `refresh: false` uses the cache only (offline).
   */
  async check(options: RunOptions & { refresh?: boolean; limit?: number } = {}): Promise<CheckResult> {
    const refreshed =
      options.refresh === false
        ? null
        : await this.#enricher.refreshStale({
            ...options,
            only: 'papers',
            limit: options.limit ?? Number.MAX_SAFE_INTEGER,
            label: 'Check for retractions and notices',
          });
    const late = await this.#lib.reconcileStatuses();
    if (late.length > 0) this.#emit(late);
    return {
      refreshed,
      flagged: await this.#lib.flaggedItems(),
      changes: await this.#lib.statusChanges({ unseenOnly: true }),
    };
  }

  flagged(): Promise<FlaggedItem[]> {
    return this.#lib.flaggedItems();
  }

  changes(options: { unseenOnly?: boolean; limit?: number } = {}): Promise<StatusChange[]> {
    return this.#lib.statusChanges(options);
  }

  /** Marks changes as seen (all unseen ones without ids); returns how many. */
  markSeen(ids?: readonly number[]): Promise<number> {
    return this.#lib.markStatusChangesSeen(ids);
  }

  dispose(): void {
    this.#unsubscribe();
    this.#listeners.clear();
  }

  #emit(changes: StatusChange[]): void {
    this.#listeners.emit(changes);
  }
}
