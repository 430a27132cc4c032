// The sync engine, in the core: one connection to the shared library's PostgreSQL, LISTEN for what
// other members write, and the loop that pulls, pushes and moves attachment files. The replica's side
// (documents, merges, conflicts) is the library worker's SyncStore; this side only moves rows and bytes,
// so the thread that answers the UI never parses a document.
//
// Order within one cycle: pull (everything after the cursor, page by page, each page one SQLite
// transaction with the cursor), then push (changed objects, 1,000 per PostgreSQL transaction, each
// naming the version it was based on), then files. A failure anywhere leaves both sides consistent:
// a page or a push is applied whole or not at all, and the next cycle starts from what was recorded.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type pg from 'pg';
import type { MemberRole, SyncPhase, SyncStatus } from '../../../shared/model/sync';
import { CoreError } from '../errors';
import type { Logger } from '../log';
import type { SecretStore } from '../secrets';
import type { AsyncStore } from '../library/client';
import {
  accountOfTarget,
  connectTo,
  connectionError,
  describeTarget,
  isOffline,
  parseSyncUrl,
  syncUrlOf,
  type SyncTarget,
} from './connection';
import { REQUIRED_SERVER_VERSION } from './server/migrations';
import { LATEST_SERVER_VERSION, serverSchema } from './server/migrate';
import { myRole } from './server/members';
import { MAX_DOC_CHARS } from './store';
import type { ApplySummary, PushEntry, ServerRow } from './types';

/** The worker's SyncStore, as the core reaches it (LibraryClient.sync). */
export type SyncStoreClient = AsyncStore<'sync'>;

export const PULL_PAGE = 2000;
export const PUSH_BATCH = 1000;
/** Attachment files move in chunks of this size (one row of citewise.blob_chunks each). */
export const CHUNK_BYTES = 1024 * 1024;
export const OBJECT_LOCK = "hashtext('citewise.objects')";

export interface SyncEngineOptions {
  store: SyncStoreClient;
  secrets: SecretStore;
  logger: Logger;
  /** For scripts and CI: a password that wins over the keychain for this run (CITEWISE_SYNC_PASSWORD). */
  envPassword?: string | undefined;
  onStatus?: (status: SyncStatus) => void;
  /** Told after the server's changes were applied here (what changed), or conflicts appeared. */
  onApplied?: (summary: ApplySummary) => void;
  /** Tests shorten the waits. */
  timing?: Partial<{
    retryMinMs: number;
    retryMaxMs: number;
    pollMs: number;
    pushDelayMs: number;
    connectTimeoutMs: number;
  }>;
  /** The connection, replaced in tests of hostile servers. */
  connect?: (target: SyncTarget, password: string | null) => Promise<pg.Client>;
}

export interface SyncReport {
  pulled: number;
  pushed: number;
  conflicts: number;
  rejected: { kind: string; uid: string; reason: string }[];
  notes: string[];
  filesDown: number;
  filesUp: number;
}

interface Wake {
  promise: Promise<void>;
  resolve: () => void;
}

