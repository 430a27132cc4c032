// Importing a Zotero data folder from the app: a read-only preview of what it holds, the import as
// one undo step that can be cancelled with nothing left behind, and clear words for a folder that is
// locked by a running Zotero, is not Zotero's, or has lost its storage/ folder.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { ZOTERO_FLOW } from '../../../electron/core/library/zotero-room';
import type { ZoteroImportPreview, ZoteroImportReport } from '../../../shared/ipc';
import { tempDir } from '../../helpers/tmp';
import { sampleZoteroLibrary, writeZoteroFolder, type ZoteroDbSpec } from '../../helpers/zotero-db';

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every file under a folder, for "nothing was left behind". */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('the Zotero data-folder import, as the app runs it', () => {
  const dir = tempDir('citewise-zotero-app-');
  const folder = join(dir.path, 'Zotero');
  const dataDir = join(dir.path, 'data');
  let core: Core;
  let database: string;
  let preview: ZoteroImportPreview;

  beforeAll(async () => {
    database = writeZoteroFolder(folder, await sampleZoteroLibrary());
    core = await createCore({ dataDir, mode: 'test', logger: silentLogger });
  }, 60_000);
  afterAll(async () => {
    await core.close();
    dir.remove();
  });

  it('previews the folder without writing anything, to the library or to Zotero’s files', async () => {
    const before = hash(database);
    const r = await core.invoke('zotero.import.preview', { path: folder });
    if (!r.ok) throw new Error(r.error.message);
    preview = r.value as ZoteroImportPreview;
    expect(preview).toMatchObject({
      folder,
      database,
      locked: false,
      items: 8,
      duplicates: 0,
      // Thesis, Chapter 1 ×2, Shared, and the group library "Lab group".
      collections: 5,
      notes: 2,
      standaloneNotes: 1,
      annotatedFiles: 1,
      attachments: { stored: 1, linked: 0, links: 1, missing: ['/nowhere/lost.pdf'] },
      storageMissing: false,
      pinnedKeys: 3,
      trashed: 1,
      groups: ['Lab group'],
      savedSearches: 1,
    });
    expect(preview.tags).toBe(2);
    expect(hash(database)).toBe(before);
    expect((await core.library.listing.list({ limit: 10, trash: false })).rows.length).toBe(0);
    expect(await core.library.lib.listCollections()).toEqual([]);
    expect(filesUnder(join(dataDir, 'attachments'))).toEqual([]);
  });

  it('says a running Zotero holds the database, and previews it all the same from a copy', async () => {
    const zotero = new Database(database);
    zotero.pragma('locking_mode = EXCLUSIVE');
    zotero.exec('BEGIN EXCLUSIVE');
    try {
      const r = await core.invoke('zotero.import.preview', { path: folder });
      expect(r).toMatchObject({ ok: true, value: { locked: true, items: 8 } });
    } finally {
      zotero.exec('COMMIT');
      zotero.close();
    }
    // Closed again: not locked.
    expect(await core.invoke('zotero.import.preview', { path: folder })).toMatchObject({
      ok: true,
      value: { locked: false },
    });
  });

  it('stops a cancelled import with nothing written and no file left behind', async () => {
    const flow = new Int32Array(new SharedArrayBuffer(12));
    Atomics.store(flow, ZOTERO_FLOW.cancel, 1);
    const err = await core.library.lib
      .importZoteroFolder(folder, { storeDir: join(dataDir, 'attachments'), mode: 'copy', progress: flow })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ code: 'CANCELLED' });
    expect((await core.library.listing.list({ limit: 10, trash: false })).rows.length).toBe(0);
    expect(filesUnder(join(dataDir, 'attachments'))).toEqual([]);
    expect(await core.invoke('library.undo.tops', {})).toMatchObject({ ok: true, value: { undo: null } });
  });

  it('counts its progress through the shared flow while it imports', async () => {
    // The import on its own (the IPC one below runs it as a job): every record counted once.
    const other = await createCore({ dataDir: join(dir.path, 'other'), mode: 'test', logger: silentLogger });
    try {
      const flow = new Int32Array(new SharedArrayBuffer(12));
      await other.library.lib.importZoteroFolder(folder, {
        storeDir: join(dir.path, 'other', 'attachments'),
        mode: 'copy',
        progress: flow,
      });
      expect(Atomics.load(flow, ZOTERO_FLOW.total)).toBeGreaterThan(8);
      expect(Atomics.load(flow, ZOTERO_FLOW.done)).toBe(Atomics.load(flow, ZOTERO_FLOW.total));
    } finally {
      await other.close();
    }
  });

  it('imports what the preview said, as one undo step that moves it all to the Trash', async () => {
    const r = await core.invoke('zotero.import', { path: folder });
    if (!r.ok) throw new Error(r.error.message);
    const report = r.value as ZoteroImportReport;
    expect(report).toMatchObject({
      items: preview.items,
      duplicates: preview.duplicates,
      collections: preview.collections,
      tags: preview.tags,
      pinnedKeys: preview.pinnedKeys,
      trashed: preview.trashed,
      standaloneNotes: preview.standaloneNotes,
      attachments: preview.attachments,
    });
    // Notes on items and standalone, plus one note per annotated file.
    expect(report.notes).toBe(preview.notes + preview.annotatedFiles);
    const tops = await core.library.lib.undoTops();
    expect(tops.undo?.label).toBe('Import 9 items from Zotero');

    const undone = await core.invoke('library.undo', { id: tops.undo!.id });
    expect(undone).toMatchObject({ ok: true, value: { label: 'Import 9 items from Zotero' } });
    expect((await core.library.listing.list({ limit: 10, trash: false })).rows.length).toBe(0);
    // Undo never deletes: the 8 items and the standalone note are in the Trash (one was there already).
    expect((await core.library.listing.list({ limit: 20, trash: true })).rows.length).toBe(9);
    const redone = await core.invoke('library.redo', {});
    expect(redone).toMatchObject({ ok: true, value: { label: 'Import 9 items from Zotero' } });
    expect((await core.library.listing.list({ limit: 20, trash: false })).rows.length).toBe(8);
  });

  it('previews a folder imported before as already in the library', async () => {
    const r = await core.invoke('zotero.import.preview', { path: folder });
    expect(r).toMatchObject({ ok: true, value: { items: 8, duplicates: 8 } });
  });
});

