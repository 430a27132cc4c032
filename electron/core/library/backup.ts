// Backups of the library file: VACUUM INTO a new file (a consistent, compacted copy taken through
// SQLite, never a copy of the live file), verified with integrity_check, rotated. Also the start-up
// check that sets a damaged library aside and restores the newest good backup.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { asStorageFault } from './faults';
import { syncDirectory, syncFile } from '../fs/atomic-write';

import type { BackupInfo, BackupReason, Recovery } from '../../../shared/model/library';

export type { BackupInfo, BackupReason, Recovery };

export interface BackupOptions {
  nativeBinding?: string | undefined;
  now?: () => number;
  /** Backups kept per reason. */
  keep?: Partial<Record<BackupReason, number>>;
}

const DEFAULT_KEEP: Record<BackupReason, number> = { scheduled: 7, 'pre-migration': 3, manual: 10, 'pre-restore': 2 };
const NAME = /^citewise-(\d{8}T\d{6}\d{3}Z)-(scheduled|pre-migration|manual|pre-restore)\.sqlite$/;

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}

function parseStamp(s: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/.exec(s);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!) : 0;
}

/** "ok", or the first problems integrity_check reports (or why the file cannot be opened). */
export function checkIntegrity(file: string, nativeBinding?: string): string {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    const rows = db.pragma('integrity_check(10)', { simple: false }) as { integrity_check: string }[];
    const text = rows.map((r) => r.integrity_check).join('; ');
    return text === 'ok' ? 'ok' : text;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    db?.close();
  }
}

export function listBackups(dir: string): BackupInfo[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => {
      const m = NAME.exec(name);
      if (!m) return null;
      const file = join(dir, name);
      return { file, reason: m[2] as BackupReason, createdAt: parseStamp(m[1]!), size: statSync(file).size };
    })
    .filter((b): b is BackupInfo => b !== null)
    .sort((a, b) => b.createdAt - a.createdAt);
}

/** Writes a verified backup of an open library and rotates old ones. Throws if the copy fails its check. */
export function backupDatabase(
  db: Database.Database,
  dir: string,
  reason: BackupReason,
  options: BackupOptions = {},
): BackupInfo {
  mkdirSync(dir, { recursive: true });
  const now = (options.now ?? Date.now)();
  let file = join(dir, `citewise-${stamp(now)}-${reason}.sqlite`);
  for (let n = 1; existsSync(file); n++) file = join(dir, `citewise-${stamp(now + n)}-${reason}.sqlite`);
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    db.prepare('VACUUM INTO ?').run(partial);
    const check = checkIntegrity(partial, options.nativeBinding);
    if (check !== 'ok') throw new Error(`The backup failed its integrity check: ${check}`);
    // Renamed only once verified and on the disk, so a backup file under its final name is always a
    // good one, also after a power cut (VACUUM INTO does not sync the file it writes).
    syncFile(partial);
    renameSync(partial, file);
    syncDirectory(dir);
  } catch (err) {
    // A half-written copy (the disk filled up during VACUUM INTO) would only take more of the space.
    rmSync(partial, { force: true });
    throw asStorageFault(err, dir);
  }
  rotate(dir, { ...DEFAULT_KEEP, ...options.keep });
  return { file, reason, createdAt: now, size: statSync(file).size };
}

function rotate(dir: string, keep: Record<BackupReason, number>): void {
  const all = listBackups(dir);
  for (const reason of Object.keys(keep) as BackupReason[]) {
    for (const old of all.filter((b) => b.reason === reason).slice(keep[reason])) rmSync(old.file, { force: true });
  }
}

/**
 * Checks the library file before opening it. A damaged file (and its -wal/-shm) is moved aside, never
 * deleted, and the newest backup that passes integrity_check takes its place. Returns what happened,
 * for the app to tell the user, or null when the file was fine (or does not exist yet).
 */
export function recoverIfDamaged(file: string, backupDir: string, options: BackupOptions = {}): Recovery | null {
  if (!existsSync(file)) return null;
  const problem = checkIntegrity(file, options.nativeBinding);
  if (problem === 'ok') return null;
  const now = (options.now ?? Date.now)();
  const setAside = `${file}.damaged-${stamp(now)}`;
  renameSync(file, setAside);
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, setAside + suffix);
  for (const b of listBackups(backupDir)) {
    if (checkIntegrity(b.file, options.nativeBinding) !== 'ok') continue;
    // A copy beside the library, synced, then renamed: a crash during it leaves no half library.
    replaceLibraryFile(b.file, file);
    return { setAside, problem, restoredFrom: b.file };
  }
  return { setAside, problem, restoredFrom: null };
}

/** What a backup holds, checked before it replaces anything: integrity_check, then its items (outside the trash). */
export interface BackupInspection {
  /** null when integrity_check says ok; otherwise what it (or opening the file) reported. */
  problem: string | null;
  items: number;
}

export function inspectBackup(file: string, nativeBinding?: string): BackupInspection {
  const check = checkIntegrity(file, nativeBinding);
  if (check !== 'ok') return { problem: check, items: 0 };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    const row = db.prepare('SELECT count(*) AS n FROM items WHERE trashed_at IS NULL').get() as
      { n: number } | undefined;
    return { problem: null, items: row?.n ?? 0 };
  } catch (err) {
    return { problem: `not a Citewise library (${err instanceof Error ? err.message : String(err)})`, items: 0 };
  } finally {
    db?.close();
  }
}

/**
 * Puts `source` in the place of the library file, atomically: a copy beside the library (same file
 * system), flushed to disk, then renamed over it; the old WAL and shared-memory files go first, so the
 * copy is never read with a journal that belongs to the old file. No connection may be open on the
 * library meanwhile. On failure the copy is removed and the library file is as it was.
 */
export function replaceLibraryFile(source: string, file: string): void {
  const temp = `${file}.restore-${process.pid}-${Date.now()}.tmp`;
  try {
    copyFileSync(source, temp);
    syncFile(temp);
    for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw asStorageFault(err, dirname(file));
  }
  syncDirectory(dirname(file));
}
