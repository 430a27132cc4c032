// A standalone note through Zotero's local Web API: a top-level item of itemType "note" with its HTML,
// tags and collections, as Zotero serves one; left out of bibliographies and exports, and never offered
// by a citation picker (the CAYW picker, Better BibTeX's item.search).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPicker, send, startFixture, type Fixture } from './helpers';

describe("Zotero's local API: standalone notes", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture();
    const c = await f.core.invoke('library.collections.create', { name: 'Ideas', parentId: null });
    if (!c.ok) throw new Error(c.error.message);
    const made = await f.core.invoke('library.notes.addStandalone', {
      body: '<h2>Seminar plan</h2><p>Read <em>Adams</em> first.</p>',
      collectionId: (c.value as { id: number }).id,
    });
    if (!made.ok) throw new Error(made.error.message);
    await f.core.invoke('library.tags.add', { ids: [(made.value as { itemId: number }).itemId], tags: ['teaching'] });
  }, 60_000);
  afterAll(() => f.close());

  it('serves it as a top-level item of itemType note, with its HTML, tags and collection', async () => {
    const r = await send(f.api.port, 'GET', '/api/users/0/items/top?itemType=note', {});
    expect(r.status).toBe(200);
    const items = JSON.parse(r.body) as { key: string; data: Record<string, unknown>; meta: Record<string, unknown> }[];
    expect(items).toHaveLength(1);
    const note = items[0]!;
    expect(note.data).toMatchObject({
      itemType: 'note',
      note: expect.stringContaining('<h2>Seminar plan</h2><p>Read <em>Adams</em> first.</p>'),
      tags: [{ tag: 'teaching' }],
    });
    expect(note.data).not.toHaveProperty('parentItem');
    expect(note.data).not.toHaveProperty('title');
    expect(note.meta).toEqual({ numChildren: 0 });
    const collections = JSON.parse((await send(f.api.port, 'GET', '/api/users/0/collections', {})).body) as {
      key: string;
    }[];
    expect(note.data.collections).toEqual([collections[0]!.key]);
    // Read by its key, as a client follows a link.
    const one = JSON.parse((await send(f.api.port, 'GET', `/api/users/0/items/${note.key}`, {})).body) as {
      data: { itemType: string };
    };
    expect(one.data.itemType).toBe('note');
    const all = JSON.parse((await send(f.api.port, 'GET', '/api/users/0/items/top', {})).body) as unknown[];
    expect(all).toHaveLength(4);
  });

  it('leaves it out of a bibliography and of exports of all items', async () => {
    for (const format of ['bibtex', 'ris', 'csljson']) {
      const r = await send(f.api.port, 'GET', `/api/users/0/items/top?format=${format}`, {});
      expect(r.status, format).toBe(200);
      expect(r.body, format).not.toContain('Seminar plan');
      expect(r.body, format).toContain('adams2001');
    }
    const bib = await send(f.api.port, 'GET', '/api/users/0/items/top?format=bib', {});
    expect(bib.body).not.toContain('Seminar plan');
  });

  it('is never offered by a picker, though its text matches (it reads "Adams")', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'item.search', params: ['adams'] });
    const rpc = await send(
      f.api.port,
      'POST',
      '/better-bibtex/json-rpc',
      { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      body,
    );
    const found = (JSON.parse(rpc.body) as { result: { citekey: string }[] }).result.map((i) => i.citekey);
    expect(found).toEqual(['adams2001']);

    const opened = f.nextPicker();
    const held = send(f.api.port, 'GET', '/better-bibtex/cayw?format=pandoc', { 'User-Agent': 'curl/8.5.0' });
    const s = await opened;
    for (const q of ['adams', 'seminar']) {
      const r = await send(f.api.port, 'GET', `/citewise/picker/${s.id}/search?q=${q}`, {
        'X-Citewise-Picker': s.token,
      });
      expect(r.status).toBe(200);
      const hits = (JSON.parse(r.body) as { hits: { citationKey: string }[] }).hits.map((h) => h.citationKey);
      expect(hits, q).toEqual(q === 'adams' ? ['adams2001'] : []);
    }
    await answerPicker(f.api.port, s, null);
    await held;
  });
});
