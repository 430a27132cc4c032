// The replica's side of sync, in the library worker (LibraryClient.sync): what to push (the objects the
// change log marked, as documents), what a push's answer means, applying pages pulled from the server
// (three-way merges, conflicts kept on both sides, deletes that give way to edits), parked objects,
// conflicts and their resolution. Every method is one SQLite transaction: a crash, a full disk or a
// dropped connection leaves the replica as it was before it, with the pull cursor moved only with the
// rows it covers, so nothing is lost and nothing is applied twice.
import { randomUUID } from 'node:crypto';
import { CoreError } from '../errors';
import { DEFERRED_INDEXES, ImportSession } from '../library/import-session';
import { writeSearchIndex } from '../library/search-index';
import { arrayOf, isObject, readStored } from '../library/stored-json';
import { sql, inList, type ReadDb, type WriteDb } from '../library/sql';
import { chunk } from '../library/library-base';
import type { ItemId } from '../library/types';
import { SyncWriter, type LocalId, type SyncContext } from './context';
import { KIND_BY_NAME, SYNC_KINDS, kindOrder, type SyncKind } from './kinds';
import { mergeDocs, sameDoc, withoutConflicts, type Doc, type Json } from './merge';
import type {
  ApplySummary,
  PushEntry,
  PushBatch,
  ServerRow,
  SyncConflict,
  SyncLogEntry,
  ReplicaState,
  FileTransfer,
} from './types';

/** A document from the server larger than this is refused before it is parsed. */
export const MAX_DOC_CHARS = 4 * 1024 * 1024 + 1024;
/**
 * A first sync into an empty library whose first page has at least this many rows is a bulk load: the
 * items' sort indexes an import into an empty library defers (import-session.ts) are dropped at its
 * first page, and no item gets its search row as it arrives; both are built once, in one pass each,
 * when the pull ends (finishPull). Smaller first syncs keep them: building them costs a scan of the
 * table, more than a few hundred rows' index updates.
 */
export const BULK_FIRST_SYNC_ROWS = 1000;
/**
 * The items' indexes of those: items_doi stays (enrichment's tallies arriving with the items update
 * their item by DOI through the service_tallies triggers, a scan of the table per row without it), and
 * item_origins gets no rows from a sync.
 */
const SYNC_DEFERRED: readonly string[] = DEFERRED_INDEXES.filter(
  (name) => name.startsWith('items_') && name !== 'items_doi',
);
/** A deferred index's own CREATE statement, as the migrations made it (read back from sync_state). */
const INDEX_DDL = /^CREATE INDEX (items_[a-z_]+) ON items ?\([a-z_, ]+\)$/;

/** Attachment files larger than this are not moved unless the user says otherwise (Settings → Sharing). */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;

export interface SyncStoreOptions {
  write: WriteDb;
  read: ReadDb;
  now?: () => number;
  /** Where attachment files from the server are kept. */
  filesDir: string;
}

interface ObjectRow {
  local_id: LocalId;
  uid: string;
  version: number;
  base: string | null;
}

const NUL = /\\u0000/g;
/** The server's jsonb refuses NUL characters: they travel as U+FFFD (and the comparison uses the same text). */
const wire = (doc: Doc | null): string | null => (doc === null ? null : JSON.stringify(doc).replace(NUL, '\\ufffd'));

export class SyncStore {
  readonly #w: WriteDb;
  readonly #r: ReadDb;
  readonly #now: () => number;
  readonly #writer: SyncWriter;
  readonly #filesDir: string;
  /** Whether sync_parked has rows, within one #apply (a first sync parks none: no delete per row). */
  #anyParked = true;

  constructor(options: SyncStoreOptions) {
    this.#w = options.write;
    this.#r = options.read;
    this.#now = options.now ?? Date.now;
    this.#filesDir = options.filesDir;
    this.#writer = new SyncWriter({ write: options.write, read: options.read, now: this.#now });
  }

  // ── State ──

  /** Whether the library is shared, with which server library, and what waits. */
  state(): ReplicaState {
    const s = this.#settings(this.#r);
    const count = (q: ReturnType<typeof sql>): number => this.#r.get<{ n: number }>(q)?.n ?? 0;
    return {
      shared: this.#r.get<{ tracking: number }>(sql`SELECT tracking FROM sync_flags WHERE id = 1`)?.tracking === 1,
      libraryId: s.get('library') ?? null,
      url: s.get('url') ?? null,
      cursor: Number(s.get('cursor') ?? 0),
      pending: count(sql`SELECT count(*) AS n FROM sync_dirty`),
      conflicts: count(sql`SELECT count(DISTINCT kind || ' ' || uid) AS n FROM sync_conflicts`),
      parked: count(sql`SELECT count(*) AS n FROM sync_parked`),
      lastPullAt: s.has('lastPullAt') ? Number(s.get('lastPullAt')) : null,
      lastPushAt: s.has('lastPushAt') ? Number(s.get('lastPushAt')) : null,
      files: {
        wanted: count(sql`SELECT count(*) AS n FROM sync_files WHERE direction = 'download' AND state = 'wanted'`),
        uploads: count(sql`SELECT count(*) AS n FROM sync_files WHERE direction = 'upload' AND state = 'wanted'`),
        failed: count(sql`SELECT count(*) AS n FROM sync_files WHERE state = 'failed'`),
      },
    };
  }

  /** How attachment files travel: fetched as they arrive or when opened, and the largest one moved. */
  options(): { fetchFilesAhead: boolean; maxFileBytes: number } {
    const s = this.#settings(this.#r);
    return {
      fetchFilesAhead: (s.get('fetchAhead') ?? '1') === '1',
      maxFileBytes: Number(s.get('maxFileBytes') ?? DEFAULT_MAX_FILE_BYTES),
    };
  }

