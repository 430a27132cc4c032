import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CoreError } from '../errors';
import { asStorageFault } from './faults';
import { migrations, type Migration } from './migrations';

export type Db = Database.Database;

/** The page size of a library created now, bytes. */
export const PAGE_SIZE = 8192;

export interface OpenDatabaseOptions {
  /**
   * The better-sqlite3 addon to load. Plain Node (tests, CLI, host mode) uses the build in node_modules;
   * the Electron app passes its Electron-ABI build, which lives beside it and never replaces it.
   */
  nativeBinding?: string | undefined;
  migrations?: readonly Migration[];
  /** Called before the first pending migration of an existing library (the library takes a backup here). */
  beforeMigrate?: ((db: Db, from: number, to: number) => void) | undefined;
  /** SQLite's max_page_count: a cap on the file's size, met as SQLITE_FULL (tests of a full disk). */
  maxPageCount?: number | undefined;
  /**
   * 'full' (the default, and always in the app): every commit waits for fsync, so it survives a power
   * cut. 'off' hands writes to the OS without waiting: a crash of the process still loses nothing, a
   * power cut may. Only for tests that do not test durability: on a busy machine each fsync can take
   * tens of milliseconds, and a test that commits a few hundred times took more than 30 s.
   */
  durability?: 'full' | 'off' | undefined;
}

/** Opens (creating if needed) a library database with the pragmas of docs/architecture.md (Data), then migrates it. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    // Only a new file takes it (SQLite fixes the page size when it writes the first page; an existing
    // library keeps its own). 8 KiB pages: half as many B-tree pages to find, split and log in a large
    // import; the library worker spent 5.3 s of CPU on a 100,000-entry import with 4 KiB pages and
    // 4.5 to 5.1 s with 8 KiB (docs/benchmarks.md, library-import).
    db.pragma(`page_size = ${PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
    connectionPragmas(db, options);
    migrate(db, options.migrations ?? migrations, options.beforeMigrate);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** The pragmas SQLite keeps per connection (durability, foreign keys, busy timeout, the size cap). */
function connectionPragmas(db: Db, options: Pick<OpenDatabaseOptions, 'durability' | 'maxPageCount'>): void {
  db.pragma(options.durability === 'off' ? 'synchronous = OFF' : 'synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (options.maxPageCount !== undefined)
    db.pragma(`max_page_count = ${Math.max(1, Math.floor(options.maxPageCount))}`);
}

/**
 * Another write connection to a library openDatabase has opened and migrated, with the same
 * per-connection pragmas: the library worker's imports write through one of these, so that their
 * long transaction holds none of the writes made meanwhile (see worker.ts).
 */
export function openWriter(
  file: string,
  options: Pick<OpenDatabaseOptions, 'nativeBinding' | 'durability' | 'maxPageCount'> = {},
): Db {
  const db = new Database(file, {
    fileMustExist: true,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  try {
    connectionPragmas(db, options);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Applies pending migrations in order, each in its own transaction, recording progress in user_version. */
export function migrate(
  db: Db,
  list: readonly Migration[],
  beforeMigrate?: (db: Db, from: number, to: number) => void,
): { from: number; to: number } {
  checkOrder(list);
  const latest = list.reduce((max, m) => Math.max(max, m.version), 0);
  const from = db.pragma('user_version', { simple: true }) as number;
  if (from > latest) {
    throw new CoreError(
      'CONFLICT',
      `This library was written by a newer version of Citewise (schema version ${from}; this version understands up to ${latest}). Update Citewise to open it; the file was not changed.`,
    );
  }
  const pending = [...list].filter((m) => m.version > from).sort((a, b) => a.version - b.version);
  if (pending.length > 0 && from > 0 && beforeMigrate) beforeMigrate(db, from, latest);
  for (const m of pending) {
    try {
      db.transaction(() => {
        m.up(db);
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    } catch (err) {
      // Rolled back whole: the file stays at the version before this migration.
      throw asStorageFault(err, dirname(db.name));
    }
  }
  return { from, to: Math.max(from, latest) };
}

/**
 * A list whose versions are not strictly ascending is a mistake in the code (two files given one
 * number, one put in the wrong place): refused before anything runs, since user_version could not
 * tell which of two migrations with one number had run.
 */
function checkOrder(list: readonly Migration[]): void {
  list.forEach((m, i) => {
    if (!Number.isInteger(m.version) || m.version < 1)
      throw new Error(`Migration "${m.name}" has version ${m.version}; versions are whole numbers from 1.`);
    const prev = list[i - 1];
    if (prev && m.version <= prev.version) {
      throw new Error(
        m.version === prev.version
          ? `Migrations "${prev.name}" and "${m.name}" both have version ${m.version}.`
          : `Migration "${m.name}" (version ${m.version}) comes after "${prev.name}" (version ${prev.version}); list them in ascending order.`,
      );
    }
  });
}
