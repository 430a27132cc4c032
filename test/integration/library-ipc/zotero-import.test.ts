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
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { writeZoteroFolder, type ZoteroDbSpec } from '../../helpers/zotero-db';

async function spec(): Promise<ZoteroDbSpec> {
  const pdf = await makePdf({
    title: 'Ribosome assembly in archaea',
    pages: [['Archaeal ribosomes assemble in stages.']],
  });
  return {
    groups: [{ libraryID: 2, name: 'Lab group' }],
    collections: [
      { key: 'COLLAAAA', name: 'Thesis' },
      { key: 'COLLBBBB', name: 'Chapter 1', parent: 'COLLAAAA' },
      { key: 'COLLCCCC', name: 'Chapter 1', parent: 'COLLAAAA' },
      { key: 'COLLDDDD', name: 'Shared', libraryID: 2 },
    ],
    savedSearches: 1,
    bbt: { ITEMAAAA: ['franklin1953pinned', true] },
    items: [
      {
        key: 'ITEMAAAA',
        type: 'journalArticle',
        fields: {
          title: 'Molecular configuration in sodium thymonucleate',
          publicationTitle: 'Nature',
          date: '1953-04-25',
          volume: '171',
          pages: '740-741',
          DOI: '10.1038/171740a0',
          libraryCatalog: 'www.nature.com',
          extra: 'Citation Key: ignoredBecauseBBT',
        },
        creators: [
          { type: 'author', first: 'Rosalind', last: 'Franklin' },
          { type: 'author', first: 'R. G.', last: 'Gosling' },
        ],
        tags: ['DNA', 'x-ray'],
        collections: ['COLLBBBB'],
        added: '2019-06-01 10:00:00',
      },
      {
        key: 'NOTEAAAA',
        type: 'note',
        parent: 'ITEMAAAA',
        note: '<h1>Photo 51</h1><p>See <a href="https://example.org/51">the photo</a>.</p>',
      },
      {
        key: 'ATTAAAAA',
        type: 'attachment',
        parent: 'ITEMAAAA',
        fields: { title: 'Full Text PDF', url: 'https://www.nature.com/x.pdf' },
        attachment: { linkMode: 1, contentType: 'application/pdf', path: 'storage:Franklin 1953.pdf', file: pdf },
      },
      {
        key: 'ANNOAAAA',
        type: 'annotation',
        parent: 'ATTAAAAA',
        annotation: { text: 'helical structure', comment: 'key claim', page: '740' },
      },
      {
        key: 'ATTBBBBB',
        type: 'attachment',
        parent: 'ITEMAAAA',
        fields: { title: 'Nature page', url: 'https://www.nature.com/articles/171740a0' },
        attachment: { linkMode: 3, contentType: 'text/html', path: null },
      },
      {
        key: 'ATTCCCCC',
        type: 'attachment',
        parent: 'ITEMAAAA',
        fields: { title: 'Lost file' },
        attachment: { linkMode: 2, contentType: 'application/pdf', path: '/nowhere/lost.pdf' },
      },
      {
        key: 'ITEMBBBB',
        type: 'book',
        fields: {
          title: 'The Double Helix',
          publisher: 'Atheneum',
          place: 'New York',
          date: '1968',
          citationKey: 'watson1968',
          ISBN: '978-0-689-70602-8',
        },
        creators: [{ type: 'author', first: 'James D.', last: 'Watson' }],
        collections: ['COLLAAAA', 'COLLCCCC'],
      },
      {
        key: 'ITEMCCCC',
        type: 'bookSection',
        fields: {
          title: 'On helices',
          bookTitle: 'Collected Papers',
          pages: '1-20',
          date: 'Spring 1970',
          extra: 'Citation Key: crick1970',
        },
        creators: [
          { type: 'author', first: 'Francis', last: 'Crick' },
          { type: 'editor', first: 'Sydney', last: 'Brenner' },
          { type: 'bookAuthor', name: 'Cold Spring Harbor Laboratory' },
        ],
      },
      {
        key: 'ITEMDDDD',
        type: 'thesis',
        fields: {
          title: 'Diffraction studies',
          university: "King's College London",
          thesisType: 'PhD thesis',
          date: '1950',
        },
        creators: [{ type: 'author', first: 'Raymond', last: 'Gosling' }],
      },
      {
        key: 'ITEMEEEE',
        type: 'webpage',
        fields: {
          title: 'Photo 51 explained',
          url: 'https://example.org/51',
          websiteTitle: 'Example',
          accessDate: '2024-01-02 03:04:05',
        },
      },
      {
        key: 'ITEMFFFF',
        type: 'podcast',
        fields: { title: 'Episode 51', seriesTitle: 'Science Talk', episodeNumber: '51' },
        creators: [{ type: 'podcaster', first: 'Pat', last: 'Host' }],
      },
      {
        key: 'ITEMGGGG',
        type: 'conferencePaper',
        fields: { title: 'A trashed paper', proceedingsTitle: 'Proc', date: '2001' },
        deleted: '2024-02-03 04:05:06',
      },
      { key: 'NOTEBBBB', type: 'note', note: '<p>Standalone: ideas for chapter 2</p>', collections: ['COLLAAAA'] },
      {
        key: 'ITEMHHHH',
        type: 'report',
        fields: { title: 'Group report', institution: 'Lab' },
        libraryID: 2,
        collections: ['COLLDDDD'],
      },
    ],
  };
}

describe('importing a Zotero data folder', () => {
  const dir = tempDir('citewise-zotero-import-');
  const folder = join(dir.path, 'Zotero');
  let core: Core;
  let database: string;
  let report: ZoteroImportReport;

  beforeAll(async () => {
    database = writeZoteroFolder(folder, await spec());
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
    expect(franklin.notes.map((n) => n.body)).toEqual([
      'Photo 51\n\nSee the photo (https://example.org/51).',
      'Annotations in Full Text PDF:\n- p. 740: “helical structure” — key claim',
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
    expect(byTitle.get('Standalone: ideas for chapter 2')?.type).toBe('document');
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
