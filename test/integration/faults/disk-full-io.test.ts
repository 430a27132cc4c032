// Issue 41, point 3: SQLite meets a full disk as an I/O error as often as SQLITE_FULL (opening a library
// needs room for its -shm file: SQLITE_IOERR_SHMSIZE), and the user read "could not be written; check
// the disk" for a disk that was only full. Run on a real 4 MB tmpfs (root only, as in CI).
import { readdirSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { LibraryClient } from '../../../electron/core/library/client';
import { FULL_BELOW_BYTES, storageFault } from '../../../electron/core/library/faults';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { run, tempDir } from '../cli-library/helpers';
import { bibtex, libraryState, smallDisk, type SmallDisk } from './disk';

const FULL = (code: string) =>
  new RegExp(
    `^The disk holding your library is full \\(${code} in [^)]+\\): nothing was changed\\. Free some space and try again\\.$`,
  );
const IO = (code: string) =>
  new RegExp(
    `^The disk holding your library could not be written \\(${code} in [^)]+\\): nothing was changed\\. Check the disk and try again\\.$`,
  );

let disk: SmallDisk;
let files: { path: string; remove: () => void };
let file: string;

beforeEach(async () => {
  disk = smallDisk();
  files = tempDir('citewise-faults-io-');
  file = join(disk.dataDir, LIBRARY_FILE);
  writeFileSync(join(files.path, 'small.bib'), bibtex(100, 'base'));
  const r = await run(disk.dataDir, 'import', join(files.path, 'small.bib'));
  expect(r.code, r.stderr).toBe(0);
});

afterEach(() => {
  disk.remove();
  files.remove();
});

const free = () => {
  const s = statfsSync(disk.dataDir);
  return s.bavail * s.bsize;
};

// better-sqlite3's own error, as its statements throw it.
const sqliteError = (code: string) => new Database.SqliteError('disk I/O error', code);

describe.skipIf(process.getuid?.() !== 0)(
  'an I/O error on a full disk is told as a full disk',
  { timeout: 120_000 },
  () => {
    it('opening a library on a full disk (SQLITE_IOERR_SHMSIZE) says the disk is full, and changes nothing', async () => {
      const before = libraryState(file);
      // Closed as the app leaves it at quit: the last connection's close removes -wal and -shm.
      const db = new Database(file);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      expect(readdirSync(disk.dataDir).filter((f) => /-(shm|wal)$/.test(f))).toEqual([]);
      disk.fill(file);
      const err = await LibraryClient.start({ file }).then(
        async (c) => {
          await c.close();
          return null;
        },
        (e: unknown) => e,
      );
      expect(disk.kind).toBe('tmpfs');
      expect(err).toBeInstanceOf(CoreError);
      expect((err as CoreError).message).toMatch(FULL('SQLITE_IOERR_SHMSIZE'));
      expect((err as CoreError).message).toContain(disk.dataDir);
      disk.free();
      expect(libraryState(file)).toEqual(before);
    });

    it('any other SQLITE_IOERR_* is a full disk below 1 MiB left, and a failing disk at and above it', () => {
      expect(FULL_BELOW_BYTES).toBe(1024 * 1024);
      const cases: [number, RegExp][] = [
        [0, FULL('SQLITE_IOERR_WRITE')],
        [FULL_BELOW_BYTES - 4096, FULL('SQLITE_IOERR_WRITE')],
        [FULL_BELOW_BYTES, IO('SQLITE_IOERR_WRITE')],
        [FULL_BELOW_BYTES + 4096, IO('SQLITE_IOERR_WRITE')],
      ];
      for (const [left, expected] of cases) {
        disk.free();
        disk.leaveFree(left);
        expect(free()).toBe(left);
        const err = storageFault(sqliteError('SQLITE_IOERR_WRITE'), disk.dataDir);
        expect(err?.message, `${left} bytes left`).toMatch(expected);
        expect(err?.details).toEqual({
          fault: expected.source.includes('is full') ? 'full' : 'io',
          cause: 'SQLITE_IOERR_WRITE',
        });
      }
      // SQLITE_IOERR_SHMSIZE has one cause, whatever statfs says; SQLITE_FULL is full anywhere.
      disk.free();
      expect(storageFault(sqliteError('SQLITE_IOERR_SHMSIZE'), disk.dataDir)?.message).toMatch(
        FULL('SQLITE_IOERR_SHMSIZE'),
      );
      expect(storageFault(sqliteError('SQLITE_FULL'), disk.dataDir)?.message).toMatch(FULL('SQLITE_FULL'));
      // A folder that is gone (statfs fails) leaves an I/O error as it was.
      expect(storageFault(sqliteError('SQLITE_IOERR_FSYNC'), join(disk.dataDir, 'gone'))?.message).toMatch(
        IO('SQLITE_IOERR_FSYNC'),
      );
    });
  },
);
