// A Zotero data folder imported directly (zotero.sqlite with storage/ and Better BibTeX's database):
// everything arrives, the counts are said, and Zotero's files are never changed, even while Zotero
// holds its database.
import Database from 'better-sqlite3';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import type { ZoteroImportReport } from '../../../shared/ipc';
import { tempDir } from '../../helpers/tmp';
import { sampleZoteroLibrary, writeZoteroFolder } from '../../helpers/zotero-db';

describe('importing a Zotero data folder', () => {
  const dir = tempDir('citewise-zotero-import-');
  const folder = join(dir.path, 'Zotero');
  let core: Core;
  let database: string;
  let report: ZoteroImportReport;

  beforeAll(async () => {
    database = writeZoteroFolder(folder, await sampleZoteroLibrary());
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
  }, 60_000);
  afterAll(async () => {
    await core.close();
    dir.remove();
  });

  it('never changes Zotero’s database, and reads it while Zotero holds it locked', async () => {
    const before = { bytes: readFileSync(database), mtime: statSync(database).mtimeMs };
    // Zotero holds its database with an exclusive lock while it runs.
    const zotero = new Database(database);
    zotero.pragma('locking_mode = EXCLUSIVE');
    zotero.exec('BEGIN EXCLUSIVE');
    try {
      const r = await core.invoke('zotero.import', { path: folder });
      if (!r.ok) throw new Error(r.error.message);
      report = r.value as ZoteroImportReport;
    } finally {
      zotero.exec('COMMIT');
      zotero.close();
    }
    expect(readFileSync(database)).toEqual(before.bytes);
    expect(statSync(database).mtimeMs).toBe(before.mtime);
  });

  it('reports what it brought and what it could not', () => {
    expect(report).toMatchObject({
      items: 8,
      added: 9,
      duplicates: 0,
      standaloneNotes: 1,
      notes: 3,
      collections: 5,
      trashed: 1,
      pinnedKeys: 3,
      attachments: { stored: 1, linked: 0, links: 1, missing: ['/nowhere/lost.pdf'] },
    });
    expect(report.warnings.join('\n')).toContain('1 saved search not imported');
  });

  it('brings items of every type with their fields, creators, tags, keys, dates and children', async () => {
    const lib = core.library.lib;
    const franklin = await lib.getItem((await lib.findByCitationKey('franklin1953pinned'))!);
    expect(franklin.csl).toMatchObject({
      type: 'article-journal',
      title: 'Molecular configuration in sodium thymonucleate',
      'container-title': 'Nature',
      issued: { 'date-parts': [[1953, 4, 25]] },
      source: 'www.nature.com',
      custom: { zotero: { links: [{ title: 'Nature page', url: 'https://www.nature.com/articles/171740a0' }] } },
    });
    expect(franklin.dateAdded).toBe(Date.parse('2019-06-01T10:00:00Z'));
    expect(franklin.tags).toEqual(['DNA', 'x-ray']);
    // Notes keep their HTML through the note allowlist: headings, links, and the citation of another
    // imported item (ITEMEEEE) as a citation of it here; the pasted script and handler are gone.
    const webpage = (await lib.zoteroObject('ITEMEEEE'))!.id;
    expect(franklin.notes.map((n) => n.body)).toEqual([
      `<h1>Photo 51</h1><p>See <a href="https://example.org/51">the photo</a>.</p><p><cite data-item="${webpage}">(Example, 2024)</cite></p>`,
      '<h2>Annotations in Full Text PDF</h2><ul><li>p. 740: “helical structure” — key claim</li></ul>',
    ]);
    expect(franklin.notes.map((n) => n.text)).toEqual([
      'Photo 51\n\nSee the photo (https://example.org/51).\n\n(Example, 2024)',
      'Annotations in Full Text PDF\n\n- p. 740: “helical structure” — key claim',
    ]);
    const [pdf] = franklin.attachments;
    expect(pdf).toMatchObject({ mime: 'application/pdf', stored: 'copied', originalName: 'Franklin 1953.pdf' });
    expect(readFileSync(pdf!.path)).toEqual(readFileSync(join(folder, 'storage', 'ATTAAAAA', 'Franklin 1953.pdf')));
    // Zotero's keys stay the objects' keys for Zotero's clients.
    expect(await lib.zoteroKeysOf('item', [franklin.id])).toEqual(['ITEMAAAA']);

    expect((await lib.getItem((await lib.findByCitationKey('watson1968'))!)).csl).toMatchObject({
      type: 'book',
      publisher: 'Atheneum',
      'publisher-place': 'New York',
      ISBN: '978-0-689-70602-8',
    });
    const crick = await lib.getItem((await lib.findByCitationKey('crick1970'))!);
    expect(crick.csl).toMatchObject({
      type: 'chapter',
      'container-title': 'Collected Papers',
      editor: [{ family: 'Brenner', given: 'Sydney' }],
      'container-author': [{ literal: 'Cold Spring Harbor Laboratory' }],
      issued: { literal: 'Spring 1970' },
      custom: { zotero: { itemType: 'bookSection', creators: expect.any(Array) } },
    });
    const all = await core.library.listing.list({ limit: 100, trash: false });
    const byTitle = new Map(all.rows.map((r) => [r.title, r]));
    expect(byTitle.get('Diffraction studies')?.type).toBe('thesis');
    expect(byTitle.get('Photo 51 explained')?.type).toBe('webpage');
    expect(byTitle.get('Episode 51')?.type).toBe('broadcast');
    expect(byTitle.get('Standalone: ideas for chapter 2')?.type).toBe('note');
    const trash = await core.library.listing.list({ limit: 100, trash: true });
    expect(trash.rows.map((r) => r.title)).toEqual(['A trashed paper']);
  });

  it('brings the collection tree, the group library as a collection, and the memberships', async () => {
    const collections = await core.library.lib.listCollections();
    const named = (name: string, parent: number | null) =>
      collections.find((c) => c.name === name && c.parentId === parent);
    const thesis = named('Thesis', null)!;
    const ch1 = named('Chapter 1', thesis.id)!;
    const ch1b = named('Chapter 1 (2)', thesis.id)!;
    const group = named('Lab group', null)!;
    const shared = named('Shared', group.id)!;
    expect([thesis, ch1, ch1b, group, shared].every(Boolean)).toBe(true);
    const watson = await core.library.lib.getItem((await core.library.lib.findByCitationKey('watson1968'))!);
    expect(watson.collections.sort()).toEqual([thesis.id, ch1b.id].sort());
    const report2 = (await core.library.listing.list({ limit: 10, collectionId: shared.id })).rows.map((r) => r.title);
    expect(report2).toEqual(['Group report']);
  });

  it('makes a standalone note one of ours: a note item, filed, holding the note and nothing else', async () => {
    const rows = (await core.library.listing.list({ limit: 100, query: 'note:chapter' })).rows;
    const row = rows.find((r) => r.title === 'Standalone: ideas for chapter 2')!;
    expect(row).toMatchObject({ type: 'note', notesCount: 1, year: null, creators: null });
    const note = await core.library.lib.getItem(row.id);
    expect(note.notes.map((n) => n.body)).toEqual(['<p>Standalone: ideas for chapter 2</p>']);
    expect(note.csl).toEqual({
      id: note.citationKey,
      'citation-key': note.citationKey,
      type: 'note',
      title: row.title,
    });
    expect(note.collections).toHaveLength(1);
    expect(await core.library.lib.noteItemIds([row.id])).toEqual([row.id]);
  });

  it('adds nothing when the same folder is imported again', async () => {
    const again = await core.invoke('zotero.import', { path: folder });
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value).toMatchObject({ added: 0, duplicates: 8, collections: 0 });
  });

  it('says clearly what is wrong with a folder that is not Zotero’s', async () => {
    const empty = await core.invoke('zotero.import', { path: dir.path });
    expect(empty).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: expect.stringContaining('has no zotero.sqlite') },
    });
    const relative = await core.invoke('zotero.import', { path: 'Zotero' });
    expect(relative).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
