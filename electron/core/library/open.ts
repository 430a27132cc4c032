// Opening a library: the start-up integrity check when it can matter (health.ts; with recovery from
// the last good backup, and the search index compared with the items), a backup before any migration,
// the migrations themselves, then the write and read-only connections the Library works through.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { backupDatabase, recoverIfDamaged, type BackupInfo, type Recovery } from './backup';
import { openDatabase, type Db, type OpenDatabaseOptions } from './database';
import { EnrichmentStore } from './enrichment-store';
import { GraphStore } from './graph-store';
import { FulltextStore } from './fulltext-store';
import {
  isDamage,
  leftoversPending,
  markOpen,
  openElsewhere,
  planCheck,
  recordCheck,
  setLeftoversPending,
  type CheckReason,
} from './health';
import { cleanLeftovers, type LeftoversCleaned } from './leftovers';
import { Library, type LibraryOptions } from './library';
import { loadRankFunction } from './rank';
import { repairSearchIndexIfDrifted, type SearchIndexRepair } from './search-index';
import { readHandle, writeHandle } from './sql';
import { installChangeLog } from '../sync/changelog';
import { SyncStore } from '../sync/store';

export interface OpenLibraryOptions {
  nativeBinding?: string | undefined;
  /** The search-ranking extension (rank.ts): a path, undefined to look for it, null not to use it. */
  rankExtension?: string | null | undefined;
  /** Where backups go; default: "backups" beside the library file. */
  backupDir?: string;
  now?: () => number;
  /** Skip the start-up integrity check (tests that open many small libraries). */
  skipIntegrityCheck?: boolean;
  /** Run the full integrity check whatever health.ts says (`citewise check`). */
  forceIntegrityCheck?: boolean;
  paging?: LibraryOptions['paging'];
  /** Called before each write transaction begins; may throw to hold the write back (the worker's queue). */
  beforeWrite?: () => void;
  /** SQLite's max_page_count on the write connection (see WorkerInit.maxPageCount). */
  maxPageCount?: number | undefined;
  /** See OpenDatabaseOptions.durability: 'off' only for tests that do not test durability. */
  durability?: 'full' | 'off' | undefined;
}

export interface OpenedLibrary {
  library: Library;
  /** Enrichment queue, user-edited fields and the retraction watch, on the same connections. */
  enrichment: EnrichmentStore;
  /** The citation graph's statements, expansions and saved graphs. */
  graph: GraphStore;
  /** The full text of attached PDFs (migration 0017). */
  fulltext: FulltextStore;
  /** The replica's side of a shared library (electron/core/sync). */
  sync: SyncStore;
  /** The write connection (settings share it). */
  db: Db;
  /** Set when the library file was damaged: the user must be told. */
  recovery: Recovery | null;
  /** Whether the full integrity_check ran at this open, why, and how long it took. */
  integrityCheck: { reason: CheckReason | 'forced'; ms: number } | null;
  /** The backup taken before migrating, when there was a migration. */
  migrationBackup: BackupInfo | null;
  /**
   * Set when the search index had drifted from the items and was rebuilt at this open. It is compared
   * with the items whenever the integrity check runs (integrityCheck is set), and only then.
   */
  searchIndexRepair: SearchIndexRepair | null;
  /** What a process that died with the library open had left and this open removed (null: not looked for). */
  leftovers: LeftoversCleaned | null;
  backupDir: string;
  close(): void;
}

