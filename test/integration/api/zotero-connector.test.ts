// The Zotero Connector's requests, replayed as the extension sends them (zotero-connectors:
// src/common/connector.js callMethod, itemSaver.js _saveToZotero, itemSaver_background.js
// saveAttachmentToZotero, inject/pageSaving.js _saveAsWebpage, progressWindow_inject.js,
// browserExt/contentTypeHandler.js importFile): a journal article page with a PDF and a snapshot, a
// page without a translator, a BibTeX file a page links to, a style, and the popup's collection change.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorSave } from '../../../shared/ipc';
import type { UndoTops } from '../../../shared/model/library';
import { makePdf } from '../../helpers/pdfs';
import { send, startFixture, type Fixture } from './helpers';

/** What Chrome's background page sends with every Connector call. */
const CONNECTOR = {
  'Content-Type': 'application/json',
  'X-Zotero-Version': '5.0.150',
  'X-Zotero-Connector-API-Version': '3',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  Origin: 'chrome-extension://ekhagklcjbdpajgpjgmbionohlpdbjgc',
};

const call = (f: Fixture, method: string, body: unknown, headers: Record<string, string> = {}, query = '') =>
  send(
    f.api.port,
    'POST',
    `/connector/${method}${query}`,
    { ...CONNECTOR, ...headers },
    typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  );

/** Embedded Metadata's item for a journal page (as translate.js hands it to ItemSaver). */
const ARTICLE = {
  itemType: 'journalArticle',
  title: 'Quorum sensing in mixed biofilms',
  creators: [
    { firstName: 'Rosalind', lastName: 'Franklin', creatorType: 'author' },
    { firstName: 'Maurice', lastName: 'Wilkins', creatorType: 'author' },
  ],
  date: '2023-05-17',
  publicationTitle: 'Journal of Microbial Studies',
  volume: '41',
  issue: '2',
  pages: '233-251',
  DOI: '10.5555/jms.2023.41.233',
  ISSN: '0000-1111',
  url: 'https://journal.example/articles/41/233',
  language: 'en',
  libraryCatalog: 'journal.example',
  // What translators set; Zotero stores the time of the save instead (the Connector 5.0.213 sends it so).
  accessDate: 'CURRENT_TIMESTAMP',
  abstractNote: 'Bacteria in mixed biofilms coordinate by quorum sensing.',
  tags: [{ tag: 'biofilms', type: 1 }],
  notes: [{ note: '<p>Received <b>2022-12-01</b>; accepted 2023-03-02.</p>' }],
  seeAlso: [],
  // itemSaver keeps only the attachments saved by linking (snapshot: false); the PDF comes later.
  attachments: [{ title: 'PubMed entry', url: 'https://pubmed.example/123', mimeType: 'text/html', snapshot: false }],
  id: 'Ab3dE9xQ',
};

