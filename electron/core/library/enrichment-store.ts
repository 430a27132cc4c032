// The library side of enrichment and the retraction watch. It runs in the library worker beside the
// Library (the Enricher in core/jobs drives it through LibraryClient.enrichment) and keeps what must
// survive a crash or going offline in the library file: the queue of DOIs still to fetch per run, the
// fields the user edited, the last editorial status per DOI and every change of it.
// Each batch of service answers is applied in one transaction: cache rows, filled items, queue and
// run counters, status changes. A crash between batches loses nothing that was fetched and stored.
import { parseDoi } from '../../../shared/model/doi';
import type { EvidenceCounts } from '../../../shared/model/evidence';
import { ITEM_STATUSES, statusFromNotices, type ItemStatus } from '../../../shared/model/item-status';
import type { UiPaper } from '../../../shared/model/service';
import { CoreError } from '../errors';
import { paperToCsl } from '../formats/doi-list/from-paper';
import { keywordTags } from './derive';
import { editedFields } from './edits';
import { fillMissing } from './fill';
import type { Library } from './library';
import { ident, inBatches, inList, sql, type ReadDb, type WriteDb } from './sql';
import type { ItemId } from './types';
import type {
  EnqueueResult,
  EnrichReason,
  EnrichRun,
  EnrichScope,
  FlaggedItem,
  RunState,
  StatusChange,
} from '../../../shared/model/item-status';
import { grouped } from '../../../shared/model/numbers';
import { storedCsl } from './stored-json';

export type { EnqueueResult, EnrichReason, EnrichRun, EnrichScope, FlaggedItem, RunState, StatusChange };

/** What a queued DOI still needs: its paper (metadata and notices), its tallies, or both. */
export const NEED_PAPER = 1;
export const NEED_TALLIES = 2;
export const NEED_ALL = NEED_PAPER | NEED_TALLIES;

/** A DOI that failed for a reason other than the service being unreachable is given up after this many tries. */
export const MAX_ATTEMPTS = 3;

export interface QueuedDoi {
  doi: string;
  needs: number;
}

/** One batch of answers, as the Enricher got them from the service client. */
export interface BatchInput {
  fetchedAt: number;
  /** Answers for the DOIs that needed their paper: found, or unknown to the service. */
  papers?: { found: Record<string, UiPaper>; unknown: string[] };
  tallies?: { found: Record<string, EvidenceCounts>; unknown: string[] };
  /** DOIs whose request failed; transient ones (offline, rate-limited…) stay queued without limit. */
  failed: { doi: string; message: string; transient: boolean }[];
}

export interface BatchOutcome {
  run: EnrichRun;
  /** DOIs finished by this batch. */
  completed: number;
  filled: { id: ItemId; fields: string[] }[];
  changes: StatusChange[];
}

/** Oldest fetch time (ms epoch) each kind of cached data may have before it is stale. */
export interface StaleCutoffs {
  papers: number;
  tallies: number;
  notices: number;
}

interface RunRow {
  id: number;
  label: string;
  reason: EnrichReason;
  state: RunState;
  total: number;
  done: number;
  failed: number;
  filled: number;
  message: string;
  created_at: number;
  updated_at: number;
  remaining: number;
}

/** A status_changes row as it is read. */
interface StatusChangeRow {
  id: number;
  doi: string;
  previous: ItemStatus | null;
  current: ItemStatus;
  changed_at: number;
  seen_at: number | null;
}
const STATUS_CHANGE_COLUMNS = sql`id, doi, previous, current, changed_at, seen_at`;

const RUN_COLUMNS = sql`r.id, r.label, r.reason, r.state, r.total, r.done, r.failed, r.filled, r.message, r.created_at, r.updated_at,
  (SELECT count(*) FROM enrich_queue q WHERE q.run_id = r.id) AS remaining`;