describe('what the preview says about a folder that is not as Zotero left it', () => {
  const dir = tempDir('citewise-zotero-bad-');
  let core: Core;

  beforeAll(async () => {
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
  }, 60_000);
  afterAll(async () => {
    await core.close();
    dir.remove();
  });

  it('names a folder without zotero.sqlite, a missing folder, a relative path and a file that is no database', async () => {
    expect(await core.invoke('zotero.import.preview', { path: dir.path })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: expect.stringContaining('has no zotero.sqlite') },
    });
    expect(await core.invoke('zotero.import.preview', { path: join(dir.path, 'nowhere') })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: expect.stringContaining('There is no folder at') },
    });
    expect(await core.invoke('zotero.import.preview', { path: 'Zotero' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('full path') },
    });
    const fake = join(dir.path, 'Fake');
    writeZoteroFolder(fake, { items: [] });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(fake, 'zotero.sqlite'), 'not a database at all, but long enough to be read as one');
    expect(await core.invoke('zotero.import.preview', { path: fake })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('could not be read as a Zotero database') },
    });
  });

  it('refuses a path with control characters, an empty one and one too long, at the boundary', async () => {
    for (const path of [`${dir.path}/a\u0000b`, '   ', `/${'a'.repeat(4096)}`])
      expect(await core.invoke('zotero.import.preview', { path })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT' },
      });
    // 4,096 characters is allowed (and then not found).
    expect(await core.invoke('zotero.import.preview', { path: `/${'a'.repeat(4095)}` })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('says when storage/ is gone though files are stored there, and not when none are', async () => {
    const spec: ZoteroDbSpec = {
      items: [
        { key: 'ITEMAAAA', type: 'book', fields: { title: 'A book' } },
        {
          key: 'ATTAAAAA',
          type: 'attachment',
          parent: 'ITEMAAAA',
          fields: { title: 'Scan' },
          attachment: {
            linkMode: 0,
            contentType: 'application/pdf',
            path: 'storage:scan.pdf',
            file: new TextEncoder().encode('%PDF-1.4\n%%EOF\n'),
          },
        },
      ],
    };
    const folder = join(dir.path, 'Moved');
    writeZoteroFolder(folder, spec);
    const present = await core.invoke('zotero.import.preview', { path: folder });
    expect(present).toMatchObject({ ok: true, value: { storageMissing: false, attachments: { stored: 1 } } });
    renameSync(join(folder, 'storage'), join(dir.path, 'storage-elsewhere'));
    const gone = await core.invoke('zotero.import.preview', { path: folder });
    expect(gone).toMatchObject({
      ok: true,
      value: {
        storageMissing: true,
        attachments: { stored: 0, missing: [join(folder, 'storage', 'ATTAAAAA', 'scan.pdf')] },
      },
    });
    const bare = join(dir.path, 'Bare');
    writeZoteroFolder(bare, { items: [{ key: 'ITEMBBBB', type: 'book', fields: { title: 'B' } }] });
    expect(existsSync(join(bare, 'storage')) && statSync(join(bare, 'storage')).isDirectory()).toBeDefined();
    expect(await core.invoke('zotero.import.preview', { path: bare })).toMatchObject({
      ok: true,
      value: { storageMissing: false },
    });
  });
});
