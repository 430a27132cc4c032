// Opening a library: the start-up integrity check (and recovery from the last good backup), a backup
// before any migration, the migrations themselves, then the write and read-only connections the
// Library works through.
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { backupDatabase, recoverIfDamaged, type BackupInfo, type Recovery } from './backup';
import { openDatabase, type Db } from './database';
import { EnrichmentStore } from './enrichment-store';
import { GraphStore } from './graph-store';
import { Library, type LibraryOptions } from './library';
import { loadRankFunction } from './rank';
import { repairSearchIndexIfDrifted, type SearchIndexRepair } from './search-index';
import { readHandle, writeHandle } from './sql';

export interface OpenLibraryOptions {
  nativeBinding?: string | undefined;
  /** The search-ranking extension (rank.ts): a path, undefined to look for it, null not to use it. */
  rankExtension?: string | null | undefined;
  /** Where backups go; default: "backups" beside the library file. */
  backupDir?: string;
  now?: () => number;
  /** Skip the start-up integrity check (tests that open many small libraries). */
  skipIntegrityCheck?: boolean;
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
  /** The write connection (settings share it). */
  db: Db;
  /** Set when the library file was damaged: the user must be told. */
  recovery: Recovery | null;
  /** The backup taken before migrating, when there was a migration. */
  migrationBackup: BackupInfo | null;
  /** Set when the search index had drifted from the items and was rebuilt at start-up. */
  searchIndexRepair: SearchIndexRepair | null;
  backupDir: string;
  close(): void;
}

export function openLibrary(file: string, options: OpenLibraryOptions = {}): OpenedLibrary {
  const backupDir = options.backupDir ?? join(dirname(file), 'backups');
  const backupOptions = { nativeBinding: options.nativeBinding, now: options.now };
  const recovery = options.skipIntegrityCheck ? null : recoverIfDamaged(file, backupDir, backupOptions);
  let migrationBackup: BackupInfo | null = null;
  const db = openDatabase(file, {
    nativeBinding: options.nativeBinding,
    maxPageCount: options.maxPageCount,
    durability: options.durability,
    beforeMigrate: (d) => {
      migrationBackup = backupDatabase(d, backupDir, 'pre-migration', backupOptions);
    },
  });
  // A page cache big enough for the hot pages of every index: with SQLite's 2 MB default, a
  // 100,000-item import spills pages to the WAL mid-transaction and slows down tenfold.
  db.pragma('cache_size = -65536');
  let searchIndexRepair: SearchIndexRepair | null;
  try {
    searchIndexRepair = repairSearchIndexIfDrifted(db);
  } catch (err) {
    db.close();
    throw err;
  }
  let reader: Database.Database;
  try {
    reader = new Database(file, { readonly: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
    reader.pragma('busy_timeout = 5000');
    reader.pragma('cache_size = -32768');
  } catch (err) {
    db.close();
    throw err;
  }
  // Searches rank on the read connection; the write connection gets the same function so that any
  // query may run on either.
  const rank = loadRankFunction(reader, options.rankExtension);
  if (rank.fn === 'cw_bm25') loadRankFunction(db, options.rankExtension);
  const write = writeHandle(db, options.beforeWrite ? { beforeWrite: options.beforeWrite } : {});
  const read = readHandle(reader);
  const library = new Library({ write, read, rankFunction: rank.fn, ...(rank.reason ? { rankFallbackReason: rank.reason } : {}), ...(options.now ? { now: options.now } : {}), ...(options.paging ? { paging: options.paging } : {}) });
  const enrichment = new EnrichmentStore({ write, read, library, ...(options.now ? { now: options.now } : {}) });
  const graph = new GraphStore({ write, read, library, ...(options.now ? { now: options.now } : {}) });
  return {
    library,
    enrichment,
    graph,
    db,
    recovery,
    migrationBackup,
    searchIndexRepair,
    backupDir,
    close() {
      reader.close();
      db.close();
    },
  };
}