  setOptions(o: { fetchFilesAhead?: boolean; maxFileBytes?: number }): {
    fetchFilesAhead: boolean;
    maxFileBytes: number;
  } {
    this.#w.transaction(() => {
      if (o.fetchFilesAhead !== undefined) {
        this.#set('fetchAhead', o.fetchFilesAhead ? 1 : 0);
        // Files waiting to be opened are fetched now, or the other way round.
        this.#w.run(
          sql`UPDATE sync_files SET state = ${o.fetchFilesAhead ? 'wanted' : 'on-demand'} WHERE direction = 'download' AND state = ${o.fetchFilesAhead ? 'on-demand' : 'wanted'}`,
        );
      }
      if (o.maxFileBytes !== undefined) this.#set('maxFileBytes', Math.max(1, Math.floor(o.maxFileBytes)));
    });
    return this.options();
  }

  /** The version this replica has pulled up to. */
  cursor(): number {
    return Number(this.#r.get<{ value: string }>(sql`SELECT value FROM sync_state WHERE key = 'cursor'`)?.value ?? 0);
  }

  #settings(db: ReadDb): Map<string, string> {
    return new Map(
      db.all<{ key: string; value: string }>(sql`SELECT key, value FROM sync_state`).map((r) => [r.key, r.value]),
    );
  }

  #set(key: string, value: string | number | null): void {
    if (value === null) this.#w.run(sql`DELETE FROM sync_state WHERE key = ${key}`);
    else
      this.#w.run(
        sql`INSERT INTO sync_state (key, value) VALUES (${key}, ${String(value)}) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      );
  }

  /**
   * Shares this library with the server's library `libraryId`: from now on every change is tracked.
   * The first time, every object is marked to be pushed. A library shared with another server library
   * is refused (CONFLICT): it would merge two libraries without being asked.
   */
  share(libraryId: string, url: string): { first: boolean } {
    return this.#w.transaction(() => {
      const current = this.#settings(this.#w).get('library');
      if (current !== undefined && current !== libraryId)
        throw new CoreError(
          'CONFLICT',
          'This library is already shared with another server library. Disconnect it first (its objects would otherwise be copied into that library), or use an empty data folder for the new one.',
        );
      const tracking =
        this.#w.get<{ tracking: number }>(sql`SELECT tracking FROM sync_flags WHERE id = 1`)!.tracking === 1;
      this.#set('library', libraryId);
      this.#set('url', url);
      if (tracking && current !== undefined) return { first: false };
      this.#w.run(sql`UPDATE sync_flags SET tracking = 1 WHERE id = 1`);
      if (current === undefined) {
        for (const kind of SYNC_KINDS)
          this.#w.raw
            .prepare(
              `INSERT INTO sync_dirty (kind, local_id) SELECT ?, * FROM (${kind.all}) WHERE true ON CONFLICT(kind, local_id) DO NOTHING`,
            )
            .run(kind.name);
      }
      return { first: current === undefined };
    });
  }

  /** Keeps the changes tracked but forgets the server's address (Disconnect): reconnecting resumes. */
  forgetUrl(): void {
    this.#w.transaction(() => this.#set('url', null));
  }

  /**
   * Leaves the shared library: nothing is tracked any more and every sync record is dropped; the items
   * stay as they are. Sharing again later starts over (every object pushed to the library then chosen).
   */
  leave(): void {
    // What a bulk first sync left to build at its end is recorded in sync_state, dropped below: built first.
    this.finishPull();
    this.#w.transaction(() => {
      this.#w.run(sql`UPDATE sync_flags SET tracking = 0, applying = 0 WHERE id = 1`);
      for (const t of ['sync_dirty', 'sync_objects', 'sync_conflicts', 'sync_parked', 'sync_files', 'sync_state'])
        this.#w.raw.exec(`DELETE FROM ${t}`);
    });
  }

  // ── Push ──

  /**
   * Up to `limit` changed objects as documents to push, parents first, each with the server version it
   * was based on. Fields in conflict are sent with the server's value (the local one waits for the
   * user). Objects whose document is what the server has already are cleared without a push.
   */
  preparePush(limit = 1000): PushBatch {
    return this.#w.transaction(() => {
      const ctx = this.#context();
      const entries: PushEntry[] = [];
      // Without any conflict (nearly always), no object has fields held back: no lookup per object.
      const anyConflicts = this.#w.get(sql`SELECT 1 AS x FROM sync_conflicts LIMIT 1`) !== undefined;
      for (const kind of SYNC_KINDS) {
        if (entries.length >= limit) break;
        let after: LocalId | null = null;
        for (;;) {
          const page = this.#w.raw
            .prepare(
              `SELECT d.local_id, d.mark, o.uid, o.version, o.base FROM sync_dirty d
               LEFT JOIN sync_objects o ON o.kind = d.kind AND o.local_id = d.local_id
               WHERE d.kind = ? ${after === null ? '' : 'AND d.local_id > ?'} ORDER BY d.local_id LIMIT 500`,
            )
            .all(...(after === null ? [kind.name] : [kind.name, after])) as {
            local_id: LocalId;
            mark: number;
            uid: string | null;
            version: number | null;
            base: string | null;
          }[];
          if (page.length === 0) break;
          after = page[page.length - 1]!.local_id;
          const docs = kind.read(
            ctx,
            page.map((p) => p.local_id),
          );
          for (const p of page) {
            const doc = docs.get(p.local_id) ?? null;
            const version = p.version ?? 0;
            if (version === 0 && doc === null) {
              // Created and deleted before it ever reached the server.
              this.#clearDirty(kind.name, p.local_id, p.mark);
              continue;
            }
            const uid = p.uid ?? this.#uid(ctx, kind, p.local_id);
            const held = anyConflicts ? this.#heldFields(kind.name, uid) : [];
            const base = this.#base(kind.name, uid, p.base);
            const send = doc === null ? null : withoutConflicts(doc, base, held);
            const text = send === null ? null : JSON.stringify(send);
            const data = text === null ? null : text.replace(NUL, '\\ufffd');
            // (Compared as sent: a NUL travels as U+FFFD, and the base holds what was sent.)
            const sent = data === null ? null : data === text ? send : (JSON.parse(data) as Doc);
            if (version > 0 && sameDoc(sent, base)) {
              // The server has this already (fields in conflict wait for the user in sync_conflicts).
              this.#clearDirty(kind.name, p.local_id, p.mark);
              continue;
            }
            entries.push({ kind: kind.name, uid, localId: p.local_id, baseVersion: version, data, mark: p.mark });
            if (entries.length >= limit) break;
          }
          if (entries.length >= limit || page.length < 500) break;
        }
      }
      const left = this.#w.get<{ n: number }>(sql`SELECT count(*) AS n FROM sync_dirty`)!.n;
      return { entries, more: left > entries.length };
    });
  }

  /**
   * What the server said to a push: `accepted` objects now have the version given (their sent document
   * is the new base, and the dirty mark is cleared unless the object changed again meanwhile); `stale`
   * ones had changed on the server, whose rows are merged here as a pull would.
   */
  pushed(
    entries: readonly PushEntry[],
    accepted: readonly { kind: string; uid: string; version: number }[],
    stale: readonly ServerRow[],
    cursor?: { from: number; to: number },
  ): ApplySummary {
    const byKey = new Map(entries.map((e) => [`${e.kind} ${e.uid}`, e]));
    const summary = this.#apply(stale, null, () => {
      for (const a of accepted) {
        const e = byKey.get(`${a.kind} ${a.uid}`);
        if (!e) continue;
        this.#w.run(
          sql`UPDATE sync_objects SET version = ${a.version}, base = ${e.data} WHERE kind = ${a.kind} AND uid = ${a.uid}`,
        );
        this.#clearDirty(e.kind, e.localId, e.mark);
      }
      if (accepted.length > 0) this.#set('lastPushAt', this.#now());
      // Nothing else was written between the cursor and this push's versions: no need to pull them back.
      if (cursor && Number(this.#settings(this.#w).get('cursor') ?? 0) === cursor.from) this.#set('cursor', cursor.to);
    });
    return summary;
  }

  // ── Pull ──

  /**
   * Applies a page of the server's rows (in version order) and moves the cursor to `cursor`, in one
   * transaction. Rows this replica has at that version already are skipped.
   */
  applyPull(rows: readonly ServerRow[], cursor: number): ApplySummary {
    return this.#apply(rows, cursor, () => this.#set('lastPullAt', this.#now()), rows.length);
  }

  /**
   * The end of a pull: the search index and the sort indexes a bulk first sync left out are built, in
   * one pass each, in one transaction. Also called when the library opens, so a first sync cut short (a
   * crash, a dropped connection) never leaves a library without them for longer than until the next
   * pull or open. `rebuilt`: how many sort indexes were built.
   */
  finishPull(): { rebuilt: number } {
    const pending = this.#settings(this.#r);
    if (!pending.has('deferredIndexes') && !pending.has('searchDeferred')) return { rebuilt: 0 };
    return this.#w.transaction(() => {
      const s = this.#settings(this.#w);
      // Every item's row, whatever wrote the items meanwhile (the pull, or an edit here between its pages).
      if (s.has('searchDeferred')) {
        writeSearchIndex(this.#w.raw);
        this.#set('searchDeferred', null);
      }
      const text = s.get('deferredIndexes');
      if (text === undefined) return { rebuilt: 0 };
      const ddl = readStored<string[]>(
        text,
        'The sync record of the indexes to rebuild after a first sync',
        arrayOf((v) =>
          typeof v === 'string' && SYNC_DEFERRED.includes(INDEX_DDL.exec(v)?.[1] ?? '')
            ? null
            : 'a definition of an items index was expected',
        ),
      );
      const present = new Set(
        this.#w.pluck<string>(sql`SELECT name FROM sqlite_schema WHERE type = 'index' AND name IS NOT NULL`),
      );
      let rebuilt = 0;
      for (const d of ddl) {
        if (present.has(INDEX_DDL.exec(d)![1]!)) continue;
        this.#w.raw.exec(d);
        rebuilt++;
      }
      this.#set('deferredIndexes', null);
      return { rebuilt };
    });
  }

  /**
   * At the first page of a first sync into an empty library (`rows` at least BULK_FIRST_SYNC_ROWS): the
   * search index is left to be built at the end (searchDeferred) and the deferred sort indexes are
   * dropped, their definitions kept in sync_state, in the same transaction, so whatever stops the sync,
   * finishPull finds them and builds them.
   */
  #deferIndexes(rows: number): void {
    if (rows < BULK_FIRST_SYNC_ROWS) return;
    const s = this.#settings(this.#w);
    if (s.has('deferredIndexes') || s.has('searchDeferred') || Number(s.get('cursor') ?? 0) !== 0) return;
    if (this.#w.get(sql`SELECT 1 AS x FROM items LIMIT 1`) !== undefined) return;
    this.#set('searchDeferred', 1);
    const present = new Map(
      this.#w
        .all<{ name: string; sql: string | null }>(sql`SELECT name, sql FROM sqlite_schema WHERE type = 'index'`)
        .map((r) => [r.name, r.sql]),
    );
    const ddl = SYNC_DEFERRED.map((name) => present.get(name) ?? null);
    if (!ddl.every((d): d is string => d !== null && INDEX_DDL.test(d.trim()))) return;
    this.#set('deferredIndexes', JSON.stringify(ddl.map((d) => d.trim())));
    for (const name of SYNC_DEFERRED) this.#w.raw.exec(`DROP INDEX ${name}`);
  }

  #apply(rows: readonly ServerRow[], cursor: number | null, also: () => void, bulk = 0): ApplySummary {
    const summary: ApplySummary = {
      applied: 0,
      skipped: 0,
      conflicts: 0,
      parked: 0,
      rejected: [],
      itemIds: [],
      kinds: [],
      notes: [],
    };
    const logStart = this.#r.get<{ id: number | null }>(sql`SELECT max(id) AS id FROM sync_log`)?.id ?? 0;
    this.#w.transaction(() => {
      if (cursor !== null) this.#deferIndexes(bulk);
      const ctx = this.#context();
      this.#anyParked = this.#w.get(sql`SELECT 1 AS x FROM sync_parked LIMIT 1`) !== undefined;
      this.#w.run(sql`UPDATE sync_flags SET applying = 1 WHERE id = 1`);
      try {
        const checked: { row: ServerRow; kind: SyncKind; doc: Doc | null }[] = [];
        for (const row of rows) {
          const problem = this.#check(row);
          if (typeof problem === 'string') {
            summary.rejected.push({
              kind: String(row?.kind).slice(0, 40),
              uid: String(row?.uid).slice(0, 80),
              reason: problem,
            });
            continue;
          }
          checked.push(problem);
        }
        checked.sort((a, b) => kindOrder(a.kind.name) - kindOrder(b.kind.name) || a.row.version - b.row.version);
        const records = this.#records(checked);
        for (const c of checked)
          this.#applyOne(ctx, c.kind, c.row, c.doc, summary, records.get(`${c.kind.name} ${c.row.uid}`));
        this.#retryParked(ctx, summary);
        if (cursor !== null) {
          const current = Number(this.#settings(this.#w).get('cursor') ?? 0);
          if (cursor > current) this.#set('cursor', cursor);
        }
        also();
        this.#dropUndoOf([...ctx.touchedItems]);
      } finally {
        this.#w.run(sql`UPDATE sync_flags SET applying = 0 WHERE id = 1`);
      }
      summary.itemIds = [...ctx.touchedItems];
      summary.kinds = [...ctx.touchedKinds];
    });
    summary.notes = this.#r
      .all<{ message: string }>(sql`SELECT message FROM sync_log WHERE id > ${logStart} ORDER BY id`)
      .map((n) => n.message);
    summary.parked = this.#r.get<{ n: number }>(sql`SELECT count(*) AS n FROM sync_parked`)!.n;
    return summary;
  }

  /**
   * The sync records (sync_objects) of a page's objects, read in a few statements instead of one per
   * row; null for an object this replica has no record of. Only for objects named once in the page, of
   * kinds whose uids are random (no uidOf, no localOf): applying another row of the page never writes
   * such an object's record, so what is read here is still true when its row is applied. The others
   * are looked up as they are applied.
   */
  #records(checked: readonly { row: ServerRow; kind: SyncKind }[]): Map<string, ObjectRow | null> {
    const out = new Map<string, ObjectRow | null>();
    const seen = new Map<string, number>();
    for (const c of checked) {
      const key = `${c.kind.name} ${c.row.uid}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    const byKind = new Map<string, string[]>();
    for (const c of checked) {
      if (c.kind.uidOf || c.kind.localOf || seen.get(`${c.kind.name} ${c.row.uid}`) !== 1) continue;
      const uids = byKind.get(c.kind.name) ?? [];
      uids.push(c.row.uid);
      byKind.set(c.kind.name, uids);
    }
    for (const [kind, uids] of byKind) {
      for (const uid of uids) out.set(`${kind} ${uid}`, null);
      // A first sync into an empty library has no records of the kind at all: nothing to read.
      if (this.#w.get(sql`SELECT 1 AS x FROM sync_objects WHERE kind = ${kind} LIMIT 1`) === undefined) continue;
      for (const batch of chunk(uids))
        for (const o of this.#w.all<ObjectRow>(
          sql`SELECT local_id, uid, version, base FROM sync_objects WHERE kind = ${kind} AND uid IN ${inList(batch)}`,
        ))
          out.set(`${kind} ${o.uid}`, o);
    }
    return out;
  }

  /** A server row checked for shape and size, its document parsed and checked against its kind. */
  #check(row: ServerRow): string | { row: ServerRow; kind: SyncKind; doc: Doc | null } {
    if (!row || typeof row !== 'object') return 'not a row';
    if (typeof row.kind !== 'string' || typeof row.uid !== 'string') return 'kind or uid is not text';
    if (!Number.isSafeInteger(row.version) || row.version <= 0)
      return `version ${String(row.version).slice(0, 20)} is not a positive whole number`;
    if (typeof row.deleted !== 'boolean') return 'deleted is not true or false';
    const kind = KIND_BY_NAME.get(row.kind);
    if (!kind) return `the kind “${row.kind.slice(0, 40)}” is unknown (a newer Citewise may have written it)`;
    if (row.uid.length === 0 || row.uid.length > 300) return 'the uid is empty or too long';
    if (row.deleted) return { row, kind, doc: null };
    if (row.tooLarge) return 'its fields are too large for this replica';
    if (typeof row.data !== 'string') return 'its fields are missing';
    if (row.data.length > MAX_DOC_CHARS) return `its fields are too large (${row.data.length} characters)`;
    let value: unknown;
    try {
      value = JSON.parse(row.data);
    } catch {
      return 'its fields are not JSON';
    }
    const parsed = kind.schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return `its fields do not fit: ${issue ? `${issue.path.join('.') || 'document'}: ${issue.message}` : 'invalid'}`;
    }
    return { row, kind, doc: parsed.data };
  }

  /** Applies one row; `known` is its object's record when #records read it (null: it has none). */
  #applyOne(
    ctx: SyncContext,
    kind: SyncKind,
    row: ServerRow,
    server: Doc | null,
    summary: ApplySummary,
    known?: ObjectRow | null,
  ): void {
    const w = this.#w;
    const o =
      known === undefined
        ? w.get<ObjectRow>(
            sql`SELECT local_id, uid, version, base FROM sync_objects WHERE kind = ${kind.name} AND uid = ${row.uid}`,
          )
        : (known ?? undefined);
    if (o && o.version >= row.version) {
      summary.skipped++;
      return;
    }
    // A natural key (a DOI) or a pair of uids names its local object without a record.
    const localId: LocalId | null = o ? o.local_id : (kind.localOf?.(ctx, row.uid) ?? null);
    if (server !== null && kind.needs) {
      const missing = kind.needs(server).filter((n) => ctx.localOf(n.kind, n.uid) === null);
      if (missing.length > 0) {
        this.#anyParked = true;
        w.run(sql`INSERT INTO sync_parked (kind, uid, version, deleted, data, modified_by, reason) VALUES (${kind.name}, ${row.uid}, ${row.version}, 0, ${row.data}, ${row.modifiedBy}, ${`waiting for ${missing.map((m) => `${m.kind} ${m.uid}`).join(', ')}`})
          ON CONFLICT(kind, uid) DO UPDATE SET version = excluded.version, deleted = 0, data = excluded.data, modified_by = excluded.modified_by, reason = excluded.reason
          WHERE excluded.version > sync_parked.version`);
        return;
      }
    }
    if (this.#anyParked)
      w.run(sql`DELETE FROM sync_parked WHERE kind = ${kind.name} AND uid = ${row.uid} AND version <= ${row.version}`);
    // Fields in conflict keep the local value until the user chooses: such an object merges like a changed one.
    const dirty =
      localId !== null &&
      (w.get(sql`SELECT 1 AS x FROM sync_dirty WHERE kind = ${kind.name} AND local_id = ${localId}`) !== undefined ||
        w.get(sql`SELECT 1 AS x FROM sync_conflicts WHERE kind = ${kind.name} AND uid = ${row.uid}`) !== undefined);
    const base = o?.base ? this.#base(kind.name, row.uid, o.base) : null;
    ctx.rewritten = false;
    const record = (id: LocalId | null, b: Doc | null): void => {
      if (id === null) {
        if (o)
          w.run(
            sql`UPDATE sync_objects SET version = ${row.version}, base = ${wire(b)} WHERE kind = ${kind.name} AND uid = ${row.uid}`,
          );
        return;
      }
      // The same object under another local id (a membership whose collection came back under a new one).
      // (Without a record of the uid there is none to move: most rows of a first sync.)
      if (o || kind.localOf || kind.uidOf)
        w.run(sql`DELETE FROM sync_objects WHERE kind = ${kind.name} AND uid = ${row.uid} AND local_id IS NOT ${id}`);
      w.run(sql`INSERT INTO sync_objects (kind, local_id, uid, version, base) VALUES (${kind.name}, ${id}, ${row.uid}, ${row.version}, ${wire(b)})
        ON CONFLICT(kind, local_id) DO UPDATE SET uid = excluded.uid, version = excluded.version, base = excluded.base`);
    };
    const clean = (id: LocalId | null): void => {
      if (id !== null) w.run(sql`DELETE FROM sync_dirty WHERE kind = ${kind.name} AND local_id = ${id}`);
    };
    summary.applied++;
    if (!dirty) {
      if (server === null) {
        if (localId !== null) kind.remove(ctx, localId);
        record(localId, null);
        ctx.touchedKinds.add(kind.name);
        return;
      }
      const id = kind.write(ctx, localId, server, row.uid);
      record(id, server);
      if (ctx.rewritten) ctx.markDirty(kind.name, id);
      ctx.touchedKinds.add(kind.name);
      return;
    }
    const local = kind.read(ctx, [localId!]).get(localId!) ?? null;
    if (local === null && server === null) {
      record(localId, null);
      clean(localId);
      return;
    }
    if (local === null && base !== null && sameDoc(withoutNul(server!), withoutNul(base))) {
      // Deleted here; the server's newer version changed nothing: the delete goes on to the server.
      record(localId, server);
      return;
    }
    if (local === null) {
      // Deleted here, changed there: the change wins and the object comes back.
      const id = kind.write(ctx, localId, server!, row.uid);
      record(id, server);
      clean(id);
      if (ctx.rewritten) ctx.markDirty(kind.name, id);
      ctx.log(
        kind.name,
        row.uid,
        id,
        `${capital(kind.describe(server ?? base))} was deleted here but changed on another machine (by ${row.modifiedBy}); the change was kept, so it is back.`,
      );
      ctx.touchedKinds.add(kind.name);
      return;
    }
    if (server === null) {
      if (base !== null && sameDoc(withoutNul(local), withoutNul(base))) {
        kind.remove(ctx, localId!);
        record(localId, null);
        clean(localId);
        ctx.touchedKinds.add(kind.name);
        return;
      }
      // Changed here, deleted there: the change wins; the push brings the object back on the server.
      record(localId, null);
      this.#w.run(sql`DELETE FROM sync_conflicts WHERE kind = ${kind.name} AND uid = ${row.uid}`);
      ctx.log(
        kind.name,
        row.uid,
        localId,
        `${capital(kind.describe(local))} was deleted on another machine (by ${row.modifiedBy}) but changed here; your change was kept, so it stays.`,
      );
      return;
    }
    if (kind.merge === 'newest') {
      const winner = Number(server.fetchedAt) >= Number(local.fetchedAt) ? server : local;
      if (winner === server) {
        kind.write(ctx, localId, server, row.uid);
        clean(localId);
      }
      record(localId, server);
      ctx.touchedKinds.add(kind.name);
      return;
    }
    const held = new Set(this.#heldFields(kind.name, row.uid));
    const merged = mergeDocs(base, local, server, kind.rules, held);
    let id: LocalId = localId!;
    if (!sameDoc(merged.doc, local)) {
      id = kind.write(ctx, localId, merged.doc, row.uid);
      ctx.touchedKinds.add(kind.name);
    }
    record(id, server);
    w.run(sql`DELETE FROM sync_conflicts WHERE kind = ${kind.name} AND uid = ${row.uid}`);
    const now = this.#now();
    for (const c of merged.conflicts)
      w.run(sql`INSERT INTO sync_conflicts (kind, uid, field, local_value, server_value, server_version, server_by, detected_at)
        VALUES (${kind.name}, ${row.uid}, ${c.field}, ${c.local === undefined ? null : JSON.stringify(c.local)}, ${c.server === undefined ? null : JSON.stringify(c.server)}, ${row.version}, ${row.modifiedBy}, ${now})`);
    summary.conflicts += merged.conflicts.length;
    if (merged.conflicts.length === 0 && sameDoc(merged.doc, server) && !ctx.rewritten) clean(id);
  }

  /** Parked objects whose parents have arrived, applied until none more can be. */
  #retryParked(ctx: SyncContext, summary: ApplySummary): void {
    for (let round = 0; round < 20; round++) {
      const ready = this.#w
        .all<{
          kind: string;
          uid: string;
          version: number;
          deleted: number;
          data: string | null;
          modified_by: string | null;
        }>(
          sql`SELECT kind, uid, version, deleted, data, modified_by FROM sync_parked WHERE reason LIKE 'waiting for %'`,
        )
        .flatMap((p) => {
          // Checked again as when it arrived: a row damaged since in the library file stays parked with
          // why (`citewise sync log`, parked), instead of stopping every pull.
          const c = this.#check({
            kind: p.kind,
            uid: p.uid,
            version: p.version,
            deleted: false,
            data: p.data,
            modifiedBy: p.modified_by ?? '',
            modifiedAt: 0,
          });
          if (typeof c === 'string') {
            this.#w.run(
              sql`UPDATE sync_parked SET reason = ${`damaged in the library file: ${c}`} WHERE kind = ${p.kind} AND uid = ${p.uid}`,
            );
            return [];
          }
          const needs = c.kind.needs?.(c.doc!) ?? [];
          return needs.every((n) => ctx.localOf(n.kind, n.uid) !== null) ? [c] : [];
        });
      if (ready.length === 0) return;
      for (const c of ready) this.#applyOne(ctx, c.kind, c.row, c.doc, summary);
    }
  }

  /** Undo entries of items the server changed would put back what another machine wrote: they go. */
  #dropUndoOf(ids: readonly ItemId[]): void {
    if (ids.length === 0 || !this.#w.get(sql`SELECT 1 AS x FROM undo_log LIMIT 1`)) return;
    for (const batch of chunk(ids))
      this.#w.run(
        sql`DELETE FROM undo_log WHERE EXISTS (SELECT 1 FROM json_each(undo_log.item_ids) j WHERE j.value IN ${inList(batch)})`,
      );
  }

  // ── Conflicts ──

  /** Objects with fields changed on both sides, each field with both values, oldest first. */
  conflicts(): SyncConflict[] {
    const rows = this.#r.all<{
      kind: string;
      uid: string;
      field: string;
      local_value: string | null;
      server_value: string | null;
      server_version: number;
      server_by: string | null;
      detected_at: number;
    }>(
      sql`SELECT kind, uid, field, local_value, server_value, server_version, server_by, detected_at FROM sync_conflicts ORDER BY detected_at, kind, uid, field`,
    );
    const out = new Map<string, SyncConflict>();
    for (const r of rows) {
      const key = `${r.kind} ${r.uid}`;
      let c = out.get(key);
      if (!c) {
        const localId =
          this.#r.get<{ local_id: LocalId }>(
            sql`SELECT local_id FROM sync_objects WHERE kind = ${r.kind} AND uid = ${r.uid}`,
          )?.local_id ?? null;
        const kind = KIND_BY_NAME.get(r.kind);
        c = {
          kind: r.kind,
          uid: r.uid,
          localId,
          label: kind ? kind.describe(localId === null ? null : this.#readDoc(kind, localId)) : r.kind,
          serverBy: r.server_by,
          detectedAt: r.detected_at,
          fields: [],
        };
        out.set(key, c);
      }
      const what = (side: 'local' | 'server'): string =>
        `The ${side} value of the field “${r.field}” in conflict for ${c.label}`;
      c.fields.push({
        field: r.field,
        local: r.local_value === null ? null : readStored<Json>(r.local_value, what('local')),
        server: r.server_value === null ? null : readStored<Json>(r.server_value, what('server')),
      });
    }
    return [...out.values()];
  }

  #readDoc(kind: SyncKind, id: LocalId): Doc | null {
    return this.#w.transaction(() => kind.read(this.#context(), [id]).get(id) ?? null);
  }

  /**
   * The user's choice for each field in conflict ('local': keep this machine's value, 'server': take
   * the other one's). The object is pushed with the choice. Fields not named stay in conflict.
   */
  resolve(kindName: string, uid: string, choices: Readonly<Record<string, 'local' | 'server'>>): { left: number } {
    const kind = KIND_BY_NAME.get(kindName);
    if (!kind) throw new CoreError('INVALID_INPUT', `There is no shared kind “${kindName.slice(0, 40)}”.`);
    return this.#w.transaction(() => {
      const o = this.#w.get<ObjectRow>(
        sql`SELECT local_id, uid, version, base FROM sync_objects WHERE kind = ${kind.name} AND uid = ${uid}`,
      );
      const rows = this.#w.all<{ field: string; server_value: string | null }>(
        sql`SELECT field, server_value FROM sync_conflicts WHERE kind = ${kind.name} AND uid = ${uid}`,
      );
      if (!o || rows.length === 0) throw new CoreError('NOT_FOUND', 'That conflict has been resolved already.');
      for (const f of Object.keys(choices))
        if (!rows.some((r) => r.field === f))
          throw new CoreError('INVALID_INPUT', `The field “${f.slice(0, 60)}” is not in conflict.`);
      const ctx = this.#context();
      const local = kind.read(ctx, [o.local_id]).get(o.local_id);
      if (!local) throw new CoreError('NOT_FOUND', 'The object in conflict is no longer in the library.');
      const next: Doc = { ...local };
      for (const r of rows) {
        const choice = choices[r.field];
        if (choice === undefined) continue;
        if (choice === 'server') {
          if (r.server_value === null) delete next[r.field];
          else
            next[r.field] = readStored<Json>(
              r.server_value,
              `The server value of the field “${r.field}” in conflict for ${kind.describe(local)}`,
            );
        }
        this.#w.run(sql`DELETE FROM sync_conflicts WHERE kind = ${kind.name} AND uid = ${uid} AND field = ${r.field}`);
      }
      // A user's change like any other: the change log marks it, and the push sends it.
      if (!sameDoc(next, local)) {
        kind.write(ctx, o.local_id, next, uid);
        ctx.markDirty(kind.name, o.local_id);
      } else ctx.markDirty(kind.name, o.local_id);
      this.#dropUndoOf([...ctx.touchedItems]);
      return { left: rows.length - Object.keys(choices).length };
    });
  }

  // ── The log ──

  log(limit = 100): SyncLogEntry[] {
    return this.#r
      .all<{ id: number; at: number; kind: string; uid: string | null; local_id: LocalId | null; message: string }>(
        sql`SELECT id, at, kind, uid, local_id, message FROM sync_log ORDER BY id DESC LIMIT ${limit}`,
      )
      .map((r) => ({ id: r.id, at: r.at, kind: r.kind, uid: r.uid, localId: r.local_id, message: r.message }));
  }

  /** Parked rows: objects waiting for another, and rows the server sent that could not be applied. */
  parked(limit = 100): { kind: string; uid: string; version: number; reason: string }[] {
    return this.#r.all(sql`SELECT kind, uid, version, reason FROM sync_parked ORDER BY version LIMIT ${limit}`);
  }

  // ── Files ──

  /** Attachment files to upload: those with a checksum whose file is here and the server has not confirmed. */
  filesToUpload(limit = 20): FileTransfer[] {
    return this.#r.all<FileTransfer>(
      sql`SELECT f.sha256, f.size, f.done_bytes AS doneBytes, (SELECT a.path FROM attachments a WHERE a.sha256 = f.sha256 ORDER BY a.id LIMIT 1) AS path
        FROM sync_files f WHERE f.direction = 'upload' AND f.state = 'wanted' ORDER BY f.updated_at LIMIT ${limit}`,
    );
  }

  /** Files to download now: wanted ahead, or asked for (`sha256`). */
  filesToDownload(limit = 20, sha256?: string): FileTransfer[] {
    const rows = this.#r.all<FileTransfer>(
      sha256
        ? sql`SELECT f.sha256, f.size, f.done_bytes AS doneBytes, (SELECT a.path FROM attachments a WHERE a.sha256 = f.sha256 ORDER BY a.id LIMIT 1) AS path
            FROM sync_files f WHERE f.direction = 'download' AND f.sha256 = ${sha256} AND f.state IN ('wanted', 'on-demand', 'failed')`
        : sql`SELECT f.sha256, f.size, f.done_bytes AS doneBytes, (SELECT a.path FROM attachments a WHERE a.sha256 = f.sha256 ORDER BY a.id LIMIT 1) AS path
            FROM sync_files f WHERE f.direction = 'download' AND f.state = 'wanted' ORDER BY f.updated_at LIMIT ${limit}`,
    );
    return rows.filter((r) => r.path !== null);
  }

  /** Files pushed attachments name that the server may not have yet: queued for upload. */
  queueUploads(maxBytes: number): number {
    return this.#w.transaction(() => {
      const r = this.#w.run(sql`INSERT INTO sync_files (sha256, direction, size, state, updated_at)
        SELECT a.sha256, 'upload', coalesce(max(a.size), 0), CASE WHEN coalesce(max(a.size), 0) > ${maxBytes} THEN 'too-big' ELSE 'wanted' END, ${this.#now()}
        FROM attachments a JOIN sync_objects o ON o.kind = 'attachment' AND o.local_id = a.id AND o.version > 0
        WHERE a.sha256 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sync_files f WHERE f.sha256 = a.sha256)
        GROUP BY a.sha256`);
      return r.changes;
    });
  }

  /** How far a transfer got (resumable), or that it ended. */
  fileProgress(
    sha256: string,
    update: { doneBytes?: number; state?: 'done' | 'failed' | 'wanted' | 'on-demand'; error?: string | null },
  ): void {
    this.#w.transaction(() => {
      this.#w
        .run(sql`UPDATE sync_files SET done_bytes = coalesce(${update.doneBytes ?? null}, done_bytes), state = coalesce(${update.state ?? null}, state),
        error = CASE WHEN ${update.error === undefined ? 0 : 1} = 1 THEN ${update.error ?? null} ELSE error END, updated_at = ${this.#now()} WHERE sha256 = ${sha256}`);
    });
  }

  /** Asks for an attachment's file now (opening it): its sha256, or null when it needs no download. */
  wantFile(attachmentId: number): FileTransfer | null {
    const row = this.#r.get<{ sha256: string | null }>(sql`SELECT sha256 FROM attachments WHERE id = ${attachmentId}`);
    if (!row?.sha256) return null;
    return this.filesToDownload(1, row.sha256)[0] ?? null;
  }

  // ── Helpers ──

  /**
   * The server's document an object was last synced at (sync_objects.base), the merge's common
   * ancestor. A damaged one is a clear error naming the object: merging against a guess could drop
   * another member's change or send back an old value.
   */
  #base(kind: string, uid: string, text: string | null): Doc | null {
    if (text === null) return null;
    return readStored<Doc>(text, `The sync record of ${kind} ${uid}`, isObject);
  }

  #uid(ctx: SyncContext, kind: SyncKind, id: LocalId): string {
    return ctx.uidOf(kind.name, id);
  }

  #heldFields(kind: string, uid: string): string[] {
    return this.#w.pluck<string>(
      sql`SELECT field FROM sync_conflicts WHERE kind = ${kind} AND uid = ${uid} ORDER BY field`,
    );
  }

  #clearDirty(kind: string, id: LocalId, mark: number): void {
    this.#w.run(sql`DELETE FROM sync_dirty WHERE kind = ${kind} AND local_id = ${id} AND mark = ${mark}`);
  }

  #context(): SyncContext {
    const w = this.#w;
    const now = this.#now;
    const settings = this.#settings(w);
    // Within a bulk first sync, items get their search rows when it ends (finishPull), not one by one.
    const withoutSearchRows = settings.has('searchDeferred');
    this.#writer.withoutSearchRows = withoutSearchRows;
    let session: ImportSession | null = null;
    const ctx: SyncContext = {
      w,
      writer: this.#writer,
      importSession: () =>
        (session ??= new ImportSession(
          w,
          { source: 'sync', ...(withoutSearchRows ? { withoutSearchRows } : {}) },
          now(),
          false,
        )),
      now,
      rewritten: false,
      touchedItems: new Set(),
      touchedKinds: new Set(),
      filesDir: this.#filesDir,
      fetchAhead: (settings.get('fetchAhead') ?? '1') === '1',
      maxFileBytes: Number(settings.get('maxFileBytes') ?? DEFAULT_MAX_FILE_BYTES),
      uidOf: (kindName, id) => {
        const kind = KIND_BY_NAME.get(kindName);
        const found = w.get<{ uid: string }>(
          sql`SELECT uid FROM sync_objects WHERE kind = ${kindName} AND local_id = ${id}`,
        );
        if (found) return found.uid;
        const uid = kind?.uidOf ? kind.uidOf(ctx, id) : randomUUID();
        // Recorded at once, so that a delete before the first push is still known to need a tombstone. A
        // derived uid already recorded under another local id (a pair whose collection came back) moves.
        if (
          w.run(sql`UPDATE sync_objects SET local_id = ${id} WHERE kind = ${kindName} AND uid = ${uid}`).changes === 0
        )
          w.run(
            sql`INSERT INTO sync_objects (kind, local_id, uid, version, base) VALUES (${kindName}, ${id}, ${uid}, 0, NULL)`,
          );
        return uid;
      },
      localOf: (kindName, uid) => {
        const kind = KIND_BY_NAME.get(kindName);
        if (!kind) return null;
        const id = kind.localOf
          ? kind.localOf(ctx, uid)
          : (w.get<{ local_id: LocalId }>(
              sql`SELECT local_id FROM sync_objects WHERE kind = ${kindName} AND uid = ${uid}`,
            )?.local_id ?? null);
        // A record whose object was deleted (a tombstone) names nothing here.
        return id !== null && kind.exists(ctx, id) ? id : null;
      },
      markDirty: (kindName, id) => {
        w.run(
          sql`INSERT INTO sync_dirty (kind, local_id) VALUES (${kindName}, ${id}) ON CONFLICT(kind, local_id) DO UPDATE SET mark = mark + 1`,
        );
      },
      log: (kindName, uid, id, message) => {
        w.run(
          sql`INSERT INTO sync_log (at, kind, uid, local_id, message) VALUES (${now()}, ${kindName}, ${uid}, ${id}, ${message})`,
        );
        w.run(sql`DELETE FROM sync_log WHERE id <= (SELECT id FROM sync_log ORDER BY id DESC LIMIT 1 OFFSET 1000)`);
      },
    };
    return ctx;
  }
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function withoutNul(doc: Doc): Doc {
  return JSON.parse(wire(doc)!) as Doc;
}