const toRun = (r: RunRow): EnrichRun => ({
  id: r.id,
  label: r.label,
  reason: r.reason,
  state: r.state,
  total: r.total,
  done: r.done,
  failed: r.failed,
  filled: r.filled,
  remaining: r.remaining,
  message: r.message,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const kindsOf = (text: string): string[] => text.split(',').filter((k) => k !== '');
const severity = (s: ItemStatus): number => ITEM_STATUSES.indexOf(s);

/** The metadata only: the tallies are cached on their own, not written into an item. */
function metadataOf(paper: UiPaper): Parameters<typeof paperToCsl>[0] {
  const { tally, citingTally, ...metadata } = paper;
  void tally;
  void citingTally;
  return metadata;
}

export interface EnrichmentStoreOptions {
  write: WriteDb;
  read: ReadDb;
  library: Library;
  now?: () => number;
}

export class EnrichmentStore {
  readonly #w: WriteDb;
  readonly #r: ReadDb;
  readonly #library: Library;
  readonly #now: () => number;

  constructor(options: EnrichmentStoreOptions) {
    this.#w = options.write;
    this.#r = options.read;
    this.#library = options.library;
    this.#now = options.now ?? Date.now;
  }

  // ── Runs and the queue ──

  /** Queues the DOIs of the items in scope (papers and tallies) as a new run. A DOI queued by an unfinished run moves to this one. */
  enqueue(scope: EnrichScope, options: { reason?: EnrichReason; label?: string; needs?: number } = {}): EnqueueResult {
    const { dois, withoutDoi } = this.#resolve(scope);
    if (dois.length === 0) return { run: null, withoutDoi };
    const needs = options.needs ?? NEED_ALL;
    if (!Number.isInteger(needs) || needs < 1 || needs > NEED_ALL)
      throw new CoreError('INVALID_INPUT', 'needs must be NEED_PAPER, NEED_TALLIES or both.');
    const runId = this.#queue(
      dois.map((doi) => ({ doi, needs })),
      options.reason ?? 'demand',
      options.label ?? this.#describe(scope, dois.length),
    );
    return { run: this.run(runId), withoutDoi };
  }

  /** The run's label: what was asked for, in words, and how many DOIs that is when it differs. */
  #describe(scope: EnrichScope, dois: number): string {
    let label = describeScope(scope);
    if (scope.kind === 'collection') {
      const name = this.#r.get<{ name: string }>(sql`SELECT name FROM collections WHERE id = ${scope.id}`)?.name;
      if (name) label = `Enrich the collection “${name}”`;
    }
    const asked = scope.kind === 'items' ? scope.ids.length : scope.kind === 'dois' ? scope.dois.length : null;
    return asked !== null && asked !== dois ? `${label} (${grouped(dois)} DOI${dois === 1 ? '' : 's'})` : label;
  }

  /**
   * Queues, as one refresh run, at most `limit` library DOIs whose cached paper, notices or tallies are
   * missing or older than the cutoffs, oldest first; each needs only what is stale. DOIs already queued
   * are left to their run. Never the whole library: the limit bounds every refresh. `only` restricts
   * it to one kind (NEED_PAPER: metadata and notices, for the retraction watch).
   */
  enqueueStale(cutoffs: StaleCutoffs, limit: number, options: { label?: string; only?: number } = {}): EnqueueResult {
    const mask = options.only ?? NEED_ALL;
    const max = Math.max(0, Math.floor(Math.min(limit, Number.MAX_SAFE_INTEGER)));
    const wanted = new Map<string, number>();
    const want = (doi: string, needs: number): void => {
      if (needs & mask) wanted.set(doi, (wanted.get(doi) ?? 0) | (needs & mask));
    };
    // Never fetched first (cheap: stops at the limit), in the order items were added.
    const missing = this.#r.all<{ doi: string; needs: number }>(sql`
      SELECT i.doi,
        (CASE WHEN NOT EXISTS (SELECT 1 FROM service_papers p WHERE p.doi = i.doi) OR NOT EXISTS (SELECT 1 FROM service_notices n WHERE n.doi = i.doi) THEN 1 ELSE 0 END)
        | (CASE WHEN NOT EXISTS (SELECT 1 FROM service_tallies t WHERE t.doi = i.doi) THEN 2 ELSE 0 END) AS needs
      FROM items i
      WHERE i.doi IS NOT NULL AND i.trashed_at IS NULL AND (needs & ${mask}) > 0 AND NOT EXISTS (SELECT 1 FROM enrich_queue q WHERE q.doi = i.doi)
      LIMIT ${max}`);
    for (const m of missing) want(m.doi, m.needs);
    // Then the oldest rows past their cutoff, walking the fetched_at indexes (only stale rows are read).
    const kinds = [
      { table: 'service_papers', cutoff: cutoffs.papers, need: NEED_PAPER },
      { table: 'service_notices', cutoff: cutoffs.notices, need: NEED_PAPER },
      { table: 'service_tallies', cutoff: cutoffs.tallies, need: NEED_TALLIES },
    ] as const;
    const stale: { doi: string; need: number; at: number }[] = [];
    for (const k of kinds) {
      if (!(k.need & mask) || wanted.size >= max) continue;
      const t = ident(k.table, ['service_papers', 'service_notices', 'service_tallies']);
      for (const r of this.#r.all<{ doi: string; fetched_at: number }>(sql`
        SELECT c.doi, c.fetched_at FROM ${t} c
        WHERE c.fetched_at < ${k.cutoff} AND EXISTS (SELECT 1 FROM items i WHERE i.doi = c.doi AND i.trashed_at IS NULL)
          AND NOT EXISTS (SELECT 1 FROM enrich_queue q WHERE q.doi = c.doi)
        ORDER BY c.fetched_at LIMIT ${max}`)) {
        stale.push({ doi: r.doi, need: k.need, at: r.fetched_at });
      }
    }
    stale.sort((a, b) => a.at - b.at || (a.doi < b.doi ? -1 : a.doi > b.doi ? 1 : 0));
    for (const s of stale) {
      if (wanted.size >= max && !wanted.has(s.doi)) continue;
      want(s.doi, s.need);
    }
    if (wanted.size === 0) return { run: null, withoutDoi: 0 };
    const rows = [...wanted].slice(0, max).map(([doi, needs]) => ({ doi, needs }));
    return { run: this.run(this.#queue(rows, 'refresh', options.label ?? 'Refresh stale evidence')), withoutDoi: 0 };
  }

  run(id: number): EnrichRun {
    const row = this.#w.get<RunRow>(sql`SELECT ${RUN_COLUMNS} FROM enrich_runs r WHERE r.id = ${id}`);
    if (!row) throw new CoreError('NOT_FOUND', `There is no enrichment run ${id}.`);
    return toRun(row);
  }

  /** Runs that still have queued DOIs (running when the app stopped, or paused offline), oldest first. */
  openRuns(): EnrichRun[] {
    return this.#w
      .all<RunRow>(sql`SELECT ${RUN_COLUMNS} FROM enrich_runs r WHERE r.state IN ('running', 'paused') ORDER BY r.id`)
      .map(toRun);
  }

  recentRuns(limit = 20): EnrichRun[] {
    return this.#w
      .all<RunRow>(sql`SELECT ${RUN_COLUMNS} FROM enrich_runs r ORDER BY r.id DESC LIMIT ${limit}`)
      .map(toRun);
  }

  /** The next DOIs of a run, in the order they were queued. */
  nextBatch(runId: number, size: number): QueuedDoi[] {
    return this.#w.all<QueuedDoi>(
      sql`SELECT doi, needs FROM enrich_queue WHERE run_id = ${runId} ORDER BY id LIMIT ${size}`,
    );
  }

  setRunState(runId: number, state: 'running' | 'paused', message = ''): EnrichRun {
    this.#w.run(
      sql`UPDATE enrich_runs SET state = ${state}, message = ${message}, updated_at = ${this.#now()} WHERE id = ${runId} AND state IN ('running', 'paused')`,
    );
    return this.run(runId);
  }

  /** Cancels a run: its queued DOIs are dropped; what it already stored stays. */
  cancelRun(runId: number): EnrichRun {
    this.#w.transaction(() => {
      this.#w.run(sql`DELETE FROM enrich_queue WHERE run_id = ${runId}`);
      this.#w.run(
        sql`UPDATE enrich_runs SET state = 'cancelled', message = 'Cancelled', updated_at = ${this.#now()} WHERE id = ${runId} AND state IN ('running', 'paused')`,
      );
    });
    return this.run(runId);
  }

  /** Stores one batch of answers and moves the run on; see BatchInput. */
  applyBatch(runId: number, input: BatchInput): BatchOutcome {
    return this.#w.transaction(() => {
      const raw = this.#w.raw;
      const cleared = new Map<string, number>();
      const clear = (doi: string, bit: number): void => {
        const d = normDoi(doi);
        if (d) cleared.set(d, (cleared.get(d) ?? 0) | bit);
      };
      const filled: BatchOutcome['filled'] = [];
      let changes: StatusChange[] = [];
      if (input.papers) {
        this.#library.serviceCache.putPapers(input.papers, input.fetchedAt);
        for (const doi of input.papers.unknown) {
          // Unknown to the service: no notices either; recorded so a refresh waits for the cutoff.
          if (normDoi(doi)) this.#library.serviceCache.putNotices(doi, null, undefined, input.fetchedAt);
          clear(doi, NEED_PAPER);
        }
        const itemsByDoi = raw.prepare(
          'SELECT i.id, r.csl FROM items i JOIN item_csl r ON r.item_id = i.id WHERE i.doi = ? AND i.trashed_at IS NULL',
        );
        const known: string[] = [];
        for (const [doi, paper] of Object.entries(input.papers.found)) {
          const d = normDoi(doi);
          if (!d) continue;
          clear(d, NEED_PAPER);
          known.push(d);
          const fromService = paperToCsl(metadataOf(paper));
          for (const item of itemsByDoi.all(d) as { id: number; csl: string }[]) {
            const result = fillMissing(
              storedCsl(item.csl, item.id),
              fromService,
              new Set(editedFields(this.#w, item.id)),
            );
            if (result.filled.length === 0 && !result.completed) continue;
            // A completed placeholder gets the key and tags an online add would have given it.
            this.#library.writeServiceFill(
              item.id,
              result.csl,
              result.completed ? { completed: true, tags: keywordTags(fromService) } : undefined,
            );
            filled.push({ id: item.id, fields: result.filled });
          }
        }
        changes = this.#reconcile(known, input.fetchedAt);
      }
      if (input.tallies) {
        this.#library.serviceCache.putTallies(input.tallies, input.fetchedAt);
        for (const doi of [...Object.keys(input.tallies.found), ...input.tallies.unknown]) clear(doi, NEED_TALLIES);
      }

      const queued = raw.prepare('SELECT id, needs, attempts FROM enrich_queue WHERE doi = ? AND run_id = ?');
      const remove = raw.prepare('DELETE FROM enrich_queue WHERE id = ?');
      const setNeeds = raw.prepare('UPDATE enrich_queue SET needs = ?, attempts = 0, last_error = NULL WHERE id = ?');
      const failedOnce = raw.prepare('UPDATE enrich_queue SET attempts = attempts + 1, last_error = ? WHERE id = ?');
      let completed = 0;
      let dropped = 0;
      for (const [doi, bits] of cleared) {
        const row = queued.get(doi, runId) as { id: number; needs: number } | undefined;
        if (!row) continue;
        const needs = row.needs & ~bits;
        if (needs === 0) {
          remove.run(row.id);
          completed++;
        } else setNeeds.run(needs, row.id);
      }
      for (const f of input.failed) {
        const d = normDoi(f.doi);
        const row = d ? (queued.get(d, runId) as { id: number; attempts: number } | undefined) : undefined;
        if (!row) continue;
        if (!f.transient && row.attempts + 1 >= MAX_ATTEMPTS) {
          remove.run(row.id);
          dropped++;
        } else failedOnce.run(f.message.slice(0, 500), row.id);
      }
      const now = this.#now();
      this.#w.run(
        sql`UPDATE enrich_runs SET done = done + ${completed}, failed = failed + ${dropped}, filled = filled + ${filled.length}, updated_at = ${now} WHERE id = ${runId}`,
      );
      this.#settle(runId);
      return { run: this.run(runId), completed, filled, changes };
    });
  }

  // ── User edits ──

  /** Fields of an item the user changed by hand: enrichment leaves them as they are. */
  editedFields(id: ItemId): string[] {
    return editedFields(this.#r, id);
  }

  // ── Retraction watch ──

  /**
   * Brings the recorded statuses up to date with the cached notices of library items (notices stored by
   * other paths than a run, e.g. opening a paper), recording every change; returns the new changes.
   */
  reconcileStatuses(): StatusChange[] {
    return this.#w.transaction(() => {
      const dois = this.#w.pluck<string>(sql`
        SELECT n.doi FROM service_notices n LEFT JOIN item_status s ON s.doi = n.doi
        WHERE n.found = 1 AND (s.doi IS NULL OR s.checked_at < n.fetched_at)
          AND EXISTS (SELECT 1 FROM items i WHERE i.doi = n.doi AND i.trashed_at IS NULL)`);
      return this.#reconcile(dois, this.#now());
    });
  }

  /** Library items whose papers are retracted, withdrawn, corrected or under an expression of concern, most severe first. */
  flaggedItems(): FlaggedItem[] {
    const rows = this.#r.all<{
      id: number;
      citation_key: string;
      title: string | null;
      doi: string;
      status: ItemStatus;
      kinds: string;
      checked_at: number;
    }>(sql`
      SELECT i.id, i.citation_key, i.title, i.doi, s.status, s.kinds, s.checked_at FROM item_status s JOIN items i ON i.doi = s.doi
      WHERE s.status <> 'none' AND i.trashed_at IS NULL ORDER BY i.id`);
    return rows
      .map((r) => ({
        id: r.id,
        citationKey: r.citation_key,
        title: r.title,
        doi: r.doi,
        status: r.status,
        notices: kindsOf(r.kinds),
        checkedAt: r.checked_at,
      }))
      .sort((a, b) => severity(b.status) - severity(a.status) || a.id - b.id);
  }

  /** Status changes, newest first; by default only those the user has not seen. */
  statusChanges(options: { unseenOnly?: boolean; limit?: number } = {}): StatusChange[] {
    const unseenOnly = options.unseenOnly ?? true;
    const rows = this.#r.all<StatusChangeRow>(sql`
      SELECT ${STATUS_CHANGE_COLUMNS} FROM status_changes ${unseenOnly ? sql`WHERE seen_at IS NULL` : sql``}
      ORDER BY id DESC LIMIT ${options.limit ?? 500}`);
    return this.#withItems(this.#r, rows);
  }

  /** Marks changes as seen (all unseen ones when no ids are given); returns how many were marked. */
  markStatusChangesSeen(ids?: readonly number[]): number {
    const now = this.#now();
    if (ids === undefined)
      return this.#w.run(sql`UPDATE status_changes SET seen_at = ${now} WHERE seen_at IS NULL`).changes;
    let n = 0;
    this.#w.transaction(() => {
      inBatches(ids, (batch) => {
        n += this.#w.run(
          sql`UPDATE status_changes SET seen_at = ${now} WHERE seen_at IS NULL AND id IN ${inList(batch)}`,
        ).changes;
        return [];
      });
    });
    return n;
  }

  // ── Internals ──

  #resolve(scope: EnrichScope): { dois: string[]; withoutDoi: number } {
    let rows: { doi: string | null }[];
    switch (scope.kind) {
      case 'library':
        rows = this.#r.all(sql`SELECT doi FROM items WHERE trashed_at IS NULL ORDER BY id`);
        break;
      case 'items':
        rows = inBatches(scope.ids, (batch) =>
          this.#r.all<{ doi: string | null }>(
            sql`SELECT doi FROM items WHERE id IN ${inList(batch)} AND trashed_at IS NULL`,
          ),
        );
        break;
      case 'collection':
      case 'query': {
        rows = [];
        let cursor: string | null = null;
        do {
          const page = this.#library.listing.list({
            ...(scope.kind === 'collection'
              ? { collectionId: scope.id, includeSubcollections: true }
              : { query: scope.query }),
            sort: { column: 'dateAdded', direction: 'asc' },
            limit: 1000,
            cursor,
          });
          rows.push(...page.rows);
          cursor = page.nextCursor;
        } while (cursor);
        break;
      }
      case 'dois': {
        const dois: string[] = [];
        for (const raw of scope.dois) {
          const d = parseDoi(raw);
          if (!d.ok) throw new CoreError('INVALID_INPUT', `"${raw}" is not a valid DOI: ${d.reason}`);
          dois.push(d.doi);
        }
        return { dois: [...new Set(dois)], withoutDoi: 0 };
      }
    }
    const dois = new Set<string>();
    let withoutDoi = 0;
    for (const r of rows) {
      if (r.doi) dois.add(r.doi);
      else withoutDoi++;
    }
    return { dois: [...dois], withoutDoi };
  }

  #queue(entries: readonly QueuedDoi[], reason: EnrichReason, label: string): number {
    return this.#w.transaction(() => {
      const now = this.#now();
      const runId = Number(
        this.#w.run(
          sql`INSERT INTO enrich_runs (label, reason, state, total, created_at, updated_at) VALUES (${label}, ${reason}, 'running', ${entries.length}, ${now}, ${now})`,
        ).lastInsertRowid,
      );
      const raw = this.#w.raw;
      const existing = raw.prepare('SELECT run_id FROM enrich_queue WHERE doi = ?').pluck();
      const shrink = raw.prepare('UPDATE enrich_runs SET total = total - 1 WHERE id = ?');
      const move = raw.prepare(
        'UPDATE enrich_queue SET run_id = ?, needs = needs | ?, attempts = 0, last_error = NULL WHERE doi = ?',
      );
      const insert = raw.prepare('INSERT INTO enrich_queue (doi, run_id, needs) VALUES (?, ?, ?)');
      const moved = new Set<number>();
      for (const e of entries) {
        const from = existing.get(e.doi) as number | undefined;
        if (from === undefined) insert.run(e.doi, runId, e.needs);
        else {
          shrink.run(from);
          moved.add(from);
          move.run(runId, e.needs, e.doi);
        }
      }
      for (const id of moved) this.#settle(id);
      return runId;
    });
  }

  /** A run with nothing left in the queue is done. */
  #settle(runId: number): void {
    this.#w.run(sql`UPDATE enrich_runs SET state = 'done', message = '', updated_at = ${this.#now()}
      WHERE id = ${runId} AND state IN ('running', 'paused') AND NOT EXISTS (SELECT 1 FROM enrich_queue WHERE run_id = ${runId})`);
  }

  /** Recomputes the status of these DOIs from their cached notices and records each change once. */
  #reconcile(dois: readonly string[], now: number): StatusChange[] {
    const raw = this.#w.raw;
    const notices = raw.prepare('SELECT retracted, kinds FROM service_notices WHERE doi = ? AND found = 1');
    const previous = raw.prepare('SELECT status FROM item_status WHERE doi = ?').pluck();
    const upsert = raw.prepare(`INSERT INTO item_status (doi, status, kinds, checked_at) VALUES (?, ?, ?, ?)
      ON CONFLICT(doi) DO UPDATE SET status = excluded.status, kinds = excluded.kinds, checked_at = excluded.checked_at`);
    const record = raw.prepare('INSERT INTO status_changes (doi, previous, current, changed_at) VALUES (?, ?, ?, ?)');
    const ids: number[] = [];
    for (const doi of new Set(dois)) {
      const n = notices.get(doi) as { retracted: number | null; kinds: string } | undefined;
      if (!n) continue;
      const status = statusFromNotices(kindsOf(n.kinds), n.retracted === 1 ? true : null);
      const before = previous.get(doi) as ItemStatus | undefined;
      upsert.run(doi, status, n.kinds, now);
      const changed = before === undefined ? status !== 'none' : before !== status;
      if (changed) ids.push(Number(record.run(doi, before ?? null, status, now).lastInsertRowid));
    }
    if (ids.length === 0) return [];
    const rows = inBatches(ids, (batch) =>
      this.#w.all<StatusChangeRow>(
        sql`SELECT ${STATUS_CHANGE_COLUMNS} FROM status_changes WHERE id IN ${inList(batch)} ORDER BY id`,
      ),
    );
    return this.#withItems(this.#w, rows);
  }

  #withItems(db: ReadDb, rows: StatusChangeRow[]): StatusChange[] {
    const items = db.raw.prepare(
      'SELECT id, citation_key AS citationKey, title FROM items WHERE doi = ? AND trashed_at IS NULL ORDER BY id',
    );
    return rows.map((r) => ({
      id: r.id,
      doi: r.doi,
      items: items.all(r.doi) as StatusChange['items'],
      previous: r.previous,
      current: r.current,
      changedAt: r.changed_at,
      seenAt: r.seen_at,
    }));
  }
}

function normDoi(doi: string): string | null {
  const p = parseDoi(doi);
  return p.ok ? p.doi : null;
}

function describeScope(scope: EnrichScope): string {
  switch (scope.kind) {
    case 'library':
      return 'Enrich the library';
    case 'items':
      return scope.ids.length === 1 ? 'Enrich an item' : `Enrich ${scope.ids.length} items`;
    case 'collection':
      return `Enrich collection ${scope.id}`;
    case 'query':
      return `Enrich "${scope.query.slice(0, 60)}"`;
    case 'dois':
      return scope.dois.length === 1 ? `Enrich ${scope.dois[0]}` : `Enrich ${scope.dois.length} DOIs`;
  }
}
