// Issue 18, point 1: a full disk leaves the library exactly as it was, on every write path, and the
// user reads one plain sentence. Runs on a real 4 MB tmpfs when it can mount one (root), else with
// SQLite's max_page_count standing in for the disk's size.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { replaceLibraryFile } from '../../../electron/core/library/backup';
import { openDatabase } from '../../../electron/core/library/database';
import { migrations, type Migration } from '../../../electron/core/library/migrations';
import { LibraryClient } from '../../../electron/core/library/client';
import { importSource } from '../../../electron/core/library/import-source';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { run, tempDir } from '../cli-library/helpers';
import { bibtex, halfWritten, libraryState, smallDisk, type SmallDisk } from './disk';

const FULL =
  /^The disk holding your library is full \((SQLITE_FULL|ENOSPC|EDQUOT)[^)]*\): nothing was changed\. Free some space and try again\.$/;

let disk: SmallDisk;
let files: { path: string; remove: () => void };
let file: string;
let big: string;

beforeEach(async () => {
  disk = smallDisk();
  files = tempDir('citewise-faults-');
  file = join(disk.dataDir, LIBRARY_FILE);
  big = join(files.path, 'big.bib');
  writeFileSync(join(files.path, 'small.bib'), bibtex(100, 'base'));
  // Larger than what is left on the disk once it is filled, so the import meets the full disk.
  writeFileSync(big, bibtex(400, 'big', 1500));
  const r = await run(disk.dataDir, 'import', join(files.path, 'small.bib'));
  expect(r.code, r.stderr).toBe(0);
});

afterEach(() => {
  disk.remove();
  files.remove();
});

const start = () => LibraryClient.start({ file, maxPageCount: disk.maxPageCount() });

async function rejection(p: Promise<unknown>): Promise<CoreError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CoreError);
  return err as CoreError;
}

describe(
  `a full disk (${process.getuid?.() === 0 ? 'tmpfs when mountable' : 'max_page_count'})`,
  { timeout: 120_000 },
  () => {
    it('stops an import at the first SQLITE_FULL and leaves the library and its index as they were', async () => {
      const before = libraryState(file);
      expect(before.items).toBe(100);
      disk.fill(file);
      if (disk.kind === 'tmpfs') {
        // The command itself: one sentence, no stack, exit 1.
        const r = await run(disk.dataDir, 'import', big, join(files.path, 'small.bib'));
        expect(r.code).toBe(1);
        const lines = r.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]!.replace(/^citewise: /, '')).toMatch(FULL);
        expect(r.stderr).not.toMatch(/SqliteError|no transaction is active|\n\s+at /);
      } else {
        const client = await start();
        try {
          const err = await rejection(importSource(client, { kind: 'path', path: big }, { fileName: 'big.bib' }));
          expect(err.message).toMatch(FULL);
        } finally {
          await client.close();
        }
      }
      disk.free();
      const after = libraryState(file);
      expect(after).toEqual(before);
      expect(after.unindexed).toBe(0);
      // With room again the same import goes through whole.
      const r = await run(disk.dataDir, 'import', big);
      expect(r.code, r.stderr).toBe(0);
      expect(libraryState(file)).toMatchObject({ items: 500, indexed: 500, unindexed: 0 });
    });

    it('refuses an edit, a backup and a restore with the same sentence, changing nothing and leaving no half-written file', async () => {
      const pre = await run(disk.dataDir, 'backup');
      expect(pre.code, pre.stderr).toBe(0);
      const before = libraryState(file);
      disk.fill(file);
      const client = await start();
      try {
        const [first] = (await client.listing.list({ limit: 1 })).rows;
        const detail = await client.lib.getItem(first!.id);
        // An abstract larger than any free page or WAL space left.
        const edit = { ...detail.csl, title: 'Edited', abstract: 'x'.repeat(600_000) };
        expect((await rejection(client.lib.updateItem(first!.id, edit))).message).toMatch(FULL);
        // The worker's connection is usable afterwards, and not inside a leftover transaction.
        expect((await client.lib.getItem(first!.id)).title).toBe(detail.title);

        if (disk.kind === 'tmpfs') {
          // (max_page_count caps the library file only; VACUUM INTO writes a new file.)
          expect((await rejection(client.backup('manual'))).message).toMatch(FULL);
          expect(halfWritten(disk.dataDir)).toEqual([]);
        }
      } finally {
        await client.close();
      }
      if (disk.kind === 'tmpfs') {
        // A restore copies the backup beside the library first: with no room, the library stays.
        const backups = join(disk.dataDir, 'backups');
        const err = (() => {
          try {
            replaceLibraryFile(join(files.path, 'big.bib'), file);
            return null;
          } catch (e) {
            return e;
          }
        })();
        expect(err).toBeInstanceOf(CoreError);
        expect((err as CoreError).message).toMatch(FULL);
        expect(halfWritten(disk.dataDir)).toEqual([]);
        expect(halfWritten(backups)).toEqual([]);
      }
      disk.free();
      expect(libraryState(file)).toEqual(before);
    });

    it('rolls back a migration that meets a full disk, and migrates once there is room', async () => {
      // The next version's migration, writing more than the filled disk has left: 2.4 MB, which fits
      // beside the library once the disk is freed (3.2 MB no longer did: with 8 KiB pages an empty
      // library is 0.95 MB, against 0.49 MB with 4 KiB).
      const next: Migration = {
        version: migrations.length + 1,
        name: 'fault-test',
        up(db) {
          db.exec('CREATE TABLE fault_test (body TEXT NOT NULL) STRICT');
          const put = db.prepare('INSERT INTO fault_test (body) VALUES (?)');
          for (let i = 0; i < 300; i++) put.run('y'.repeat(8000));
        },
      };
      const before = libraryState(file);
      disk.fill(file);
      const open = () => openDatabase(file, { migrations: [...migrations, next], maxPageCount: disk.maxPageCount() });
      let err: unknown = null;
      try {
        open().close();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CoreError);
      expect((err as CoreError).message).toMatch(FULL);
      const version = (): number => {
        const db = new Database(file, { readonly: true });
        try {
          return db.pragma('user_version', { simple: true }) as number;
        } finally {
          db.close();
        }
      };
      expect(version()).toBe(migrations.length);
      disk.free();
      expect(libraryState(file)).toEqual(before);
      open().close();
      expect(version()).toBe(migrations.length + 1);
    });
  },
);
