// Issue 41, point 1: an edit the app answered is saved whatever becomes of an import that runs at the
// same time. The app's own import used to hold its transaction open on the connection every other
// write went through, so a note or tag added meanwhile was written inside it and rolled back with a
// cancelled import or one that met a full disk, after the user had been told it was saved.
import { statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { LibraryClient } from '../../../electron/core/library/client';
import { importSource } from '../../../electron/core/library/import-source';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { run, tempDir } from '../cli-library/helpers';
import { bibtex, libraryState, smallDisk, type SmallDisk } from './disk';

/** What the file holds, read by a connection of its own: the notes and tags of the library. */
function saved(file: string): { notes: string[]; tags: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      notes: db.prepare('SELECT text FROM notes ORDER BY id').pluck().all() as string[],
      tags: db.prepare('SELECT name FROM tags ORDER BY name').pluck().all() as string[],
    };
  } finally {
    db.close();
  }
}

/** Whether another connection holds the write lock now (a BEGIN IMMEDIATE that does not wait fails). */
function lockHeld(file: string): boolean {
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

function articles(count: number, prefix: string, abstractBytes = 100): CslItem[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${i}`,
    type: 'article-journal',
    title: `${prefix} article ${i}`,
    author: [{ family: 'Writer', given: 'Ann' }],
    abstract: 'x'.repeat(abstractBytes),
  }));
}

/** An import's chunks, the second held back until `release` is called: the import stays open meanwhile. */
function heldImport(first: CslItem[], second: CslItem[]) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let firstSent!: () => void;
  const opened = new Promise<void>((r) => (firstSent = r));
  async function* chunks(): AsyncGenerator<CslItem[]> {
    yield first;
    firstSent();
    await gate;
    yield second;
  }
  return { chunks: chunks(), opened, release };
}

describe('an edit made while the app imports', { timeout: 180_000 }, () => {
  let dir: { path: string; remove: () => void };
  let file: string;

  beforeEach(async () => {
    dir = tempDir('citewise-import-edits-');
    file = join(dir.path, LIBRARY_FILE);
    writeFileSync(join(dir.path, 'base.bib'), bibtex(20, 'base'));
    expect((await run(dir.path, 'import', join(dir.path, 'base.bib'))).code).toBe(0);
  });
  afterEach(() => dir.remove());

  it('stays saved when the import is cancelled', async () => {
    const waits: { waiting: boolean; message: string }[] = [];
    const app = await LibraryClient.start({ file, onWaiting: (w) => waits.push(w) });
    try {
      const [row] = (await app.listing.list({ limit: 1 })).rows;
      const held = heldImport(articles(300, 'a'), articles(300, 'b'));
      const cancel = new AbortController();
      const importing = app.importItems(held.chunks, { signal: cancel.signal, source: 'held.json' });
      importing.catch(() => undefined);
      await held.opened;
      await until('the import holds the write lock', () => lockHeld(file));
      const note = app.lib.addNote(row!.id, 'Read during the import');
      const tag = app.lib.addTags([row!.id], ['during-import']);
      // Reads are answered meanwhile.
      expect((await app.listing.list({ limit: 1 })).rows).toHaveLength(1);
      cancel.abort();
      held.release();
      await expect(importing).rejects.toThrow(/cancelled/);
      const noteId = await note;
      await tag;
      expect(noteId).toBeGreaterThan(0);
      const detail = await app.lib.getItem(row!.id);
      expect(detail.notes.map((n) => n.text)).toEqual(['Read during the import']);
      expect(detail.tags).toContain('during-import');
      expect(waits[0]).toEqual({ waiting: true, message: 'Saving when the import finishes' });
      await until('the app hears that everything was saved', () => waits.at(-1)?.waiting === false, 5_000);
    } finally {
      await app.close();
    }
    // On disk, read by another connection: the edits are there, the cancelled import is not.
    expect(saved(file)).toEqual({ notes: ['Read during the import'], tags: ['during-import'] });
    expect(libraryState(file)).toMatchObject({ items: 20, indexed: 20, unindexed: 0 });
  });

  it('stays saved when the import of a file is cancelled from the app', async () => {
    const big = join(dir.path, 'big.bib');
    writeFileSync(big, bibtex(30_000, 'big', 100));
    const app = await LibraryClient.start({ file });
    try {
      const [row] = (await app.listing.list({ limit: 1 })).rows;
      const cancel = new AbortController();
      const importing = importSource(app, { kind: 'path', path: big }, { fileName: 'big.bib', signal: cancel.signal });
      importing.catch(() => undefined);
      await until('the import holds the write lock', () => lockHeld(file));
      const tag = app.lib.addTags([row!.id], ['tagged-while-importing']);
      await new Promise((r) => setTimeout(r, 50));
      cancel.abort();
      await expect(importing).rejects.toThrow(/cancelled/);
      await tag;
      expect((await app.lib.getItem(row!.id)).tags).toContain('tagged-while-importing');
    } finally {
      await app.close();
    }
    expect(saved(file).tags).toContain('tagged-while-importing');
    expect(libraryState(file)).toMatchObject({ items: 20, indexed: 20, unindexed: 0 });
  });

  it('stays saved when the import that was running meets a full disk, and is kept when it commits', async () => {
    const disk: SmallDisk = smallDisk();
    try {
      const data = disk.dataDir;
      const lib = join(data, LIBRARY_FILE);
      writeFileSync(join(dir.path, 'small.bib'), bibtex(20, 'base'));
      expect((await run(data, 'import', join(dir.path, 'small.bib'))).code).toBe(0);
      disk.fill(lib);
      // A little room for the edit: the import's second chunk is far larger than what is left.
      disk.free();
      const room = disk.kind === 'tmpfs' ? undefined : (disk.maxPageCount() ?? 0) + 64;
      if (disk.kind === 'tmpfs') fillLeaving(data, 256 * 1024);
      const app = await LibraryClient.start({ file: lib, maxPageCount: room });
      try {
        const [row] = (await app.listing.list({ limit: 1 })).rows;
        const held = heldImport(articles(5, 'a'), articles(4000, 'b', 2000));
        const importing = app.importItems(held.chunks, { source: 'held.json' });
        importing.catch(() => undefined);
        await held.opened;
        await until('the import holds the write lock', () => lockHeld(lib));
        const note = app.lib.addNote(row!.id, 'Kept through a full disk');
        held.release();
        const err = await importing.then(
          () => null,
          (e: unknown) => e as Error,
        );
        expect(err?.message).toMatch(/disk holding your library is full|could not be written/);
        await note;
        expect((await app.lib.getItem(row!.id)).notes.map((n) => n.text)).toEqual(['Kept through a full disk']);

        // The other side, with room on the disk again: an import that commits keeps the edit made
        // meanwhile, and its own items.
        disk.free();
        const ok = heldImport(articles(3, 'c'), articles(3, 'd'));
        const committing = app.importItems(ok.chunks, { source: 'ok.json' });
        await ok.opened;
        const second = app.lib.addNote(row!.id, 'Made while a good import ran');
        ok.release();
        expect((await committing).added).toBe(6);
        await second;
      } finally {
        await app.close();
      }
      expect(saved(lib).notes).toEqual(['Kept through a full disk', 'Made while a good import ran']);
      expect(libraryState(lib)).toMatchObject({ items: 26, indexed: 26, unindexed: 0 });
    } finally {
      disk.remove();
    }
  });
});

/** Fills the tmpfs holding `data` to all but `leave` bytes (the file disk.free() removes). */
function fillLeaving(data: string, leave: number): void {
  const fs = statfsSync(data);
  writeFileSync(join(data, '..', 'filler'), Buffer.alloc(Math.max(0, Number(fs.bavail) * Number(fs.bsize) - leave), 1));
}