function wakeable(): Wake {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export class SyncEngine {
  readonly #o: SyncEngineOptions;
  readonly #timing: Required<NonNullable<SyncEngineOptions['timing']>>;
  #target: SyncTarget | null = null;
  #client: pg.Client | null = null;
  #phase: SyncPhase = 'off';
  #message: string | null = null;
  #role: MemberRole | null = null;
  #libraryName: string | null = null;
  #running: Promise<void> | null = null;
  #wake: Wake = wakeable();
  #stopped = true;
  #closed = false;
  #cycle: Promise<SyncReport> | null = null;
  #again = false;
  #lastStatus = '';
  #transfers = { downloading: 0, uploading: 0 };
  #pushTimer: NodeJS.Timeout | null = null;

  constructor(options: SyncEngineOptions) {
    this.#o = options;
    this.#timing = {
      retryMinMs: 1000,
      retryMaxMs: 60_000,
      pollMs: 30_000,
      pushDelayMs: 50,
      connectTimeoutMs: 10_000,
      ...options.timing,
    };
  }

  // ── Connecting ──

  /**
   * Shares this library with the server's: checks the address, the password (kept in the keychain),
   * the server's schema and this member's role, then starts syncing. The first connection of a library
   * pushes everything in it.
   */
  async connect(url: string, password?: string | null, options: { start?: boolean } = {}): Promise<SyncStatus> {
    const parsed = parseSyncUrl(url);
    const target = parsed.target;
    const secret = password ?? parsed.password;
    if (secret !== null && secret !== undefined && secret !== '')
      await this.#o.secrets.set(accountOfTarget(target), secret);
    await this.stop();
    const client = await this.#open(target);
    try {
      const schema = await this.#checkServer(client, target);
      const role = await myRole(client);
      if (role === null)
        throw new CoreError(
          'FORBIDDEN',
          `${target.user} is not a member of the library on ${describeTarget(target)}; ask its admin to add you.`,
        );
      await this.#o.store.share(schema.libraryId, syncUrlOf(target));
      this.#role = role;
      this.#libraryName = schema.libraryName;
    } finally {
      await client.end().catch(() => {});
    }
    this.#target = target;
    if (options.start ?? true) this.start();
    return this.status();
  }

  /** Starts syncing a library shared before (at the app's start). Does nothing when it is not shared. */
  async resume(): Promise<void> {
    const state = await this.#o.store.state();
    if (!state.shared || !state.url) {
      this.#setPhase('off', null);
      return;
    }
    this.#target = parseSyncUrl(state.url).target;
    this.start();
  }

  start(): void {
    if (this.#closed || !this.#target || this.#running) return;
    this.#stopped = false;
    this.#running = this.#loop().finally(() => {
      this.#running = null;
    });
  }

  /** Stops syncing for now (changes keep being tracked). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake.resolve();
    if (this.#pushTimer) clearTimeout(this.#pushTimer);
    this.#pushTimer = null;
    await this.#dropClient();
    await this.#running;
    await this.#cycle?.catch(() => {});
  }

  /**
   * Disconnects: the address is forgotten and the password removed from the keychain. `leave` also drops
   * every sync record (sharing again starts over); without it, connecting again resumes where it was.
   */
  async disconnect(options: { leave?: boolean } = {}): Promise<SyncStatus> {
    await this.stop();
    // In a process that never synced (`citewise sync disconnect`) the address is only in the replica.
    const url = this.#target ? null : (await this.#o.store.state()).url;
    const target = this.#target ?? (url ? parseSyncUrl(url).target : null);
    this.#target = null;
    if (target) await this.#o.secrets.clear(accountOfTarget(target)).catch(() => {});
    if (options.leave) await this.#o.store.leave();
    else await this.#o.store.forgetUrl();
    this.#role = null;
    this.#setPhase('off', null);
    return this.status();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.stop();
  }

  /** A change was made here: push it soon (debounced, so a burst of edits goes in one transaction). */
  localChange(): void {
    if (this.#stopped || this.#pushTimer) return;
    this.#pushTimer = setTimeout(() => {
      this.#pushTimer = null;
      this.#again = true;
      this.#wake.resolve();
    }, this.#timing.pushDelayMs);
    this.#pushTimer.unref?.();
  }

  /** Syncs now and says what happened (`citewise sync`, Sync now). Connects first when needed. */
  async syncNow(): Promise<SyncReport> {
    if (!this.#target) {
      const state = await this.#o.store.state();
      if (!state.shared || !state.url)
        throw new CoreError('NOT_FOUND', 'This library is not shared; connect it to a server first.');
      this.#target = parseSyncUrl(state.url).target;
    }
    if (this.#cycle) await this.#cycle.catch(() => {});
    try {
      return await this.#runCycle(await this.#ensureClient());
    } catch (err) {
      if (!isOffline(err)) throw this.#failed(err);
      // The connection kept from before may have broken meanwhile: once more on a new one.
      await this.#dropClient();
      try {
        return await this.#runCycle(await this.#ensureClient());
      } catch (again) {
        throw this.#failed(again);
      }
    }
  }

  /**
   * Reaches the server without syncing, so the status knows this member's role and the library's name,
   * or why the server cannot be reached (`citewise sync status`). Does nothing when the library is not shared.
   */
  async check(): Promise<void> {
    if (!this.#target) {
      const state = await this.#o.store.state();
      if (!state.shared || !state.url) return;
      this.#target = parseSyncUrl(state.url).target;
    }
    try {
      await this.#ensureClient();
      if (this.#phase === 'connecting') this.#setPhase('idle', null);
    } catch (err) {
      this.#failed(err);
    }
  }

  /** The connection's and the replica's state, as the status bar shows it. */
  async status(): Promise<SyncStatus> {
    const s = await this.#o.store.state();
    const options = await this.#o.store.options();
    const phase: SyncPhase = s.shared && s.url ? this.#phase : 'off';
    return {
      phase,
      url: s.url,
      libraryName: this.#libraryName,
      role: this.#role,
      pending: s.pending,
      conflicts: s.conflicts,
      parked: s.parked,
      lastSyncAt: Math.max(s.lastPullAt ?? 0, s.lastPushAt ?? 0) || null,
      message: phase === 'off' ? null : this.#message,
      files: { downloading: s.files.wanted, uploading: s.files.uploads, failed: s.files.failed },
      fetchFilesAhead: options.fetchFilesAhead,
    };
  }

  /**
   * A connection of its own for `run` (the member commands of Settings → Sharing), closed after: the
   * sync's connection may be inside a push's transaction.
   */
  async withConnection<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
    if (!this.#target) throw new CoreError('NOT_FOUND', 'This library is not shared; connect it to a server first.');
    const client = await this.#open(this.#target).catch((err: unknown) => {
      throw connectionError(err, this.#target!);
    });
    try {
      return await run(client);
    } finally {
      await client.end().catch(() => {});
    }
  }

  // ── The loop ──

  async #loop(): Promise<void> {
    let delay = this.#timing.retryMinMs;
    while (!this.#stopped) {
      try {
        const client = await this.#ensureClient();
        await this.#runCycle(client);
        delay = this.#timing.retryMinMs;
        if (this.#again) {
          this.#again = false;
          continue;
        }
        await this.#sleep(this.#timing.pollMs);
      } catch (err) {
        if (this.#stopped) break;
        const offline = isOffline(err);
        const e = this.#target ? connectionError(err, this.#target) : (err as Error);
        await this.#dropClient();
        this.#setPhase(offline ? 'offline' : 'error', e.message);
        if (!offline) this.#o.logger.warn(`sync: ${e.message}`);
        await this.#sleep(delay);
        delay = Math.min(delay * 2, this.#timing.retryMaxMs);
      }
    }
  }

  async #sleep(ms: number): Promise<void> {
    const wake = this.#wake;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([wake.promise, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
    if (this.#wake === wake) this.#wake = wakeable();
  }

  async #ensureClient(): Promise<pg.Client> {
    if (this.#client) return this.#client;
    const target = this.#target!;
    this.#setPhase('connecting', null);
    const client = await this.#open(target);
    try {
      const schema = await this.#checkServer(client, target);
      const state = await this.#o.store.state();
      if (state.libraryId !== null && state.libraryId !== schema.libraryId)
        throw new CoreError(
          'CONFLICT',
          `The database ${target.database} holds another library than the one this library is shared with; nothing was synced. Check the address in Settings → Sharing.`,
        );
      this.#libraryName = schema.libraryName;
      this.#role = await myRole(client);
      if (this.#role === null)
        throw new CoreError(
          'FORBIDDEN',
          `${target.user} is no longer a member of this library; changes made here stay here.`,
        );
      client.on('notification', (msg) => {
        if (msg.channel !== 'citewise_changes') return;
        this.#again = true;
        this.#wake.resolve();
      });
      client.on('error', () => {
        if (this.#client === client) void this.#dropClient().then(() => this.#wake.resolve());
      });
      await client.query('LISTEN citewise_changes');
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    this.#client = client;
    return client;
  }

  async #open(target: SyncTarget): Promise<pg.Client> {
    const password = this.#o.envPassword ?? (await this.#o.secrets.get(accountOfTarget(target)));
    if (this.#o.connect) return this.#o.connect(target, password);
    return connectTo(target, password, {
      connectTimeoutMs: this.#timing.connectTimeoutMs,
      statementTimeoutMs: 120_000,
      applicationName: 'citewise sync',
    });
  }

  async #checkServer(client: pg.Client, target: SyncTarget): Promise<{ libraryId: string; libraryName: string }> {
    const schema = await serverSchema(client).catch((err: unknown) => {
      throw connectionError(err, target);
    });
    if (schema.version === 0 || !schema.libraryId)
      throw new CoreError(
        'NOT_FOUND',
        `The database ${target.database} on ${target.host} holds no Citewise library; an admin creates one with "citewise server init".`,
      );
    if (schema.version > LATEST_SERVER_VERSION)
      throw new CoreError(
        'CONFLICT',
        `The server's library was set up by a newer Citewise (server schema ${schema.version}; this one knows up to ${LATEST_SERVER_VERSION}); update Citewise to sync it.`,
      );
    if (schema.version < REQUIRED_SERVER_VERSION)
      throw new CoreError(
        'CONFLICT',
        `The server's library is older than this Citewise needs (server schema ${schema.version}, needs ${REQUIRED_SERVER_VERSION}); its admin brings it up to date with "citewise server migrate".`,
      );
    return { libraryId: schema.libraryId, libraryName: schema.libraryName ?? '' };
  }

  /** A failed cycle: the phase says so, and the error is a sentence naming the server. */
  #failed(err: unknown): Error {
    const e = this.#target ? connectionError(err, this.#target) : (err as Error);
    this.#setPhase(isOffline(err) ? 'offline' : 'error', e.message);
    void this.#dropClient();
    return e;
  }

  async #dropClient(): Promise<void> {
    const c = this.#client;
    this.#client = null;
    if (c) await c.end().catch(() => {});
  }

  #setPhase(phase: SyncPhase, message: string | null): void {
    this.#phase = phase;
    this.#message = message;
    void this.#emit();
  }

  async #emit(): Promise<void> {
    if (!this.#o.onStatus) return;
    try {
      const status = await this.status();
      const text = JSON.stringify(status);
      if (text === this.#lastStatus) return;
      this.#lastStatus = text;
      this.#o.onStatus(status);
    } catch {
      // The library is closing.
    }
  }

  #runCycle(client: pg.Client): Promise<SyncReport> {
    const run = (async (): Promise<SyncReport> => {
      this.#setPhase('syncing', null);
      const report: SyncReport = {
        pulled: 0,
        pushed: 0,
        conflicts: 0,
        rejected: [],
        notes: [],
        filesDown: 0,
        filesUp: 0,
      };
      await this.#pull(client, report);
      const stale = await this.#push(client, report);
      if (stale) await this.#pull(client, report);
      await this.#files(client, report);
      const pending = this.#role === 'reader' ? (await this.#o.store.state()).pending : 0;
      this.#setPhase(
        'idle',
        pending > 0
          ? `You are a reader of this library: ${pending} change(s) made here stay on this machine.`
          : report.rejected.length
            ? `${report.rejected.length} object(s) from the server were refused as malformed (see the sync log).`
            : null,
      );
      return report;
    })();
    this.#cycle = run;
    return run.finally(() => {
      if (this.#cycle === run) this.#cycle = null;
    });
  }

  // ── Pull ──

  async #pull(client: pg.Client, report: SyncReport): Promise<void> {
    try {
      await this.#pullPages(client, report);
    } catch (err) {
      // A first sync cut short builds its deferred sort indexes now (the rest then arrives row by row);
      // what stopped it is the error said.
      await this.#o.store.finishPull().catch(() => {});
      throw err;
    }
    // A first sync into an empty library builds the sort indexes it deferred, once each.
    await this.#o.store.finishPull();
  }

  async #pullPages(client: pg.Client, report: SyncReport): Promise<void> {
    let page = this.#page(client, await this.#o.store.cursor());
    for (;;) {
      const r = await page;
      if (r.rows.length === 0) return;
      const rows = r.rows.map(toServerRow);
      const versions = rows.map((x) => x.version).filter((v) => Number.isSafeInteger(v) && v > r.after);
      if (versions.length === 0)
        throw new CoreError(
          'SERVICE_ERROR',
          "The server answered with rows that have no valid versions; sync stopped so that nothing is applied wrongly. Tell the library's admin.",
        );
      const next = Math.max(...versions);
      const more = r.rows.length >= PULL_PAGE;
      // The next page is asked for while the library worker applies this one: the server, the
      // network and the worker work at once instead of in turn.
      if (more) {
        page = this.#page(client, next);
        page.catch(() => {});
      }
      const summary = await this.#o.store.applyPull(rows, next);
      this.#report(summary, report);
      report.pulled += summary.applied;
      if (!more) return;
    }
  }

  async #page(client: pg.Client, after: number): Promise<{ rows: Record<string, unknown>[]; after: number }> {
    const r = await client.query<Record<string, unknown>>(
      // Each document made text once (OFFSET 0 keeps the planner from repeating it per use).
      `SELECT kind, uid, version, deleted,
         CASE WHEN octet_length(t.text) > $3 THEN NULL ELSE t.text END AS data,
         octet_length(t.text) AS size, modified_by,
         (extract(epoch FROM modified_at) * 1000)::bigint AS modified_at
       FROM (SELECT * FROM citewise.objects WHERE version > $1 ORDER BY version LIMIT $2) o
       CROSS JOIN LATERAL (SELECT o.data::text AS text OFFSET 0) t
       ORDER BY version`,
      [after, PULL_PAGE, MAX_DOC_CHARS],
    );
    return { rows: r.rows, after };
  }

  #report(summary: ApplySummary, report: SyncReport): void {
    report.conflicts += summary.conflicts;
    report.rejected.push(...summary.rejected);
    report.notes.push(...summary.notes);
    for (const rej of summary.rejected) this.#o.logger.warn(`sync: refused ${rej.kind} ${rej.uid}: ${rej.reason}`);
    if (summary.applied > 0 || summary.conflicts > 0 || summary.notes.length > 0) this.#o.onApplied?.(summary);
  }

  // ── Push ──

  /** Pushes every changed object; true when some had changed on the server (then a pull follows). */
  async #push(client: pg.Client, report: SyncReport): Promise<boolean> {
    if (this.#role === 'reader') return false;
    let anyStale = false;
    for (let round = 0; round < 10_000; round++) {
      const batch = await this.#o.store.preparePush(PUSH_BATCH);
      if (batch.entries.length === 0) break;
      const { accepted, stale, cursor } = await this.#pushBatch(client, batch.entries);
      const summary = await this.#o.store.pushed(batch.entries, accepted, stale, cursor);
      this.#report(summary, report);
      report.pushed += accepted.length;
      if (stale.length > 0) anyStale = true;
      if (!batch.more && stale.length === 0) break;
    }
    await this.#o.store.queueUploads((await this.#o.store.options()).maxFileBytes);
    return anyStale;
  }

  async #pushBatch(
    client: pg.Client,
    entries: readonly PushEntry[],
  ): Promise<{
    accepted: { kind: string; uid: string; version: number }[];
    stale: ServerRow[];
    cursor: { from: number; to: number } | undefined;
  }> {
    // Writers go one at a time (the versions' order is the commits' order); the lock is taken first, so
    // that two pushes touching the same objects queue instead of deadlocking on their rows. One round
    // trip for the three (a simple query: no parameters).
    try {
      const opened = (await client.query(
        `BEGIN; SELECT pg_advisory_xact_lock(${OBJECT_LOCK}); SELECT coalesce(max(version), 0) AS max FROM citewise.objects`,
      )) as unknown as pg.QueryResult<{ max: number }>[];
      const before = opened[2]!;
      // The documents go as one JSON array (each already JSON text, joined as it is: nothing escaped
      // again, as a text[] parameter would be), matched to the other columns by position.
      const docs = `[${entries.map((e) => e.data ?? 'null').join(',')}]`;
      const r = await client.query<{ kind: string; uid: string; version: number }>(
        `WITH input AS (
           SELECT t.kind, t.uid, t.base, CASE WHEN jsonb_typeof(d.value) = 'object' THEN d.value END AS data
           FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS t(kind, uid, base, n)
           JOIN jsonb_array_elements($4::jsonb) WITH ORDINALITY AS d(value, n) ON d.n = t.n
         ), upd AS (
           UPDATE citewise.objects o SET data = i.data, deleted = i.data IS NULL
           FROM input i WHERE i.base > 0 AND o.kind = i.kind AND o.uid = i.uid AND o.version = i.base
           RETURNING o.kind, o.uid, o.version
         ), ins AS (
           INSERT INTO citewise.objects (kind, uid, data, deleted, version, modified_by, modified_at)
           SELECT i.kind, i.uid, i.data, i.data IS NULL, 0, '', now() FROM input i WHERE i.base = 0
           ON CONFLICT (kind, uid) DO NOTHING
           RETURNING kind, uid, version
         )
         SELECT kind, uid, version FROM upd UNION ALL SELECT kind, uid, version FROM ins`,
        [entries.map((e) => e.kind), entries.map((e) => e.uid), entries.map((e) => e.baseVersion), docs],
      );
      const done = new Set(r.rows.map((a) => `${a.kind} ${a.uid}`));
      const missed = entries.filter((e) => !done.has(`${e.kind} ${e.uid}`));
      let stale: ServerRow[] = [];
      if (missed.length > 0) {
        const s = await client.query<Record<string, unknown>>(
          `SELECT o.kind, o.uid, o.version, o.deleted, o.data::text AS data, o.modified_by,
             (extract(epoch FROM o.modified_at) * 1000)::bigint AS modified_at
           FROM citewise.objects o JOIN unnest($1::text[], $2::text[]) AS t(kind, uid) ON o.kind = t.kind AND o.uid = t.uid`,
          [missed.map((e) => e.kind), missed.map((e) => e.uid)],
        );
        stale = s.rows.map(toServerRow);
      }
      await client.query('COMMIT');
      const accepted = r.rows.map((a) => ({ kind: a.kind, uid: a.uid, version: Number(a.version) }));
      const to = accepted.reduce((m, a) => Math.max(m, a.version), 0);
      return { accepted, stale, cursor: accepted.length ? { from: Number(before.rows[0]!.max), to } : undefined };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      const code = (err as { code?: string }).code;
      if (code === '42501') {
        this.#role = await myRole(client).catch(() => this.#role);
        throw new CoreError(
          'FORBIDDEN',
          'The server refused the changes made here: your role in this library does not allow writing. They stay on this machine.',
        );
      }
      throw err;
    }
  }

  // ── Attachment files ──

  async #files(client: pg.Client, report: SyncReport): Promise<void> {
    if (this.#role !== 'reader') {
      for (const f of await this.#o.store.filesToUpload(20)) {
        try {
          if (await this.#upload(client, f.sha256, f.path)) report.filesUp++;
        } catch (err) {
          if (isOffline(err)) throw err;
          await this.#o.store.fileProgress(f.sha256, { state: 'failed', error: messageOf(err) });
        }
      }
    }
    for (const f of await this.#o.store.filesToDownload(20)) {
      try {
        if (await this.download(f.sha256, f.path!, client)) report.filesDown++;
      } catch (err) {
        if (isOffline(err)) throw err;
        await this.#o.store.fileProgress(f.sha256, { state: 'failed', error: messageOf(err) });
      }
    }
  }

  /** Sends a file in chunks, skipping those the server has (resumes an interrupted upload). */
  async #upload(client: pg.Client, sha256: string, path: string | null): Promise<boolean> {
    if (!path) {
      await this.#o.store.fileProgress(sha256, { state: 'failed', error: 'No attachment with this file is left.' });
      return false;
    }
    const known = await client.query<{ size: number; complete: boolean }>(
      'SELECT size, complete FROM citewise.blobs WHERE sha256 = $1',
      [sha256],
    );
    if (known.rows[0]?.complete) {
      await this.#o.store.fileProgress(sha256, { state: 'done' });
      return false;
    }
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      await this.#o.store.fileProgress(sha256, { state: 'failed', error: `The file is missing here (${path}).` });
      return false;
    }
    if ((await hashFile(path)) !== sha256) {
      await this.#o.store.fileProgress(sha256, {
        state: 'failed',
        error: 'The file changed since it was attached (its checksum differs); it was not sent.',
      });
      return false;
    }
    this.#transfers.uploading++;
    try {
      await client.query(
        'INSERT INTO citewise.blobs (sha256, size, chunk_size) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING',
        [sha256, size, CHUNK_BYTES],
      );
      const have = new Set(
        (
          await client.query<{ idx: number }>('SELECT idx FROM citewise.blob_chunks WHERE sha256 = $1', [sha256])
        ).rows.map((r) => r.idx),
      );
      const fh = await open(path, 'r');
      try {
        const chunks = Math.ceil(size / CHUNK_BYTES);
        for (let idx = 0; idx < chunks; idx++) {
          if (have.has(idx)) continue;
          const buf = Buffer.alloc(Math.min(CHUNK_BYTES, size - idx * CHUNK_BYTES));
          await fh.read(buf, 0, buf.length, idx * CHUNK_BYTES);
          await client.query(
            'INSERT INTO citewise.blob_chunks (sha256, idx, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
            [sha256, idx, buf],
          );
          await this.#o.store.fileProgress(sha256, { doneBytes: Math.min(size, (idx + 1) * CHUNK_BYTES) });
        }
      } finally {
        await fh.close();
      }
      await client.query(
        `UPDATE citewise.blobs SET complete = true WHERE sha256 = $1
           AND (SELECT coalesce(sum(octet_length(data)), 0) FROM citewise.blob_chunks WHERE sha256 = $1) = size`,
        [sha256],
      );
      await this.#o.store.fileProgress(sha256, { state: 'done', doneBytes: size, error: null });
      return true;
    } finally {
      this.#transfers.uploading--;
    }
  }

  /**
   * Fetches a file into `path` (resuming a partial one), checks its SHA-256, then moves it into place.
   * False when the server does not have all of it yet.
   */
  async download(sha256: string, path: string, given?: pg.Client): Promise<boolean> {
    const client = given ?? (await this.#ensureClient());
    const blob = await client.query<{ size: number; chunk_size: number; complete: boolean }>(
      'SELECT size, chunk_size, complete FROM citewise.blobs WHERE sha256 = $1',
      [sha256],
    );
    const b = blob.rows[0];
    if (!b || !b.complete) return false;
    const size = Number(b.size);
    const chunkSize = Number(b.chunk_size);
    if (!Number.isSafeInteger(size) || !Number.isSafeInteger(chunkSize) || chunkSize <= 0)
      throw new CoreError('SERVICE_ERROR', 'The server described the file with invalid sizes.');
    const part = `${path}.part`;
    await mkdir(dirname(path), { recursive: true });
    const partSize = await stat(part).then(
      (s) => s.size,
      () => 0,
    );
    // Whole chunks only: a chunk cut short by a crash is fetched again.
    const have = Math.min(size, partSize - (partSize % chunkSize));
    this.#transfers.downloading++;
    const fh = await open(part, have > 0 ? 'r+' : 'w');
    try {
      await fh.truncate(have);
      for (let idx = have / chunkSize; idx * chunkSize < size; idx++) {
        const r = await client.query<{ data: Buffer }>(
          'SELECT data FROM citewise.blob_chunks WHERE sha256 = $1 AND idx = $2',
          [sha256, idx],
        );
        const data = r.rows[0]?.data;
        const expected = Math.min(chunkSize, size - idx * chunkSize);
        if (!Buffer.isBuffer(data) || data.length !== expected)
          throw new CoreError(
            'SERVICE_ERROR',
            `Part ${idx + 1} of the file is missing or has the wrong size on the server.`,
          );
        await fh.write(data, 0, data.length, idx * chunkSize);
        await this.#o.store.fileProgress(sha256, { doneBytes: idx * chunkSize + data.length });
      }
      await fh.sync();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT')
        throw new CoreError(
          'INTERNAL',
          `The disk is full: the attachment file could not be saved (${path}); it will be fetched again when there is room.`,
        );
      throw err;
    } finally {
      await fh.close();
      this.#transfers.downloading--;
    }
    if ((await hashFile(part)) !== sha256) {
      await rm(part, { force: true });
      throw new CoreError('SERVICE_ERROR', 'The file from the server does not match its checksum; it was discarded.');
    }
    await rename(part, path);
    await this.#o.store.fileProgress(sha256, { state: 'done', doneBytes: size, error: null });
    return true;
  }
}

/** A row as pulled, with its values as they came: the worker checks every one of them. */
function toServerRow(r: Record<string, unknown>): ServerRow {
  const huge = (typeof r.data === 'string' && r.data.length > MAX_DOC_CHARS) || Number(r.size) > MAX_DOC_CHARS;
  const data = huge ? null : r.data;
  return {
    ...(huge ? { tooLarge: true } : {}),
    kind: r.kind as string,
    uid: r.uid as string,
    version: typeof r.version === 'number' ? r.version : (r.version as number),
    deleted: r.deleted as boolean,
    data: (data ?? null) as string | null,
    modifiedBy: typeof r.modified_by === 'string' ? r.modified_by.slice(0, 200) : '',
    modifiedAt: Number(r.modified_at) || 0,
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
