// Auto-export runs against a real library in a temporary directory: what is re-rendered, when the
// file is rewritten, and that an incremental file is byte for byte a full export of the same items.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { exportItems } from '../../../electron/core/formats';
import { renderEntry } from '../../../electron/core/formats/entries';
import { nodeAtomicFs, type AtomicWriteFs } from '../../../electron/core/fs/atomic-write';
import { AutoExportStore, type AutoExportFormat } from '../../../electron/core/library/auto-export-store';
import { writeHandle } from '../../../electron/core/library/sql';
import type { Library } from '../../../electron/core/library/library';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';
import { tempDir } from '../../helpers/tmp';

/** What `citewise export` writes for these items: getItem, the key as id, sorted by key, exportItems. */
function fullExport(
  lib: Library,
  format: AutoExportFormat,
  options: { collectionId?: number; includeSubcollections?: boolean } = {},
): string {
  const rows = lib.listing.list({ ...options, limit: 1000 }).rows;
  const items: CslItem[] = rows.map((r) => {
    const d = lib.getItem(r.id);
    return { ...d.csl, id: d.citationKey, 'citation-key': d.citationKey } as CslItem;
  });
  items.sort((a, b) => (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0));
  return exportItems(items, format);
}

function seed(lib: Library, n: number): number[] {
  const items = Array.from({ length: n }, (_, i) =>
    article(
      `Paper number ${i} on Ürban “ecology”`,
      ['Smith', 'Łukasiewicz', 'Ng', 'O’Brien'][i % 4]!,
      1990 + (i % 30),
      {
        abstract: `Abstract ${i} with {braces} & 100% of it.`,
        DOI: `10.1000/${i}`,
        'container-title': 'Journal of Tests',
      },
    ),
  );
  return importItems(lib, items).ids;
}