describe('the Zotero Connector saves into Citewise', () => {
  let f: Fixture;
  const saves: ConnectorSave[] = [];
  let reading: number;
  let archive: number;

  beforeAll(async () => {
    f = await startFixture();
    f.core.events.on('zotero.saved', (s) => saves.push(s));
    const a = await f.core.invoke('library.collections.create', { name: 'Reading', parentId: null });
    const b = await f.core.invoke('library.collections.create', { name: 'Archive', parentId: null });
    if (!a.ok || !b.ok) throw new Error('collections');
    reading = (a.value as { id: number }).id;
    archive = (b.value as { id: number }).id;
    // The Library shows "Reading", as a researcher would have it before saving.
    await f.core.invoke('library.selection.set', { selection: { kind: 'items', ids: [] }, collectionId: reading });
  }, 60_000);
  afterAll(() => f.close());

  it('answers ping as Zotero 7 does, with the prefs the Connector reads', async () => {
    const pong = await call(f, 'ping', {});
    expect(pong.status).toBe(200);
    expect(pong.headers['x-zotero-version']).toMatch(/^7\./);
    expect(pong.headers['x-zotero-connector-api-version']).toBe('3');
    expect(pong.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(pong.body).prefs).toMatchObject({ supportsAttachmentUpload: true, automaticSnapshots: true });
    // A navigation to the address shows that it runs (Zotero's "Zotero is running").
    const page = await send(f.api.port, 'GET', '/connector/ping', {
      'User-Agent': CONNECTOR['User-Agent'],
      'Sec-Fetch-Mode': 'navigate',
    });
    expect(page.status).toBe(200);
  });

  it('lists the collections to choose from, the one the Library shows selected', async () => {
    const r = await call(f, 'getSelectedCollection', { switchToReadableLibrary: true });
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({
      libraryID: 1,
      libraryEditable: true,
      filesEditable: true,
      id: reading,
      name: 'Reading',
    });
    expect(body.targets).toEqual(
      expect.arrayContaining([
        { id: 'L1', name: 'My Library', filesEditable: true, level: 0 },
        { id: `C${reading}`, name: 'Reading', filesEditable: true, level: 1 },
        { id: `C${archive}`, name: 'Archive', filesEditable: true, level: 1 },
      ]),
    );
  });

  it('saves a journal article page: the item, its PDF (captured), its snapshot, then the popup moves it', async () => {
    const sessionID = 'sess-article-1';
    const before = new Date();
    const saved = await call(f, 'saveItems', {
      sessionID,
      uri: 'https://journal.example/articles/41/233',
      items: [ARTICLE],
    });
    expect(saved.status).toBe(201);
    expect(saves.at(-1)).toMatchObject({ kind: 'saved', collection: { id: reading, name: 'Reading' } });
    const id = saves.at(-1)!.items[0]!.id;

    const files = await call(f, 'getSelectedCollection', {});
    expect(JSON.parse(files.body).filesEditable).toBe(true);

    const pdf = Buffer.from(
      await makePdf({
        title: 'Quorum sensing in mixed biofilms',
        byline: 'Rosalind Franklin, Maurice Wilkins',
        pages: [['Autoinducer peptides accumulate in the biofilm matrix.']],
      }),
    );
    const attached = await call(
      f,
      'saveAttachment',
      pdf,
      {
        'Content-Type': 'application/pdf',
        'X-Metadata': JSON.stringify({
          id: 'pdf00001',
          url: 'https://journal.example/articles/41/233.pdf',
          contentType: 'application/pdf',
          parentItemID: 'Ab3dE9xQ',
          title: '=?UTF-8?Q?Full_Text_PDF_=E2=80=93_v2?=',
        }),
      },
      `?sessionID=${sessionID}`,
    );
    expect(attached.status).toBe(201);

    const snapshot = await call(f, 'saveSingleFile', {
      items: [ARTICLE],
      sessionID,
      snapshotContent:
        '<!DOCTYPE html><html><head><title>Quorum</title></head><body><h1>Quorum sensing</h1></body></html>',
      url: ARTICLE.url,
      title: 'Snapshot',
    });
    expect(snapshot.status).toBe(201);

    // The popup: another collection, a tag and a note.
    const moved = await call(f, 'updateSession', {
      sessionID,
      target: `C${archive}`,
      tags: ['to-read', 'lab meeting'],
      note: 'Check figure 2<br>against our data<img src=x onerror=alert(1)>',
    });
    expect(moved.status).toBe(200);
    expect(saves.at(-1)).toMatchObject({ kind: 'moved', collection: { id: archive, name: 'Archive' } });

    const item = await f.core.library.lib.getItem(id);
    expect(item.csl).toMatchObject({
      type: 'article-journal',
      title: 'Quorum sensing in mixed biofilms',
      'container-title': 'Journal of Microbial Studies',
      DOI: '10.5555/jms.2023.41.233',
      page: '233-251',
      issued: { 'date-parts': [[2023, 5, 17]] },
      author: [
        { family: 'Franklin', given: 'Rosalind' },
        { family: 'Wilkins', given: 'Maurice' },
      ],
      custom: {
        zotero: { itemType: 'journalArticle', links: [{ title: 'PubMed entry', url: 'https://pubmed.example/123' }] },
      },
    });
    expect(item.doi).toBe('10.5555/jms.2023.41.233');
    // Accessed when saved, as Zotero records it: never the placeholder.
    const day = (d: Date) => [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
    expect([day(before), day(new Date())]).toContainEqual(item.csl.accessed?.['date-parts']?.[0]);
    expect(JSON.stringify(item.csl)).not.toContain('CURRENT_TIMESTAMP');
    expect(item.collections).toEqual([archive]);
    expect(item.tags.sort()).toEqual(['biofilms', 'lab meeting', 'to-read']);
    // The translator's note keeps its HTML (through the note allowlist); the popup's note too.
    expect(item.notes.map((n) => n.body)).toEqual([
      '<p>Received <strong>2022-12-01</strong>; accepted 2023-03-02.</p>',
      'Check figure 2<br>against our data',
    ]);
    expect(item.notes.map((n) => n.text)).toEqual([
      'Received 2022-12-01; accepted 2023-03-02.',
      'Check figure 2\nagainst our data',
    ]);
    // The PDF went through capture: copied under its checksum, with its name; the snapshot kept beside it.
    const [pdfFile, html] = item.attachments;
    expect(pdfFile).toMatchObject({ mime: 'application/pdf', stored: 'copied', originalName: '233.pdf' });
    expect(pdfFile!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(pdfFile!.path)).toEqual(pdf);
    expect(html).toMatchObject({ mime: 'text/html', stored: 'copied', originalName: 'Snapshot.html' });
    expect(readFileSync(html!.path, 'utf8')).toContain('<h1>Quorum sensing</h1>');

    // The same PDF again is a duplicate (checksum): nothing is stored twice.
    const again = await call(
      f,
      'saveAttachment',
      pdf,
      {
        'Content-Type': 'application/pdf',
        'X-Metadata': JSON.stringify({
          id: 'pdf00002',
          url: 'https://journal.example/a.pdf',
          parentItemID: 'Ab3dE9xQ',
          title: 'PDF',
        }),
      },
      `?sessionID=${sessionID}`,
    );
    expect(again.status).toBe(201);
    expect((await f.core.library.lib.getItem(id)).attachments).toHaveLength(2);

    // Its text is searchable once indexed (the capture's full-text job).
    await expect
      .poll(async () => (await f.core.library.fulltext.hits('fulltext:autoinducer', [id])).length, { timeout: 30_000 })
      .toBeGreaterThan(0);

    // The popup's tag changed again: the one it added before goes, the translator's stays.
    await call(f, 'updateSession', { sessionID, target: `C${archive}`, tags: 'to-read', note: '' });
    const after = await f.core.library.lib.getItem(id);
    expect(after.tags.sort()).toEqual(['biofilms', 'to-read']);
    expect(after.notes.map((n) => n.text)).toEqual(['Received 2022-12-01; accepted 2023-03-02.']);

    const progress = await call(f, 'sessionProgress', { sessionID });
    expect(JSON.parse(progress.body)).toMatchObject({ done: true, items: [{ id: 'Ab3dE9xQ', progress: 100 }] });
  }, 90_000);

  it('saves a page without a translator as a web page with its snapshot', async () => {
    const sessionID = 'sess-snapshot-1';
    const url = 'https://blog.example/2024/why-biofilms';
    const r = await call(f, 'saveSnapshot', { sessionID, url, referrer: '', title: 'Why biofilms matter' });
    expect(r.status).toBe(201);
    const s = await call(f, 'saveSingleFile', {
      sessionID,
      snapshotContent: '<html><body><p>Biofilms matter.</p></body></html>',
      url,
      title: 'Why biofilms matter',
    });
    expect(s.status).toBe(201);
    const id = saves.find((x) => x.source === url)!.items[0]!.id;
    const item = await f.core.library.lib.getItem(id);
    expect(item.csl).toMatchObject({ type: 'webpage', title: 'Why biofilms matter', URL: url });
    expect(item.collections).toEqual([reading]);
    expect(item.attachments).toEqual([
      expect.objectContaining({ mime: 'text/html', originalName: 'Why biofilms matter.html' }),
    ]);
    // A second session under the same id is refused, as Zotero refuses it.
    const twice = await call(f, 'saveSnapshot', { sessionID, url, title: 'x' });
    expect(twice.status).toBe(409);
    expect(JSON.parse(twice.body)).toEqual({ error: 'SESSION_EXISTS' });
  });

  it('imports the BibTeX a page links to into the selected collection', async () => {
    const bib = `@article{hooke1665,\n  author = {Hooke, Robert},\n  title = {Micrographia},\n  journal = {Royal Society},\n  year = {1665}\n}\n`;
    const r = await call(f, 'import', bib, { 'Content-Type': 'application/x-bibtex' }, '?session=imp1');
    expect(r.status).toBe(201);
    const items = JSON.parse(r.body);
    expect(items).toEqual([expect.objectContaining({ itemType: 'journalArticle', title: 'Micrographia' })]);
    const id = await f.core.library.lib.findByCitationKey('hooke1665');
    expect((await f.core.library.lib.getItem(id!)).collections).toEqual([reading]);
    // Announced as a page's save is, with its collection, and undone in one step.
    expect(saves.at(-1)).toMatchObject({
      kind: 'saved',
      items: [{ id, title: 'Micrographia', existing: false }],
      collection: { id: reading, name: 'Reading' },
    });
    const tops = await f.core.invoke('library.undo.tops', {});
    expect(tops.ok && (tops.value as UndoTops).undo?.label).toMatch(/from the browser/);
    const bad = await call(
      f,
      'import',
      'this is not a bibliography',
      { 'Content-Type': 'text/plain' },
      '?session=imp2',
    );
    expect(bad.status).toBe(400);
  });

  it('installs a CSL style a page links to', async () => {
    const xml = readFileSync(join(__dirname, '../../fixtures/cite/tiny-lab.csl'), 'utf8');
    const r = await call(
      f,
      'installStyle',
      xml,
      { 'Content-Type': 'application/vnd.citationstyles.style+xml' },
      '?origin=https%3A%2F%2Fstyles.example%2Ftiny.csl',
    );
    expect(r.status).toBe(201);
    expect(JSON.parse(r.body).name).toBeTruthy();
    const broken = await call(f, 'installStyle', '<style', { 'Content-Type': 'text/xml' });
    expect(broken.status).toBe(400);
  });

  it('refuses what a web page sends, and bad requests with a reason', async () => {
    const refused = (headers: Record<string, string>, path = '/connector/saveItems', method = 'POST') =>
      send(
        f.api.port,
        method,
        path,
        headers,
        method === 'POST' ? JSON.stringify({ items: [ARTICLE] }) : undefined,
      ).then(
        () => 'answered',
        () => 'closed',
      );
    // A page's fetch: a web Origin, even with the Connector's header (the preflight is never granted).
    expect(await refused({ ...CONNECTOR, Origin: 'https://evil.example' })).toBe('closed');
    expect(await refused({ ...CONNECTOR, Origin: 'null' })).toBe('closed');
    // A browser without the Connector's header (a form post, an image, a script tag).
    const { 'X-Zotero-Connector-API-Version': _v, Origin: _o, ...plainBrowser } = CONNECTOR;
    expect(await refused(plainBrowser)).toBe('closed');
    expect(await refused(plainBrowser, '/connector/ping', 'GET')).toBe('closed');
    // DNS rebinding: a name that resolves here but is not this machine's.
    const rebound = await send(
      f.api.port,
      'POST',
      '/connector/ping',
      { ...CONNECTOR, Host: `evil.example:${f.api.port}` },
      '{}',
    );
    expect(rebound.status).toBe(400);
    // Zotero's content-type rule, and the size cap (said before the body is read).
    const type = await call(f, 'saveItems', 'items=1', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(type.status).toBe(400);
    expect(type.body).toContain('content-type');
    const huge = await send(f.api.port, 'POST', '/connector/saveItems', {
      ...CONNECTOR,
      'Content-Length': String(17 * 1024 * 1024),
    }).catch(() => null);
    expect(huge?.status ?? 413).toBe(413);
    const noSession = await call(f, 'updateSession', { sessionID: 'nope', target: 'L1' });
    expect(noSession.status).toBe(400);
    expect(JSON.parse(noSession.body)).toEqual({ error: 'SESSION_NOT_FOUND' });
    const badJson = await call(f, 'saveItems', '{"items": [');
    expect(badJson.status).toBe(400);
    // Nothing of the library is readable by the Connector's own API: no endpoint answers with items.
    expect((await call(f, 'getTranslators', {})).status).toBe(404);
  });
});
