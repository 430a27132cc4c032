// Issue 40: the forms of current Better BibTeX (content/pull-export.ts, content/json-rpc.ts, its
// translators' names) that Citewise answered with 404, 400, 500 or the wrong format: pull exports of a
// collection by its key, of library 0 (its documented example), /export/item and /export?…; `.bib`
// is BibLaTeX there, not BibTeX; a malformed %-escape was a 500; every item.* method answers as items.*
// too; an unknown path was answered "405 takes GET"; item.search took any length of query (120 KB:
// 20 s; 15 MB held the library for 20 minutes), and items carried citewise:// links nothing opens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEARCH_CHARS, MAX_SEARCH_WORDS } from '../../../electron/api/methods';
import { callRpc, send, startFixture, type Fixture } from './helpers';

const CURL = { 'User-Agent': 'curl/8.5.0', Accept: '*/*' };

describe('current Better BibTeX forms', { timeout: 120_000 }, () => {
  let f: Fixture;
  let port: number;
  let chapter: number;
  const get = (path: string) => send(port, 'GET', path, CURL);
  const rpc = (method: string, params: unknown[]) => callRpc(port, method, params, CURL);
  const exportOf = (keys: string[], format: 'bibtex' | 'biblatex' | 'csljson') => f.exportOf(keys, format);

  beforeAll(async () => {
    f = await startFixture();
    port = f.api.port;
    chapter = await f.collection('chapter 1', await f.collection('thesis'), ['adams2001']);
  });
  afterAll(async () => {
    await f.close();
  });

  it('pulls a collection by its key, in library 0 (the documented example) or 1, or none', async () => {
    const expected = await exportOf(['adams2001'], 'biblatex');
    for (const path of [
      `/better-bibtex/collection?/0/${chapter}.biblatex`,
      `/better-bibtex/collection?/1/${chapter}.biblatex`,
      `/better-bibtex/export/collection?/${chapter}.biblatex`,
      '/better-bibtex/collection?/0/thesis/chapter%201.biblatex',
      '/better-bibtex/collection?/thesis/chapter%201.biblatex',
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.body, path).toBe(expected);
    }
    expect((await get('/better-bibtex/collection?/2/thesis.biblatex')).status).toBe(404);
    expect((await get(`/better-bibtex/collection?/1/${chapter + 1000}.biblatex`)).status).toBe(404);
  });

  it('pulls the library as /library.ext, /0/… and /1/…', async () => {
    const ids = await f.core.library.listing.idsOf({});
    const expected = (await f.core.library.lib.exportText(ids, 'bibtex')).content;
    for (const path of [
      '/better-bibtex/library?/library.bibtex',
      '/better-bibtex/library?/0/library.bibtex',
      '/better-bibtex/export/library?/1/My%20Library.bibtex',
    ])
      expect((await get(path)).body, path).toBe(expected);
    expect((await get('/better-bibtex/library?/7/library.bibtex')).status).toBe(404);
  });

  it("answers the /export form's long and short URLs, with a file name", async () => {
    const ids = await f.core.library.listing.idsOf({});
    const library = await get('/better-bibtex/export?/library;id:1/My%20Library.biblatex');
    expect(library.status).toBe(200);
    expect(library.body).toBe((await f.core.library.lib.exportText(ids, 'biblatex')).content);
    expect(library.headers['content-disposition']).toContain('filename="My Library.biblatex"');
    const short = await get(`/better-bibtex/export?/library;id:1/collection;key:${chapter}/chapter%201.biblatex`);
    expect(short.body).toBe(await exportOf(['adams2001'], 'biblatex'));
    expect(short.headers['content-disposition']).toContain('filename="chapter 1.biblatex"');
    const long = await get('/better-bibtex/export?/library;name:My%20Library/collection/thesis/chapter%201.biblatex');
    expect(long.body).toBe(await exportOf(['adams2001'], 'biblatex'));
    expect((await get('/better-bibtex/export?/group;id:5/x.biblatex')).status).toBe(404);
  });

  it('/export/item: items by key, and pandocFilterData as zotero.lua 1.x read it', async () => {
    const r = await get('/better-bibtex/export/item?citationKeys=adams2001,brigge2002&translator=biblatex&libraryID=1');
    expect(r.status).toBe(200);
    expect(r.body).toBe(await exportOf(['adams2001', 'brigge2002'], 'biblatex'));
    const wrapped = await get(
      '/better-bibtex/export/item?citationKeys=adams2001,nobody1999&translator=Better%20CSL%20JSON&pandocFilterData=true',
    );
    const data = JSON.parse(wrapped.body) as {
      items: Record<string, { title: string }>;
      zotero: Record<string, { itemID: number; uri: string }>;
      errors: Record<string, string>;
    };
    expect(data.items.adams2001!.title).toBe('On Citing');
    expect(data.zotero.adams2001).toMatchObject({ itemID: f.ids.adams2001 });
    expect(data.errors).toEqual({ nobody1999: 'not found' });
    expect((await get('/better-bibtex/export/item?citationKeys=nobody1999&translator=biblatex')).status).toBe(404);
    expect((await get('/better-bibtex/export/item?translator=biblatex')).status).toBe(400);
  });

  it('.bib is BibLaTeX and jzon BetterBibTeX JSON, as in Better BibTeX', async () => {
    expect((await get('/better-bibtex/library?/1/library.bib')).body).toBe(
      (await f.core.library.lib.exportText(await f.core.library.listing.idsOf({}), 'biblatex')).content,
    );
    expect(await rpc('item.export', [['adams2001'], 'bib'])).toMatchObject({
      result: await exportOf(['adams2001'], 'biblatex'),
    });
    const jzon = JSON.parse((await get(`/better-bibtex/collection?/1/${chapter}.jzon`)).body) as {
      items: { citationKey: string }[];
    };
    expect(jzon.items.map((i) => i.citationKey)).toEqual(['adams2001']);
  });

  it('a malformed %-escape is a client error, not a 500', async () => {
    for (const path of [
      '/better-bibtex/library?%ZZ',
      '/better-bibtex/collection?/1/%E0%A4%A.biblatex',
      '/better-bibtex/export?%',
    ]) {
      const r = await get(path);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
    }
    const rpcGet = await get('/better-bibtex/json-rpc?%ZZ');
    expect(JSON.parse(rpcGet.body)).toMatchObject({ error: { code: -32700 } });
  });

  it('answers items.* as item.*', async () => {
    expect(await rpc('items.search', ['brigge'])).toMatchObject({ result: [{ citekey: 'brigge2002' }] });
    expect(await rpc('items.export', [['brigge2002'], 'bibtex'])).toEqual(
      await rpc('item.export', [['brigge2002'], 'bibtex']),
    );
    expect(await rpc('items.citationkey', [[`1:${f.ids.adams2001}`]])).toMatchObject({
      result: { [`1:${f.ids.adams2001}`]: 'adams2001' },
    });
    expect((await rpc('items.nothing', [])).error?.code).toBe(-32601);
  });

  it('an unknown path is 404 whatever the method; a known one asked wrongly is 405 with Allow', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const r = await send(port, method, '/better-bibtex/nothing-here', { ...CURL, 'Content-Length': 0 });
      expect(r.status, method).toBe(404);
      expect(r.body).toContain('no endpoint /better-bibtex/nothing-here');
    }
    const put = await send(port, 'PUT', '/better-bibtex/json-rpc', { ...CURL, 'Content-Length': 0 });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST');
    const post = await send(port, 'POST', '/better-bibtex/cayw', { ...CURL, 'Content-Length': 0 });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
    // A web page learns nothing, not even which paths exist.
    expect((await send(port, 'GET', '/better-bibtex/nothing-here', { Origin: 'https://evil.example' })).status).toBe(
      403,
    );
  });

  it(`item.search takes at most ${MAX_SEARCH_CHARS} characters`, async () => {
    const at = `adams ${'x'.repeat(MAX_SEARCH_CHARS - 6)}`;
    expect(at.length).toBe(MAX_SEARCH_CHARS);
    expect((await rpc('item.search', [at])).error).toBeUndefined();
    const over = await rpc('item.search', [`${at}y`]);
    expect(over.error?.code).toBe(-32602);
    expect(over.error?.message).toContain(`${MAX_SEARCH_CHARS + 1} characters long; at most ${MAX_SEARCH_CHARS}`);
    // 15 MB, as the report sent: refused at once.
    expect((await rpc('item.search', ['word '.repeat(3 * 1024 * 1024)])).error?.code).toBe(-32602);
    expect(
      (await rpc('item.search', [Array.from({ length: 101 }, () => ['title', 'contains', 'a'])])).error?.message,
    ).toContain('at most 100 conditions');
  });

  it(`item.search takes at most ${MAX_SEARCH_WORDS} different words, each once`, async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `adams${i.toString(36)}`).join(' ');
    expect((await rpc('item.search', [words(MAX_SEARCH_WORDS - 1)])).error).toBeUndefined();
    expect((await rpc('item.search', [words(MAX_SEARCH_WORDS)])).error).toBeUndefined();
    const over = await rpc('item.search', [words(MAX_SEARCH_WORDS + 1)]);
    expect(over.error?.code).toBe(-32602);
    expect(over.error?.message).toContain(`${MAX_SEARCH_WORDS + 1} different words; at most ${MAX_SEARCH_WORDS}`);
    // 400 years (1,999 characters) were 400 passes of the search.
    const years = Array.from({ length: 400 }, (_, i) => String(1000 + i)).join(' ');
    expect((await rpc('item.search', [years])).error?.message).toContain('400 different words');
    // A word repeated is one word: this finds what "adams" alone finds.
    const once = (await rpc('item.search', ['adams'])).result as { citekey: string }[];
    expect(once.map((i) => i.citekey)).toContain('adams2001');
    expect((await rpc('item.search', ['adams '.repeat(300)])).result).toEqual(once);
  });

  it('writes no link with a scheme nothing opens', async () => {
    const json = (await rpc('item.export', [['adams2001'], 'BetterBibTeX JSON'])).result as string;
    expect(json).not.toContain('citewise://');
    const lua = (await rpc('item.pandoc_filter', [['adams2001'], false])).result;
    expect(JSON.stringify(lua)).not.toContain('citewise://');
  });
});