describe('auto-export', () => {
  let t: TestLibrary;
  let store: AutoExportStore;
  let rendered: string[];
  let out: string;
  let outDir: ReturnType<typeof tempDir>;

  beforeEach(() => {
    t = testLibrary();
    rendered = [];
    // A second store over the same database, counting renders (the Library's own one does not).
    store = new AutoExportStore({
      db: writeHandle(t.db),
      now: Date.now,
      render: (item, format, options) => {
        rendered.push(String(item['citation-key']));
        return renderEntry(item, format, options);
      },
    });
    // Outside the library's folder: no export may write in Citewise's data folder (data-folder-guard.ts).
    outDir = tempDir('citewise-auto-export-out-');
    out = join(outDir.path, 'out');
    mkdirSync(out);
  });
  afterEach(() => {
    t.dispose();
    outDir.remove();
  });

  for (const format of ['bibtex', 'biblatex', 'csljson', 'ris'] as const) {
    it(`${format}: the first run equals a full export; an edit re-renders one entry and the file still equals a full export`, () => {
      const ids = seed(t.library, 40);
      const file = join(out, `refs.${format}`);
      const def = store.add({ path: file, format });
      const first = store.run(def.id);
      expect(first).toMatchObject({ status: 'written', itemCount: 40, rendered: 40, reused: 0 });
      expect(readFileSync(file, 'utf8')).toBe(fullExport(t.library, format));

      rendered = [];
      const item = t.library.getItem(ids[7]!);
      t.library.updateItem(ids[7]!, { ...item.csl, title: 'A new title with “quotes” and é' });
      const second = store.run(def.id);
      expect(second).toMatchObject({ status: 'written', itemCount: 40, rendered: 1, reused: 39, removed: 0 });
      expect(rendered).toEqual([item.citationKey]);
      expect(readFileSync(file, 'utf8')).toBe(fullExport(t.library, format));
      if (format === 'csljson') expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(40);
    });
  }

  it('does not rewrite the file when nothing changed (same inode and mtime), but does when it was deleted or edited', async () => {
    seed(t.library, 10);
    const file = join(out, 'refs.bib');
    const def = store.add({ path: file, format: 'bibtex' });
    store.run(def.id);
    const before = statSync(file);
    await new Promise((r) => setTimeout(r, 20));
    rendered = [];
    expect(store.run(def.id)).toMatchObject({ status: 'unchanged', rendered: 0, reused: 10 });
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(store.get(def.id)).toMatchObject({ status: 'unchanged', itemCount: 10, error: null });

    // Edited by hand: put back.
    writeFileSync(file, 'scribbled over');
    expect(store.run(def.id).status).toBe('written');
    expect(readFileSync(file, 'utf8')).toBe(fullExport(t.library, 'bibtex'));
    // Deleted: written again, from the cache.
    rmSync(file);
    rendered = [];
    expect(store.run(def.id)).toMatchObject({ status: 'written', rendered: 0 });
    expect(readFileSync(file, 'utf8')).toBe(fullExport(t.library, 'bibtex'));
  });

  it('follows a collection with its subcollections; items leaving it (removed, trashed, deleted) leave the file', () => {
    const ids = seed(t.library, 12);
    const thesis = t.library.createCollection('Thesis');
    const chapter = t.library.createCollection('Chapter 1', thesis);
    const other = t.library.createCollection('Other');
    t.library.addToCollection(thesis, ids.slice(0, 3));
    t.library.addToCollection(chapter, ids.slice(3, 6));
    t.library.addToCollection(other, ids.slice(6, 9));
    const withSubs = store.add({
      path: join(out, 'thesis.bib'),
      format: 'bibtex',
      scope: { kind: 'collection', collectionId: thesis, subcollections: true },
    });
    const topOnly = store.add({
      path: join(out, 'thesis-top.bib'),
      format: 'bibtex',
      scope: { kind: 'collection', collectionId: thesis, subcollections: false },
    });
    expect(store.run(withSubs.id).itemCount).toBe(6);
    expect(store.run(topOnly.id).itemCount).toBe(3);
    expect(readFileSync(join(out, 'thesis.bib'), 'utf8')).toBe(
      fullExport(t.library, 'bibtex', { collectionId: thesis }),
    );
    expect(readFileSync(join(out, 'thesis-top.bib'), 'utf8')).toBe(
      fullExport(t.library, 'bibtex', { collectionId: thesis, includeSubcollections: false }),
    );

    // Which definitions a change can affect: the one holding the item, or whose collection now holds it.
    const lib = store.add({ path: join(out, 'all.bib'), format: 'bibtex' });
    expect(store.affected([ids[4]!])).toEqual([withSubs.id, lib.id]);
    expect(store.affected([ids[10]!])).toEqual([lib.id]);
    t.library.addToCollection(chapter, [ids[10]!]);
    expect(store.affected([ids[10]!])).toEqual([withSubs.id, lib.id]);
    expect(store.affected()).toEqual([withSubs.id, topOnly.id, lib.id]);

    const keyOf = (id: number) => t.library.getItem(id).citationKey;
    t.library.removeFromCollection(chapter, [ids[3]!]);
    t.library.trashItems([ids[4]!]);
    t.library.deleteItems([ids[0]!]);
    // The removed item is out of the collection now, yet the file still holds it: still affected.
    expect(store.affected([ids[3]!])).toContain(withSubs.id);
    rendered = [];
    const r = store.run(withSubs.id);
    expect(r).toMatchObject({ status: 'written', itemCount: 4, removed: 3, rendered: 1 });
    expect(rendered).toEqual([keyOf(ids[10]!)]);
    const text = readFileSync(join(out, 'thesis.bib'), 'utf8');
    expect(text).toBe(fullExport(t.library, 'bibtex', { collectionId: thesis }));
    expect(text).not.toContain(`{${keyOf(ids[3]!)},`);
    expect(text).not.toContain(`{${keyOf(ids[4]!)},`);

    // Restored from the trash: back in the file.
    t.library.restoreItems([ids[4]!]);
    expect(store.run(withSubs.id).itemCount).toBe(5);
    expect(readFileSync(join(out, 'thesis.bib'), 'utf8')).toContain(`{${keyOf(ids[4]!)},`);
  });

  it('re-renders everything after a change of options, and puts notes and abstracts where asked', () => {
    const ids = seed(t.library, 5);
    const file = join(out, 'refs.json');
    const def = store.add({ path: file, format: 'csljson' });
    store.run(def.id);
    t.library.addNote(ids[2]!, 'Read this twice.');
    rendered = [];
    // Notes are not exported by default: the item is re-rendered (its revision moved) to the same bytes,
    // and the file is not rewritten.
    expect(store.run(def.id)).toMatchObject({ status: 'unchanged', rendered: 1 });
    store.update(def.id, { options: { notes: true, abstracts: false } });
    expect(store.run(def.id)).toMatchObject({ status: 'written', rendered: 5, reused: 0 });
    const items = JSON.parse(readFileSync(file, 'utf8')) as CslItem[];
    expect(items.every((i) => i.abstract === undefined)).toBe(true);
    expect(items.find((i) => i.DOI === '10.1000/2')?.note).toBe('Read this twice.');
    rendered = [];
    t.library.addNote(ids[3]!, 'Another note');
    expect(store.run(def.id)).toMatchObject({ rendered: 1 });
    expect((JSON.parse(readFileSync(file, 'utf8')) as CslItem[]).find((i) => i.DOI === '10.1000/3')?.note).toBe(
      'Another note',
    );
  });

  it('after undo, the file is again what it was', () => {
    const ids = seed(t.library, 6);
    const file = join(out, 'refs.bib');
    const def = store.add({ path: file, format: 'biblatex' });
    store.run(def.id);
    const original = readFileSync(file, 'utf8');
    t.library.setCitationKey(ids[1]!, 'zzzRenamed2024');
    store.run(def.id);
    expect(readFileSync(file, 'utf8')).toContain('@article{zzzRenamed2024,');
    expect(readFileSync(file, 'utf8')).toBe(fullExport(t.library, 'biblatex'));
    t.library.undo();
    store.run(def.id);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('an incremental file equals a full export after any sequence of changes', () => {
    const ids = seed(t.library, 30);
    const col = t.library.createCollection('Mixed');
    const sub = t.library.createCollection('Sub', col);
    const file = join(out, 'mixed.bib');
    const def = store.add({
      path: file,
      format: 'bibtex',
      scope: { kind: 'collection', collectionId: col, subcollections: true },
    });
    let seedValue = 7;
    const rand = (n: number) => {
      seedValue = (seedValue * 1103515245 + 12345) % 2 ** 31;
      return seedValue % n;
    };
    for (let step = 0; step < 60; step++) {
      const id = ids[rand(ids.length)]!;
      const trashed = t.library.getItem(id).trashedAt !== null;
      switch (rand(6)) {
        case 0:
          t.library.addToCollection(rand(2) ? col : sub, [id]);
          break;
        case 1:
          t.library.removeFromCollection(rand(2) ? col : sub, [id]);
          break;
        case 2:
          if (trashed) t.library.restoreItems([id]);
          else t.library.trashItems([id]);
          break;
        case 3:
          t.library.updateItem(id, { ...t.library.getItem(id).csl, volume: String(step) });
          break;
        case 4:
          t.library.addTags([id], [`t${step}`]);
          break;
        case 5:
          t.library.undo();
          break;
      }
      if (rand(3) === 0) {
        expect(store.run(def.id).status).not.toBe('error');
        expect(readFileSync(file, 'utf8')).toBe(fullExport(t.library, 'bibtex', { collectionId: col }));
      }
    }
  });

  it('re-renders an edit made in the same millisecond, and an item brought back by undo', () => {
    const frozen = testLibrary({ now: () => 1_700_000_000_000 });
    try {
      const fstore = new AutoExportStore({ db: writeHandle(frozen.db), now: Date.now });
      const ids = seed(frozen.library, 3);
      const file = join(out, 'refs.bib');
      const def = fstore.add({ path: file, format: 'bibtex' });
      fstore.run(def.id);
      // Same clock reading: the modification time cannot tell the edit apart, the revision does.
      frozen.library.updateItem(ids[1]!, {
        ...frozen.library.getItem(ids[1]!).csl,
        title: 'Edited at the same instant',
      });
      expect(fstore.run(def.id)).toMatchObject({ status: 'written', rendered: 1 });
      expect(readFileSync(file, 'utf8')).toBe(fullExport(frozen.library, 'bibtex'));

      // Deleted, written without it, then brought back by undo under its own id.
      const key = frozen.library.getItem(ids[2]!).citationKey;
      frozen.library.deleteItems([ids[2]!]);
      expect(fstore.run(def.id)).toMatchObject({ status: 'written', itemCount: 2, removed: 1 });
      frozen.library.undo();
      expect(fstore.run(def.id)).toMatchObject({ status: 'written', itemCount: 3, rendered: 1 });
      expect(readFileSync(file, 'utf8')).toContain(`@article{${key},`);
      expect(readFileSync(file, 'utf8')).toBe(fullExport(frozen.library, 'bibtex'));
    } finally {
      frozen.dispose();
    }
  });

  it('marks the file as behind the cache before writing, so a crash before the rename is repaired by the next run', () => {
    const ids = seed(t.library, 4);
    const file = join(out, 'refs.bib');
    const def = store.add({ path: file, format: 'bibtex' });
    store.run(def.id);
    const statusDuringWrite: unknown[] = [];
    const crashing: AtomicWriteFs = {
      ...nodeAtomicFs,
      openSync(path, flags, mode) {
        if (flags === 'wx') {
          statusDuringWrite.push(t.db.prepare('SELECT last_status FROM auto_exports WHERE id = ?').pluck().get(def.id));
          throw new Error('the process died here');
        }
        return nodeAtomicFs.openSync(path, flags, mode);
      },
    };
    t.library.updateItem(ids[0]!, { ...t.library.getItem(ids[0]!).csl, title: 'Never written' });
    new AutoExportStore({ db: writeHandle(t.db), now: Date.now, fs: crashing }).run(def.id);
    expect(statusDuringWrite).toEqual(['pending']);
    // Had the process died there, the status would have stayed "pending": simulate that and run again.
    t.db.prepare("UPDATE auto_exports SET last_status = 'pending', last_error = NULL WHERE id = ?").run(def.id);
    expect(store.run(def.id)).toMatchObject({ status: 'written', rendered: 0 });
    expect(readFileSync(file, 'utf8')).toContain('Never written');
  });

  it('never shows a partial file: readers see the old file until the complete new one is renamed over it', () => {
    const ids = seed(t.library, 20);
    const file = join(out, 'refs.bib');
    const def = store.add({ path: file, format: 'bibtex' });
    store.run(def.id);
    const old = readFileSync(file, 'utf8');
    const seen: { target: string; temp: string }[] = [];
    const watching: AtomicWriteFs = {
      ...nodeAtomicFs,
      renameSync(from, to) {
        seen.push({ target: readFileSync(to, 'utf8'), temp: readFileSync(from, 'utf8') });
        nodeAtomicFs.renameSync(from, to);
      },
    };
    const watched = new AutoExportStore({ db: writeHandle(t.db), now: Date.now, fs: watching });
    t.library.updateItem(ids[0]!, { ...t.library.getItem(ids[0]!).csl, title: 'Changed' });
    expect(watched.run(def.id).status).toBe('written');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.target).toBe(old);
    expect(seen[0]!.temp).toBe(readFileSync(file, 'utf8'));
    expect(readdirSync(out)).toEqual(['refs.bib']);
  });

  it('a write failing half-way removes its temporary file, keeps the old file and records an error', () => {
    const ids = seed(t.library, 50);
    const file = join(out, 'refs.bib');
    const def = store.add({ path: file, format: 'bibtex' });
    store.run(def.id);
    const old = readFileSync(file, 'utf8');
    const oldIno = statSync(file).ino;
    let writes = 0;
    const failing: AtomicWriteFs = {
      ...nodeAtomicFs,
      writeSync(fd, buffer, offset, length) {
        if (writes++ > 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        // Half of what was asked, so the loop comes back for more and fails then.
        return nodeAtomicFs.writeSync(fd, buffer, offset, Math.ceil(length / 2));
      },
    };
    const failingStore = new AutoExportStore({ db: writeHandle(t.db), now: Date.now, fs: failing });
    t.library.updateItem(ids[0]!, { ...t.library.getItem(ids[0]!).csl, title: 'Changed' });
    const r = failingStore.run(def.id);
    expect(r).toMatchObject({ status: 'error', errorCode: 'INTERNAL' });
    expect(r.error).toContain(`Could not write ${file}: the disk holding ${out} is full`);
    expect(readFileSync(file, 'utf8')).toBe(old);
    expect(statSync(file).ino).toBe(oldIno);
    expect(readdirSync(out)).toEqual(['refs.bib']);
    expect(store.get(def.id)).toMatchObject({ status: 'error', error: r.error });
    // The next good run puts the change in and clears the error.
    expect(store.run(def.id)).toMatchObject({ status: 'written', rendered: 0 });
    expect(store.get(def.id)).toMatchObject({ status: 'written', error: null });
    expect(readFileSync(file, 'utf8')).toBe(fullExport(t.library, 'bibtex'));
  });

  it('records a clear error when the folder is gone or may not be written, and keeps the old file', () => {
    seed(t.library, 3);
    const dir = join(out, 'papers');
    mkdirSync(dir);
    const file = join(dir, 'refs.bib');
    const def = store.add({ path: file, format: 'bibtex' });
    store.run(def.id);
    const old = readFileSync(file, 'utf8');

    const denied: AtomicWriteFs = {
      ...nodeAtomicFs,
      openSync(path, flags, mode) {
        if (flags === 'wx')
          throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
        return nodeAtomicFs.openSync(path, flags, mode);
      },
    };
    t.library.addItem(article('One more', 'Doe', 2001));
    const r = new AutoExportStore({ db: writeHandle(t.db), now: Date.now, fs: denied }).run(def.id);
    expect(r).toMatchObject({ status: 'error', errorCode: 'FORBIDDEN' });
    expect(r.error).toBe(
      `Could not write ${file}: Citewise is not allowed to write in ${dir}. The previous file, if there is one, was left as it was.`,
    );
    expect(readFileSync(file, 'utf8')).toBe(old);
    expect(readdirSync(dir)).toEqual(['refs.bib']);

    rmSync(dir, { recursive: true });
    const gone = store.run(def.id);
    expect(gone).toMatchObject({ status: 'error', errorCode: 'NOT_FOUND' });
    expect(gone.error).toContain(`the folder ${dir} does not exist`);
    expect(existsSync(dir)).toBe(false);
    expect(store.list()[0]).toMatchObject({ status: 'error', error: gone.error });

    mkdirSync(dir);
    expect(store.run(def.id)).toMatchObject({ status: 'written', itemCount: 4 });
  });

  it.skipIf(process.getuid?.() === 0)('keeps the old file in a read-only folder (real permissions)', async () => {
    const { chmodSync } = await import('node:fs');
    seed(t.library, 3);
    const file = join(out, 'refs.bib');
    const def = store.add({ path: file, format: 'bibtex' });
    store.run(def.id);
    const old = readFileSync(file, 'utf8');
    t.library.addItem(article('One more', 'Doe', 2001));
    chmodSync(out, 0o555);
    try {
      expect(store.run(def.id)).toMatchObject({ status: 'error', errorCode: 'FORBIDDEN' });
      expect(readFileSync(file, 'utf8')).toBe(old);
      expect(readdirSync(out)).toEqual(['refs.bib']);
    } finally {
      chmodSync(out, 0o755);
    }
  });

  it('writes through a symbolic link to the file it points to', () => {
    seed(t.library, 3);
    const real = join(out, 'synced', 'refs.bib');
    mkdirSync(join(out, 'synced'));
    writeFileSync(real, 'old');
    const link = join(out, 'link.bib');
    symlinkSync(real, link);
    const def = store.add({ path: link, format: 'bibtex' });
    expect(store.run(def.id).status).toBe('written');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe(fullExport(t.library, 'bibtex'));
    expect(store.run(def.id).status).toBe('unchanged');
  });

  it('records an unexpected failure (an exporter throwing) on the definition and keeps the old file', () => {
    const ids = seed(t.library, 3);
    const file = join(out, 'refs.bib');
    const def = store.add({ path: file, format: 'bibtex' });
    store.run(def.id);
    const old = readFileSync(file, 'utf8');
    const broken = new AutoExportStore({
      db: writeHandle(t.db),
      now: Date.now,
      render: () => {
        throw new Error('exporter bug');
      },
    });
    t.library.updateItem(ids[0]!, { ...t.library.getItem(ids[0]!).csl, title: 'Changed' });
    expect(() => broken.run(def.id)).toThrow(`Auto-export to ${file} failed: exporter bug.`);
    expect(store.get(def.id)).toMatchObject({
      status: 'error',
      error: expect.stringContaining('exporter bug') as string,
    });
    expect(readFileSync(file, 'utf8')).toBe(old);
    expect(store.run(def.id)).toMatchObject({ status: 'written', rendered: 1 });
  });

  it('says so when the followed collection was deleted, and leaves the file', () => {
    const ids = seed(t.library, 3);
    const col = t.library.createCollection('Gone soon');
    t.library.addToCollection(col, ids);
    const file = join(out, 'gone.bib');
    const def = store.add({
      path: file,
      format: 'bibtex',
      scope: { kind: 'collection', collectionId: col, subcollections: true },
    });
    store.run(def.id);
    const old = readFileSync(file, 'utf8');
    t.library.deleteCollection(col);
    const r = store.run(def.id);
    expect(r).toMatchObject({ status: 'error', errorCode: 'NOT_FOUND' });
    expect(r.error).toMatch(/collection this auto-export follows .* was deleted/);
    expect(readFileSync(file, 'utf8')).toBe(old);
  });

  it('validates definitions and forgets a removed one with its cache', () => {
    expect(() => store.add({ path: 'relative.bib', format: 'bibtex' })).toThrow(/absolute/);
    expect(() => store.add({ path: join(out, 'x.bib'), format: 'docx' as AutoExportFormat })).toThrow(/format/);
    expect(() =>
      store.add({
        path: join(out, 'x.bib'),
        format: 'bibtex',
        scope: { kind: 'collection', collectionId: 99, subcollections: true },
      }),
    ).toThrow(/no collection/);
    expect(() => store.add({ path: join(out, 'x.bib'), format: 'bibtex', options: { colour: true } as never })).toThrow(
      /Unknown auto-export option/,
    );
    const def = store.add({ path: join(out, 'x.bib'), format: 'bibtex' });
    expect(def).toMatchObject({
      status: 'pending',
      lastRunAt: null,
      scope: { kind: 'library' },
      options: { abstracts: true, notes: false, ascii: false },
    });
    expect(() => store.add({ path: join(out, 'x.bib'), format: 'ris' })).toThrow(/already writes/);
    seed(t.library, 2);
    store.run(def.id);
    expect(t.db.prepare('SELECT count(*) FROM auto_export_entries WHERE export_id = ?').pluck().get(def.id)).toBe(2);
    store.remove(def.id);
    expect(store.list()).toEqual([]);
    expect(t.db.prepare('SELECT count(*) FROM auto_export_entries').pluck().get()).toBe(0);
    expect(existsSync(join(out, 'x.bib'))).toBe(true);
    expect(() => store.run(def.id)).toThrow(/no auto-export with id/);
  });

  it('is reachable through Library, as the worker facade calls it', () => {
    seed(t.library, 4);
    const file = join(out, 'lib.ris');
    const def = t.library.autoExports.add({ path: file, format: 'ris' });
    expect(t.library.autoExports.run(def.id)).toMatchObject({ status: 'written', itemCount: 4 });
    expect(readFileSync(file, 'utf8')).toBe(fullExport(t.library, 'ris'));
    expect(t.library.autoExports.update(def.id, { format: 'csljson' }).format).toBe('csljson');
    expect(t.library.autoExports.run(def.id)).toMatchObject({ status: 'written', rendered: 4 });
    expect(t.library.autoExports.list().map((d) => d.id)).toEqual([def.id]);
    expect(t.library.autoExports.affected([1])).toEqual([def.id]);
    t.library.autoExports.remove(def.id);
    expect(t.library.autoExports.list()).toEqual([]);
  });
});
