// Issue 18, point 2: the app and the command line share a library. A change the app makes while
// `citewise import` holds the write lock waits for it and is saved when the import commits; the app
// is told why it waits. Two imports at once both land, whole.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryClient } from '../../../electron/core/library/client';
import { IMPORT_MARKER } from '../../../electron/core/library/shared-use';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { run, tempDir } from '../cli-library/helpers';
import { bibtex, libraryState } from './disk';

let dir: { path: string; remove: () => void };
let file: string;

beforeEach(async () => {
  dir = tempDir('citewise-shared-');
  file = join(dir.path, LIBRARY_FILE);
  writeFileSync(join(dir.path, 'base.bib'), bibtex(20, 'base'));
  expect((await run(dir.path, 'import', join(dir.path, 'base.bib'))).code).toBe(0);
});
afterEach(() => dir.remove());

/** Whether another connection holds the write lock now (a BEGIN IMMEDIATE that does not wait fails). */
function lockHeld(): boolean {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 0');
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    throw err;
  } finally {
    db.close();
  }
}

async function until(what: string, test: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a library shared by the app and the command line', { timeout: 240_000 }, () => {
  it('keeps every edit the app makes during a long CLI import, saved when the import commits', async () => {
    const big = join(dir.path, 'big.bib');
    writeFileSync(big, bibtex(40_000, 'big', 100));
    const waits: { waiting: boolean; message: string }[] = [];
    const app = await LibraryClient.start({ file, onWaiting: (w) => waits.push(w) });
    try {
      const { rows } = await app.listing.list({ limit: 20 });
      expect(rows).toHaveLength(20);
      const importing = run(dir.path, 'import', big);
      await until('the import holds the write lock', () => existsSync(join(dir.path, IMPORT_MARKER)) && lockHeld());
      const heldFrom = Date.now();
      // Edits made while the import runs, each as the app makes them (read, change, write).
      const edits = rows.map(async (row, i) => {
        const detail = await app.lib.getItem(row.id);
        await app.lib.updateItem(row.id, { ...detail.csl, title: `Edited during the import ${i}` });
        return Date.now();
      });
      // Reads are answered meanwhile.
      expect((await app.listing.list({ limit: 1 })).rows).toHaveLength(1);
      const saved = await Promise.all(edits);
      const imported = await importing;
      expect(imported.code, imported.stderr).toBe(0);
      // Each edit was saved only after it had waited for the import (never while the lock was held by it).
      expect(Math.min(...saved)).toBeGreaterThan(heldFrom);
      expect(waits[0]).toEqual({ waiting: true, message: 'Saving when the import from the command line finishes' });
      // The all-saved notice is the worker's next message after the last result.
      await until('the app hears that everything was saved', () => waits.at(-1)?.waiting === false, 5_000);
      expect(waits).toHaveLength(2);
      for (const [i, row] of rows.entries())
        expect((await app.lib.getItem(row.id)).title).toBe(`Edited during the import ${i}`);
    } finally {
      await app.close();
    }
    const state = libraryState(file);
    expect(state).toMatchObject({ items: 40_020, indexed: 40_020, unindexed: 0 });
    expect(state.titles.filter((t) => t.startsWith('Edited during the import'))).toHaveLength(20);
    expect(existsSync(join(dir.path, IMPORT_MARKER))).toBe(false);
  });

  it('lands two CLI imports at once, each whole', async () => {
    writeFileSync(join(dir.path, 'a.bib'), bibtex(15_000, 'a', 100));
    writeFileSync(join(dir.path, 'b.bib'), bibtex(15_000, 'b', 100));
    const [a, b] = await Promise.all([
      run(dir.path, 'import', join(dir.path, 'a.bib')),
      run(dir.path, 'import', join(dir.path, 'b.bib')),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(libraryState(file)).toMatchObject({ items: 30_020, indexed: 30_020, unindexed: 0 });
  });
});