export function openLibrary(file: string, options: OpenLibraryOptions = {}): OpenedLibrary {
  const backupDir = options.backupDir ?? join(dirname(file), 'backups');
  const backupOptions = { nativeBinding: options.nativeBinding, now: options.now };
  const now = options.now ?? Date.now;
  const existed = existsSync(file);
  const plan = existed && !options.skipIntegrityCheck ? planCheck(file, now()) : { reason: null, staleMarks: [] };
  let recovery: Recovery | null = null;
  let integrityCheck: OpenedLibrary['integrityCheck'] = null;
  const check = (reason: CheckReason | 'forced'): void => {
    const started = performance.now();
    recovery = recoverIfDamaged(file, backupDir, backupOptions);
    integrityCheck = { reason, ms: performance.now() - started };
  };
  const reason = options.forceIntegrityCheck && existed ? 'forced' : plan.reason;
  if (reason) check(reason);
  let migrationBackup: BackupInfo | null = null;
  const connect = (): { db: Db; reader: Database.Database } =>
    openConnections(
      file,
      { nativeBinding: options.nativeBinding, maxPageCount: options.maxPageCount, durability: options.durability },
      (d) => {
        migrationBackup = backupDatabase(d, backupDir, 'pre-migration', backupOptions);
      },
    );
  let connections: { db: Db; reader: Database.Database };
  try {
    connections = connect();
  } catch (err) {
    // Damage no check has looked at yet shows at the first read: check (and recover), then retry once.
    if (integrityCheck !== null || !existed || !isDamage(err)) throw err;
    check('damage-seen');
    connections = connect();
  }
  const { db, reader } = connections;
  // The index can drift from the items only where the check can matter too (a crash, a write that
  // went on after a failure, another program writing the file), so it is compared with the items when
  // the integrity check runs, not at every open (a few ms per 100,000 items, growing with the library).
  let searchIndexRepair: SearchIndexRepair | null = null;
  try {
    if (integrityCheck !== null) searchIndexRepair = repairSearchIndexIfDrifted(db);
  } catch (err) {
    reader.close();
    db.close();
    throw err;
  }
  // Searches rank on the read connection; the write connection gets the same function so that any
  // query may run on either.
  try {
    // The change log of a shared library: its triggers, made from the declarations (sync/changelog.ts).
    installChangeLog(db);
  } catch (err) {
    reader.close();
    db.close();
    throw err;
  }
  const rank = loadRankFunction(reader, options.rankExtension);
  if (rank.fn === 'cw_bm25') loadRankFunction(db, options.rankExtension);
  const write = writeHandle(db, options.beforeWrite ? { beforeWrite: options.beforeWrite } : {});
  const read = readHandle(reader);
  // A new library, or one that passed its check (or was restored from a backup that passed), counts
  // as checked now. Skipped checks (tests) leave the record alone.
  if (!existed || integrityCheck) recordCheck(file, now(), plan.staleMarks);
  // A process died with the library open: what it was writing is left over (temporary copies of PDFs
  // and auto-exports, an import's marker). Removed once no other process has the library open.
  let leftovers: LeftoversCleaned | null = null;
  if (existed && leftoversPending(file, plan)) {
    const elsewhere = openElsewhere(file);
    if (!elsewhere) {
      const paths = db.prepare('SELECT path FROM auto_exports').pluck().all() as string[];
      leftovers = cleanLeftovers(dirname(file), paths);
    }
    setLeftoversPending(file, elsewhere);
  }
  const unmark = markOpen(file);
  const library = new Library({
    write,
    read,
    rankFunction: rank.fn,
    ...(rank.reason ? { rankFallbackReason: rank.reason } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.paging ? { paging: options.paging } : {}),
  });
  const enrichment = new EnrichmentStore({ write, read, library, ...(options.now ? { now: options.now } : {}) });
  const graph = new GraphStore({ write, read, library, ...(options.now ? { now: options.now } : {}) });
  const fulltext = new FulltextStore({ write, read, ...(options.now ? { now: options.now } : {}) });
  const sync = new SyncStore({
    write,
    read,
    filesDir: join(dirname(file), 'attachments'),
    ...(options.now ? { now: options.now } : {}),
  });
  // A first sync cut short left its sort indexes to be built (a damaged record of them is reported by
  // the next pull, which calls this too: the library opens either way).
  try {
    sync.finishPull();
  } catch {
    // Reported by the next pull.
  }
  return {
    library,
    enrichment,
    graph,
    fulltext,
    sync,
    db,
    recovery,
    integrityCheck,
    migrationBackup,
    searchIndexRepair,
    leftovers,
    backupDir,
    close() {
      reader.close();
      db.close();
      unmark();
    },
  };
}

/** The write connection (migrated) and the read-only one. */
function openConnections(
  file: string,
  options: Pick<OpenDatabaseOptions, 'nativeBinding' | 'maxPageCount' | 'durability'>,
  beforeMigrate: (db: Db) => void,
): { db: Db; reader: Database.Database } {
  const { nativeBinding } = options;
  const db = openDatabase(file, { ...options, beforeMigrate });
  // A page cache big enough for the hot pages of every index: with SQLite's 2 MB default, a
  // 100,000-item import spills pages to the WAL mid-transaction and slows down tenfold.
  db.pragma('cache_size = -65536');
  try {
    const reader = new Database(file, { readonly: true, ...(nativeBinding ? { nativeBinding } : {}) });
    reader.pragma('busy_timeout = 5000');
    reader.pragma('cache_size = -32768');
    return { db, reader };
  } catch (err) {
    db.close();
    throw err;
  }
}
