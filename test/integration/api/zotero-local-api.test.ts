// Zotero's local Web API, read by Zotero's own JavaScript client (zotero-api-client, unchanged,
// pointed at Citewise), and by the raw requests other clients send (the Zotero MCP servers and
// pyzotero's local mode: GET /api/users/0/items?…, the version and paging headers they read).
import api from 'zotero-api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startFixture, type Fixture } from './helpers';

/** What a multi-object read answers (the client's MultiReadResponse). */
interface Multi {
  getData(): unknown;
  getMeta(): unknown;
  getTotalResults(): number;
  getRelLinks(): Record<string, string>;
  getVersion(): number;
}
const multi = (r: unknown): Multi => r as Multi;

describe("Zotero's local API, read by zotero-api-client", () => {
  let f: Fixture;
  let client: ReturnType<typeof api>;
  let methods: number;

  beforeAll(async () => {
    f = await startFixture();
    const c = await f.core.invoke('library.collections.create', { name: 'Methods', parentId: null });
    if (!c.ok) throw new Error(c.error.message);
    methods = (c.value as { id: number }).id;
    await f.core.invoke('library.collections.create', { name: 'Older', parentId: methods });
    await f.core.invoke('library.collections.addItems', { collectionId: methods, ids: [f.ids.adams2001!] });
    await f.core.invoke('library.tags.add', { ids: [f.ids.adams2001!, f.ids.brigge2002!], tags: ['classic'] });
    await f.core.invoke('library.tags.add', { ids: [f.ids.brigge2002!], tags: ['long read'] });
    await f.core.invoke('library.notes.add', { itemId: f.ids.adams2001!, body: 'Read for the seminar.' });
    client = api(null, { apiScheme: 'http', apiAuthorityPart: `127.0.0.1:${f.api.port}`, apiPath: 'api/' });
  }, 60_000);
  afterAll(() => f.close());

  const lib = () => client.library('user', 0);

  it('reads items with Zotero item keys, in Zotero’s JSON, with the version and paging headers', async () => {
    const r = multi(await lib().items().top().get());
    const data = r.getData() as Record<string, unknown>[];
    expect(data).toHaveLength(3);
    expect(r.getTotalResults()).toBe(3);
    const adams = data.find((d) => d.title === 'On Citing')!;
    expect(adams).toMatchObject({
      itemType: 'journalArticle',
      publicationTitle: 'Journal of Tests',
      date: '2001',
      DOI: '10.1000/adams',
      citationKey: 'adams2001',
      creators: [
        { creatorType: 'author', firstName: 'Ann', lastName: 'Adams' },
        { creatorType: 'author', firstName: 'Bob', lastName: 'Baker' },
      ],
      tags: [{ tag: 'classic' }],
    });
    expect(adams.key).toMatch(/^[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}$/);
    const version = r.getVersion();
    expect(version).toBeGreaterThan(0);

    // Keys are stored: the same key every time, and the item by its key.
    const again = (await lib().items().top().get()).getData() as { key: string; title: string }[];
    expect(again.find((d) => d.title === 'On Citing')!.key).toBe(adams.key);
    const one = await lib()
      .items(adams.key as string)
      .get();
    expect((one.getData() as { title: string }).title).toBe('On Citing');
    // Its children: the note, as Zotero's child note.
    const children = (
      await lib()
        .items(adams.key as string)
        .children()
        .get()
    ).getData() as Record<string, unknown>[];
    expect(children).toEqual([
      expect.objectContaining({ itemType: 'note', parentItem: adams.key, note: '<p>Read for the seminar.</p>' }),
    ]);
    // All items, children included, unless top.
    expect(((await lib().items().get()).getData() as unknown[]).length).toBe(4);

    // Paging: start/limit, Total-Results and Link.
    const page = multi(await lib().items().top().get({ limit: 2, start: 0, sort: 'title', direction: 'asc' }));
    expect((page.getData() as { title: string }[]).map((d) => d.title)).toEqual([
      'A Synthetic Article',
      'Books Are Long',
    ]);
    expect(page.getTotalResults()).toBe(3);
    expect(page.getRelLinks()).toMatchObject({
      next: expect.stringContaining('start=2'),
      last: expect.stringContaining('start=2'),
    });

    // since=: nothing has changed since this version; an edit comes back.
    expect(((await lib().items().top().get({ since: version })).getData() as unknown[]).length).toBe(0);
    await f.core.invoke('library.tags.add', { ids: [f.ids['Author:2026-test']!], tags: ['new'] });
    const changed = (await lib().items().top().get({ since: version })).getData() as { title: string }[];
    expect(changed.map((d) => d.title)).toEqual(['A Synthetic Article']);
  });

  it('searches with q/qmode, tag and itemType as Zotero reads them', async () => {
    const titles = async (opts: Record<string, unknown>) =>
      ((await lib().items().top().get(opts)).getData() as { title: string }[]).map((d) => d.title).sort();
    expect(await titles({ q: 'brigge' })).toEqual(['Books Are Long']);
    expect(await titles({ q: '2001' })).toEqual(['On Citing']);
    expect(await titles({ q: 'seminar' })).toEqual([]);
    expect(await titles({ q: 'seminar', qmode: 'everything' })).toEqual(['On Citing']);
    expect(await titles({ tag: 'classic' })).toEqual(['Books Are Long', 'On Citing']);
    expect(await titles({ tag: ['classic', '-long read'] })).toEqual(['On Citing']);
    expect(await titles({ tag: 'long read || new' })).toEqual(['A Synthetic Article', 'Books Are Long']);
    expect(await titles({ itemType: 'book' })).toEqual(['Books Are Long']);
    expect(await titles({ itemType: '-book' })).toEqual(['A Synthetic Article', 'On Citing']);
  });

  it('reads collections, their items and subcollections, tags and searches', async () => {
    const collections = (await lib().collections().get()).getData() as Record<string, unknown>[];
    const m = collections.find((c) => c.name === 'Methods')!;
    const older = collections.find((c) => c.name === 'Older')!;
    expect(m).toMatchObject({ parentCollection: false });
    expect(older).toMatchObject({ parentCollection: m.key });
    expect(((await lib().collections().top().get()).getData() as unknown[]).length).toBe(1);
    const sub = (
      await lib()
        .collections(m.key as string)
        .subcollections()
        .get()
    ).getData() as { name: string }[];
    expect(sub.map((c) => c.name)).toEqual(['Older']);
    const inside = (
      await lib()
        .collections(m.key as string)
        .items()
        .top()
        .get()
    ).getData() as { title: string; collections: string[] }[];
    expect(inside).toEqual([expect.objectContaining({ title: 'On Citing', collections: [m.key] })]);

    const tagsResponse = await lib().tags().get();
    const tags = tagsResponse.getData() as { tag: string }[];
    const meta = tagsResponse.getMeta() as { numItems: number }[];
    expect(tags.map((t, i) => [t.tag, meta[i]!.numItems])).toEqual([
      ['classic', 2],
      ['long read', 1],
      ['new', 1],
    ]);
    expect(((await lib().searches().get()).getData() as unknown[]).length).toBe(0);
  });

  it('formats bibliographies and exports (bib with style and locale, csljson, bibtex, biblatex, ris)', async () => {
    const bib = await lib()
      .items()
      .top()
      .get({ format: 'bib', style: 'apa', locale: 'en-US', sort: 'title', direction: 'asc' });
    const html = await (bib.getData() as Response).text();
    expect(html).toContain('csl-bib-body');
    expect(html).toMatch(/Adams, A\., &(?:amp|#38); Baker, B\. \(2001\)/);
    const byUrl = await lib().items().top().get({ format: 'bib', style: 'http://www.zotero.org/styles/ieee' });
    expect(await (byUrl.getData() as Response).text()).toContain('[1]');
    const unknown = await send(f.api.port, 'GET', '/api/users/0/items?format=bib&style=not-a-style', {});
    expect(unknown.status).toBe(400);
    const csl = await send(f.api.port, 'GET', '/api/users/0/items/top?format=csljson', {});
    expect(JSON.parse(csl.body)).toHaveLength(3);
    for (const [format, marker] of [
      ['bibtex', '@article{adams2001'],
      ['biblatex', '@article{adams2001'],
      ['ris', 'TY  - JOUR'],
    ] as const) {
      const r = await send(f.api.port, 'GET', `/api/users/0/items/top?format=${format}`, {});
      expect(r.status).toBe(200);
      expect(r.body).toContain(marker);
    }
    const withBib = await send(
      f.api.port,
      'GET',
      '/api/users/0/items/top?include=data,bib,citation&style=apa&limit=1&sort=title',
      {},
    );
    expect(JSON.parse(withBib.body)[0]).toMatchObject({
      bib: expect.stringContaining('csl-bib-body'),
      citation: expect.stringContaining('('),
    });
  });

  it('answers the headers and refusals Zotero does', async () => {
    const r = await send(f.api.port, 'GET', '/api/users/0/items/top?limit=1', {});
    expect(r.headers['zotero-api-version']).toBe('3');
    expect(r.headers['zotero-server-id']).toMatch(/^[23456789A-Z]{12}$/);
    expect(r.headers['total-results']).toBe('3');
    const version = Number(r.headers['last-modified-version']);
    const notModified = await send(f.api.port, 'GET', '/api/users/0/items/top', {
      'If-Modified-Since-Version': String(version),
    });
    expect(notModified.status).toBe(304);
    expect((await send(f.api.port, 'GET', '/api/users/1/items', {})).status).toBe(400);
    expect((await send(f.api.port, 'GET', '/api/users/0/items?sort=nonsense', {})).status).toBe(400);
    expect((await send(f.api.port, 'GET', '/api/users/0/items?format=atom', {})).status).toBe(501);
    expect((await send(f.api.port, 'GET', '/api/users/0/items/ZZZZZZZZ', {})).status).toBe(404);
    // Read-only.
    const write = await send(f.api.port, 'POST', '/api/users/0/items', { 'Content-Type': 'application/json' }, '[]');
    expect(write.status).toBe(405);
    // A web page cannot read the library: the connection closes unanswered.
    const page = await send(f.api.port, 'GET', '/api/users/0/items', {
      'User-Agent': 'Mozilla/5.0 Chrome/130.0',
      Origin: 'https://evil.example',
    }).then(
      () => 'answered',
      () => 'closed',
    );
    expect(page).toBe('closed');
    const image = await send(f.api.port, 'GET', '/api/users/0/items', {
      'User-Agent': 'Mozilla/5.0 Chrome/130.0',
    }).then(
      () => 'answered',
      () => 'closed',
    );
    expect(image).toBe('closed');
  });
});
