// Each Better BibTeX client's own requests (method, path, headers, body, as their sources send them),
// replayed against the editor API; answers are checked byte for byte where the client parses them.
//   VS Code "Citation Picker for Zotero" (mblode/vscode-zotero 0.2: src/client.ts; 0.1: request-promise)
//   Obsidian "Zotero Integration" (mgmeyers/obsidian-zotero-integration: src/bbt/*.ts)
//   rbbt for R (paleolimbot/rbbt: R/api.R, R/bbt.R; httr)
//   zotero.lua, Better BibTeX's Pandoc filter (GET json-rpc with the call as the query)
//   the Vim and Emacs recipes of Better BibTeX's CAYW page (curl)
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPortInUseError, startApiServer } from '../../../electron/api/server';
import { answerPicker, send, startFixture, type Fixture } from './helpers';

const VSCODE_GET = { 'User-Agent': 'vscode-zotero/0.2.0', Accept: '*/*' };
const OBSIDIAN = {
  'Content-Type': 'application/json',
  'User-Agent': 'obsidian/zotero',
  Accept: 'application/json',
  Connection: 'keep-alive',
};
const HTTR = {
  'User-Agent': 'libcurl/8.5.0 r-curl/5.2.1 httr/1.4.7',
  Accept: 'application/json, text/xml, application/xml, */*',
};
const CURL = { 'User-Agent': 'curl/8.5.0', Accept: '*/*' };
const CSL_JSON_ID = 'f4b52ab0-f878-4556-85a0-c7aeedd09dfc';
const BBT_JSON_ID = '36a3b0b5-bad0-4a04-b79b-441c7cef77db';

describe('the editor API, replaying its clients', () => {
  let f: Fixture;
  let port: number;
  const post = (headers: Record<string, string>, body: string) =>
    send(port, 'POST', '/better-bibtex/json-rpc', { ...headers, 'Content-Length': Buffer.byteLength(body) }, body);
  /** A CAYW request held until the picker answers with `picks`. */
  const pickWith = async (path: string, headers: Record<string, string>, picks: unknown[] | null) => {
    const opened = f.nextPicker();
    const reply = send(port, 'GET', path, headers);
    const session = await opened;
    expect((await answerPicker(port, session, picks)).status).toBe(200);
    return reply;
  };
  const exportOf = async (keys: string[], format: 'bibtex' | 'biblatex' | 'csljson') =>
    (
      await f.core.library.lib.exportText(
        keys.map((k) => f.ids[k]!),
        format,
      )
    ).content;

  beforeAll(async () => {
    f = await startFixture();
    port = f.api.port;
    const c = await f.core.invoke('library.collections.create', { name: 'thesis', parentId: null });
    if (!c.ok) throw new Error(c.error.message);
    const chapter = await f.core.invoke('library.collections.create', {
      name: 'chapter 1',
      parentId: (c.value as { id: number }).id,
    });
    if (!chapter.ok) throw new Error(chapter.error.message);
    await f.core.invoke('library.collections.addItems', {
      collectionId: (chapter.value as { id: number }).id,
      ids: [f.ids.adams2001!],
    });
    await f.core.invoke('library.notes.add', { itemId: f.ids.adams2001!, body: 'Read <carefully> & twice' });
  });
  afterAll(async () => {
    await f.close();
  });

  describe('VS Code Citation Picker for Zotero', () => {
    it('picks in pandoc format (its default URL) and gets the citation text', async () => {
      const r = await pickWith('/better-bibtex/cayw?format=pandoc', VSCODE_GET, [{ citationKey: 'Author:2026-test' }]);
      expect(r.status).toBe(200);
      expect(r.body).toBe('@Author:2026-test');
    });

    it('its automatic format: biblatex for LaTeX, typst for Typst (the answers BBT 9 gave it)', async () => {
      expect(
        (await pickWith('/better-bibtex/cayw?format=biblatex', VSCODE_GET, [{ citationKey: 'Author:2026-test' }])).body,
      ).toBe('\\autocite{Author:2026-test}');
      expect(
        (await pickWith('/better-bibtex/cayw?format=typst', VSCODE_GET, [{ citationKey: 'Author:2026-test' }])).body,
      ).toBe('#cite(<Author:2026-test>)');
      expect(
        (await pickWith('/better-bibtex/cayw?format=natbib', VSCODE_GET, [{ citationKey: 'Author:2026-test' }])).body,
      ).toBe('\\cite{Author:2026-test}');
    });

    it('an empty answer when the user cancels, which it inserts as nothing', async () => {
      const r = await pickWith('/better-bibtex/cayw?format=pandoc&minimize=true', VSCODE_GET, null);
      expect(r.status).toBe(200);
      expect(r.body).toBe('');
      expect(f.api.pickers.open).toBe(0);
    });

    it('item.attachments with id 1, which it checks', async () => {
      await f.core.library.lib.addAttachment(f.ids.adams2001!, { path: '/papers/adams.PDF' });
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'item.attachments', params: ['adams2001'] });
      const r = await post({ ...VSCODE_GET, Accept: 'application/json', 'Content-Type': 'application/json' }, body);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.body).toBe(
        '{"jsonrpc":"2.0","id":1,"result":[{"open":"file:///papers/adams.PDF","path":"/papers/adams.PDF"}]}',
      );
      // Version 0.1 (request-promise, no id) on a key that is not there: an error it can show.
      const old = JSON.stringify({ jsonrpc: '2.0', method: 'item.attachments', params: ['nobody1999'] });
      const r2 = await post(
        { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'Request-Promise' },
        old,
      );
      expect(r2.body).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"nobody1999 not found"}}');
    });

    it('api.ready answers with a result', async () => {
      const r = await post(
        { ...VSCODE_GET, 'Content-Type': 'application/json' },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'api.ready', params: [] }),
      );
      const parsed = JSON.parse(r.body) as { id: number; result: { citewise: string } };
      expect(parsed.id).toBe(1);
      expect(typeof parsed.result.citewise).toBe('string');
    });
  });

  describe('Obsidian Zotero Integration', () => {
    it('probe=true answers ready', async () => {
      const r = await send(port, 'GET', '/better-bibtex/cayw?probe=true', OBSIDIAN);
      expect(r.status).toBe(200);
      expect(r.body).toBe('ready');
      expect(f.api.pickers.open).toBe(0);
    });

    it("format=json: it reads each pick's citekey", async () => {
      const r = await pickWith('/better-bibtex/cayw?format=json', OBSIDIAN, [
        { citationKey: 'adams2001', locator: '5' },
        { citationKey: 'brigge2002' },
      ]);
      const picks = JSON.parse(r.body) as { citekey: string; citationKey: string; locator: string; label: string }[];
      expect(picks.map((p) => p.citekey)).toEqual(['adams2001', 'brigge2002']);
      expect(picks[0]).toMatchObject({ citationKey: 'adams2001', locator: '5', label: 'page' });
    });

    it('pandoc with brackets=true, latex and biblatex with their commands', async () => {
      expect(
        (await pickWith('/better-bibtex/cayw?format=pandoc&brackets=true', OBSIDIAN, [{ citationKey: 'adams2001' }]))
          .body,
      ).toBe('[@adams2001]');
      expect(
        (
          await pickWith('/better-bibtex/cayw?format=latex&command=cite', OBSIDIAN, [
            { citationKey: 'adams2001' },
            { citationKey: 'brigge2002' },
          ])
        ).body,
      ).toBe('\\cite{adams2001,brigge2002}');
      expect(
        (
          await pickWith('/better-bibtex/cayw?format=biblatex&command=autocite', OBSIDIAN, [
            { citationKey: 'adams2001' },
          ])
        ).body,
      ).toBe('\\autocite{adams2001}');
    });

    it('item.export with the BetterBibTeX JSON id: JSON.parse(result).items', async () => {
      const r = await post(
        OBSIDIAN,
        JSON.stringify({ jsonrpc: '2.0', method: 'item.export', params: [['adams2001'], BBT_JSON_ID, 1] }),
      );
      // A plain string, as Better BibTeX answers since 6.7.142 (the plugin reads both shapes).
      const parsed = JSON.parse(r.body) as { result: string };
      expect(typeof parsed.result).toBe('string');
      const items = (JSON.parse(parsed.result) as { items: Record<string, unknown>[] }).items;
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        itemType: 'journalArticle',
        citationKey: 'adams2001',
        itemKey: String(f.ids.adams2001),
        libraryID: 1,
        title: 'On Citing',
        publicationTitle: 'Journal of Tests',
        date: '2001',
        DOI: '10.1000/adams',
        relations: [],
      });
      expect(items[0]!.creators).toEqual([
        { creatorType: 'author', firstName: 'Ann', lastName: 'Adams' },
        { creatorType: 'author', firstName: 'Bob', lastName: 'Baker' },
      ]);
      expect(items[0]!.notes).toMatchObject([{ note: '<p>Read &lt;carefully&gt; &amp; twice</p>' }]);
      expect(items[0]!.attachments).toMatchObject([{ path: '/papers/adams.PDF' }]);
    });

    it('item.export with the Better CSL JSON id: the issued date it reads', async () => {
      const r = await post(
        OBSIDIAN,
        JSON.stringify({ jsonrpc: '2.0', method: 'item.export', params: [['adams2001'], CSL_JSON_ID, 1] }),
      );
      const expected = await exportOf(['adams2001'], 'csljson');
      expect(r.body).toBe(JSON.stringify({ jsonrpc: '2.0', id: null, result: expected }));
      expect((JSON.parse(expected) as { issued: { 'date-parts': number[][] } }[])[0]!.issued['date-parts'][0]![0]).toBe(
        2001,
      );
    });

    it('item.collections with parents: the full path it builds', async () => {
      const r = await post(
        OBSIDIAN,
        JSON.stringify({ jsonrpc: '2.0', method: 'item.collections', params: [['adams2001'], true] }),
      );
      const cols = (
        JSON.parse(r.body) as {
          result: Record<
            string,
            { name: string; parentCollection: false | { name: string; parentCollection: unknown } }[]
          >;
        }
      ).result.adams2001!;
      expect(cols).toHaveLength(1);
      expect(cols[0]!.name).toBe('chapter 1');
      expect(cols[0]!.parentCollection).toMatchObject({ name: 'thesis', parentCollection: false });
    });

    it('item.bibliography (quickCopy, html, and a style id)', async () => {
      const quick = await post(
        OBSIDIAN,
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'item.bibliography',
          params: [['adams2001'], { quickCopy: true, contentType: 'html' }, 1],
        }),
      );
      const cited = await f.core.invoke('library.cite', {
        ids: [f.ids.adams2001!],
        style: 'apa',
        kind: 'bibliography',
      });
      if (!cited.ok) throw new Error(cited.error.message);
      expect(quick.body).toBe(
        JSON.stringify({ jsonrpc: '2.0', id: null, result: (cited.value as { html: string }).html }),
      );
      const ieee = await post(
        OBSIDIAN,
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'item.bibliography',
          params: [['adams2001'], { id: 'http://www.zotero.org/styles/ieee', contentType: 'html' }],
        }),
      );
      expect((JSON.parse(ieee.body) as { result: string }).result).toContain('[1]');
      const unknown = await post(
        OBSIDIAN,
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'item.bibliography',
          params: [['adams2001'], { id: 'no-such-style' }],
        }),
      );
      expect((JSON.parse(unknown.body) as { error: { code: number; message: string } }).error).toMatchObject({
        code: -32602,
      });
    });

    it('item.citationkey for "libraryID:itemKey"', async () => {
      const k = `1:${f.ids.brigge2002}`;
      const r = await post(
        OBSIDIAN,
        JSON.stringify({ jsonrpc: '2.0', method: 'item.citationkey', params: [[k, '1:99999']] }),
      );
      expect(r.body).toBe(JSON.stringify({ jsonrpc: '2.0', id: null, result: { [k]: 'brigge2002', '1:99999': null } }));
    });

    it('item.notes, item.search and user.groups', async () => {
      const notes = await post(
        OBSIDIAN,
        JSON.stringify({ jsonrpc: '2.0', method: 'item.notes', params: [['adams2001']] }),
      );
      expect(notes.body).toBe(
        '{"jsonrpc":"2.0","id":null,"result":{"adams2001":["<p>Read &lt;carefully&gt; &amp; twice</p>"]}}',
      );
      const search = await post(
        OBSIDIAN,
        JSON.stringify({ jsonrpc: '2.0', method: 'item.search', params: ['brigge'] }),
      );
      const hits = (JSON.parse(search.body) as { result: { citekey: string; library: string; title: string }[] })
        .result;
      expect(hits.map((h) => [h.citekey, h.library, h.title])).toEqual([
        ['brigge2002', 'My Library', 'Books Are Long'],
      ]);
      const groups = await post(OBSIDIAN, JSON.stringify({ jsonrpc: '2.0', method: 'user.groups', params: [] }));
      expect(groups.body).toBe('{"jsonrpc":"2.0","id":null,"result":[{"id":1,"name":"My Library"}]}');
    });

    it('its key list: the library pulled as Better CSL JSON by translator id', async () => {
      const r = await send(port, 'GET', `/better-bibtex/export/library?/1/My%20Library.${CSL_JSON_ID}`, OBSIDIAN);
      expect(r.status).toBe(200);
      const entries = JSON.parse(r.body) as { 'citation-key': string; title: string }[];
      expect(entries.map((e) => e['citation-key']).sort()).toEqual(['Author:2026-test', 'adams2001', 'brigge2002']);
    });
  });

  describe('rbbt (R)', () => {
    it('has_bbt(): probe=TRUE', async () => {
      expect((await send(port, 'GET', '/better-bibtex/cayw?probe=TRUE', HTTR)).body).toBe('ready');
    });

    it('bbt_bib(): item.export with a translator name and library 1; it writes result$result as it is', async () => {
      const body = '{"jsonrpc":"2.0","method":"item.export","params":[["adams2001","brigge2002"],"biblatex",1]}';
      const r = await post({ ...HTTR, 'Content-Type': 'application/json' }, body);
      expect(r.body).toBe(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          result: await exportOf(['adams2001', 'brigge2002'], 'biblatex'),
        }),
      );
      const missing = await post(
        { ...HTTR, 'Content-Type': 'application/json' },
        '{"jsonrpc":"2.0","method":"item.export","params":[["adams2001","nobody1999"],"biblatex",1]}',
      );
      expect(missing.body).toBe(
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"not found: nobody1999"}}',
      );
    });

    it('bbt_cite_cayw() and bbt_bib_cayw(translator = "csljson")', async () => {
      expect((await pickWith('/better-bibtex/cayw?format=cite', HTTR, [{ citationKey: 'adams2001' }])).body).toBe(
        '\\cite{adams2001}',
      );
      const r = await pickWith('/better-bibtex/cayw?format=translate&translator=csljson', HTTR, [
        { citationKey: 'brigge2002' },
      ]);
      expect(r.body).toBe(await exportOf(['brigge2002'], 'csljson'));
    });

    it('bbt_bib_selected(): /better-bibtex/select?<translator> exports the Library selection', async () => {
      f.selected = [f.ids.brigge2002!];
      const r = await send(port, 'GET', '/better-bibtex/select?bibtex', HTTR);
      expect(r.status).toBe(200);
      expect(r.body).toBe(await exportOf(['brigge2002'], 'bibtex'));
      f.selected = [];
    });
  });

  describe('zotero.lua (Pandoc filter)', () => {
    it('item.pandoc_filter as the query string of a GET, asCSL for docx/odt', async () => {
      const call = {
        jsonrpc: '2.0',
        method: 'item.pandoc_filter',
        params: { style: 'apa', asCSL: true, citekeys: ['adams2001', 'nobody1999'] },
      };
      // Lua's urlencode: spaces as "+", everything else outside [A-Za-z0-9-_.~] percent-encoded.
      const encoded = encodeURIComponent(JSON.stringify(call)).replace(/%20/g, '+');
      const r = await send(port, 'GET', `/better-bibtex/json-rpc?${encoded}`, {});
      const response = JSON.parse(r.body) as {
        result: {
          errors: Record<string, number>;
          items: Record<string, { title: string; custom: { itemID: number; uri: string; author: string } }>;
        };
      };
      expect(response.result.errors).toEqual({ nobody1999: 0 });
      expect(response.result.items.adams2001!.title).toBe('On Citing');
      expect(response.result.items.adams2001!.custom).toEqual({
        itemID: f.ids.adams2001,
        uri: expect.stringMatching(/\/items\/\d+$/),
        author: 'Adams and Baker',
      });
    });
  });

  describe('Vim and Emacs (curl)', () => {
    it('vim: format=citep&brackets=1', async () => {
      const r = await pickWith('/better-bibtex/cayw?format=citep&brackets=1', CURL, [
        { citationKey: 'adams2001' },
        { citationKey: 'brigge2002' },
      ]);
      expect(r.body).toBe('\\citep{adams2001,brigge2002}');
    });

    it('emacs: format=pandoc&brackets=true, with a locator and a suppressed author', async () => {
      const r = await pickWith('/better-bibtex/cayw?format=pandoc&brackets=true', CURL, [
        { citationKey: 'adams2001', locator: '3', label: 'chapter', prefix: 'see' },
        { citationKey: 'brigge2002', suppressAuthor: true },
      ]);
      expect(r.body).toBe('[see @adams2001, ch. 3; -@brigge2002]');
    });

    it('clipboard=1 also puts it on the clipboard; selected=1 uses the Library selection without a picker', async () => {
      f.selected = [f.ids.adams2001!, f.ids.brigge2002!];
      const r = await send(port, 'GET', '/better-bibtex/cayw?format=mmd&selected=1&clipboard=yes', CURL);
      expect(r.body).toBe('[#adams2001][][#brigge2002][]');
      expect(f.clipboard.at(-1)).toBe('[#adams2001][][#brigge2002][]');
      f.selected = [];
      expect((await send(port, 'GET', '/better-bibtex/cayw?format=mmd&selected=1', CURL)).body).toBe('');
    });

    it('formatted citation and bibliography in a style', async () => {
      const r = await pickWith('/better-bibtex/cayw?format=formatted-citation&style=apa', CURL, [
        { citationKey: 'adams2001' },
      ]);
      expect(r.body).toBe('(Adams & Baker, 2001)');
      const b = await pickWith('/better-bibtex/cayw?format=formatted-bibliography&style=apa&locale=en-US', CURL, [
        { citationKey: 'brigge2002' },
      ]);
      expect(b.body).toContain('Brigge, C. (2002). Books Are Long');
    });

    it('an unknown format is refused before any picker opens', async () => {
      const r = await send(port, 'GET', '/better-bibtex/cayw?format=nope', CURL);
      expect(r.status).toBe(400);
      expect(r.body).toContain('unknown format "nope"');
      expect(f.api.pickers.open).toBe(0);
    });

    it('an editor that stops waiting closes its picker', async () => {
      const opened = f.nextPicker();
      const { request } = await import('node:http');
      const req = request({ host: '127.0.0.1', port, path: '/better-bibtex/cayw?format=pandoc', headers: CURL });
      req.on('error', () => {});
      req.end();
      await opened;
      expect(f.api.pickers.open).toBe(1);
      req.destroy();
      await expect.poll(() => f.api.pickers.open).toBe(0);
    });
  });

  describe('JSON-RPC 2.0', () => {
    const json = { 'Content-Type': 'application/json', 'User-Agent': 'test' };
    it('batches answer in order, each with its own id', async () => {
      const r = await post(
        json,
        JSON.stringify([
          { jsonrpc: '2.0', id: 'a', method: 'user.groups' },
          { jsonrpc: '2.0', id: 2, method: 'no.such' },
        ]),
      );
      expect(r.body).toBe(
        '[{"jsonrpc":"2.0","id":"a","result":[{"id":1,"name":"My Library"}]},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: no.such"}}]',
      );
    });
    it('parse errors, invalid requests, empty batches and bad params have their codes', async () => {
      expect((JSON.parse((await post(json, '{"jsonrpc":')).body) as { error: { code: number } }).error.code).toBe(
        -32700,
      );
      expect((await post(json, '{"jsonrpc":"1.0","id":3,"method":"user.groups"}')).body).toBe(
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \\"2.0\\""}}',
      );
      expect((JSON.parse((await post(json, '[]')).body) as { error: { code: number } }).error.code).toBe(-32600);
      expect(
        (
          JSON.parse(
            (await post(json, '{"jsonrpc":"2.0","id":4,"method":"item.export","params":["adams2001"]}')).body,
          ) as { error: { code: number } }
        ).error.code,
      ).toBe(-32602);
      expect(
        (
          JSON.parse(
            (await post(json, '{"jsonrpc":"2.0","id":5,"method":"item.export","params":[["adams2001"],"Better Word"]}'))
              .body,
          ) as { error: { message: string } }
        ).error.message,
      ).toContain("Unknown translator 'Better Word'");
      expect(
        (
          JSON.parse(
            (await post(json, '{"jsonrpc":"2.0","id":6,"method":"item.notes","params":{"keys":["a"]}}')).body,
          ) as { error: { message: string } }
        ).error.message,
      ).toContain('unexpected parameter "keys"');
      // Named params map onto positions.
      expect(
        (
          JSON.parse(
            (await post(json, '{"jsonrpc":"2.0","id":7,"method":"item.notes","params":{"citekeys":["adams2001"]}}'))
              .body,
          ) as { result: unknown }
        ).result,
      ).toHaveProperty('adams2001');
    });
    it('translators by name: "Better BibTeX", "BetterBibLaTeX", "bibtex" are the same as their ids', async () => {
      const a = await post(json, '{"jsonrpc":"2.0","method":"item.export","params":[["brigge2002"],"Better BibTeX"]}');
      const b = await post(
        json,
        '{"jsonrpc":"2.0","method":"item.export","params":[["brigge2002"],"ca65189f-8815-4afe-8c8b-8c7c15f0edca"]}',
      );
      expect(a.body).toBe(b.body);
      expect(JSON.parse(a.body).result).toBe(await exportOf(['brigge2002'], 'bibtex'));
    });
  });

  describe('collections and files', () => {
    it('collection.scanAUX fills a collection with exactly what the .aux cites', async () => {
      // Only in a folder the user allowed (files.test.ts checks the refusals).
      expect(await f.core.invoke('settings.update', { editorApiFolders: [f.dir.path] })).toMatchObject({ ok: true });
      const aux = join(f.dir.path, 'thesis.aux');
      writeFileSync(aux, '\\relax\n\\citation{adams2001,nobody1999}\n\\abx@aux@cite{0}{brigge2002}\n\\bibdata{refs}\n');
      const r = await post(
        { 'Content-Type': 'application/json' },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'collection.scanAUX', params: ['//thesis/cited', aux] }),
      );
      const result = (JSON.parse(r.body) as { result: { libraryID: number; key: string; missing: string[] } }).result;
      expect(result.libraryID).toBe(1);
      expect(result.missing).toEqual(['nobody1999']);
      const ids = await f.core.library.listing.idsOf({
        collectionId: Number(result.key),
        includeSubcollections: false,
      });
      expect(ids.sort()).toEqual([f.ids.adams2001, f.ids.brigge2002].sort());
      // Scanning again after an edit replaces the contents.
      writeFileSync(aux, '\\citation{brigge2002}\n');
      await post(
        { 'Content-Type': 'application/json' },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'collection.scanAUX', params: ['//thesis/cited', aux] }),
      );
      expect(
        await f.core.library.listing.idsOf({ collectionId: Number(result.key), includeSubcollections: false }),
      ).toEqual([f.ids.brigge2002]);
    });

    it('autoexport.add keeps a collection in a file', async () => {
      const out = join(f.dir.path, 'out');
      mkdirSync(out);
      const path = join(out, 'thesis.bib');
      const r = await post(
        { 'Content-Type': 'application/json' },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'autoexport.add',
          params: ['//thesis/cited', 'Better BibLaTeX', path],
        }),
      );
      expect((JSON.parse(r.body) as { result: { libraryID: number } }).result.libraryID).toBe(1);
      await expect
        .poll(() => existsSync(path) && readFileSync(path, 'utf8').includes('@book{brigge2002'), { timeout: 10_000 })
        .toBe(true);
      const again = await post(
        { 'Content-Type': 'application/json' },
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'autoexport.add', params: ['//thesis', 'bibtex', path] }),
      );
      expect((JSON.parse(again.body) as { error: { message: string } }).error.message).toContain(
        "no 'replace' was requested",
      );
    });

    it('pull export: the library as biblatex, bibtex and CSL JSON, a collection by its path', async () => {
      for (const [ext, format] of [
        ['biblatex', 'biblatex'],
        ['bibtex', 'bibtex'],
        ['csljson', 'csljson'],
      ] as const) {
        const r = await send(port, 'GET', `/better-bibtex/library?/1/library.${ext}`, CURL);
        expect(r.status).toBe(200);
        const ids = await f.core.library.listing.idsOf({});
        expect(r.body).toBe((await f.core.library.lib.exportText(ids, format)).content);
      }
      const c = await send(port, 'GET', '/better-bibtex/collection?/1/thesis/chapter%201.biblatex', CURL);
      expect(c.status).toBe(200);
      expect(c.body).toBe(await exportOf(['adams2001'], 'biblatex'));
      expect((await send(port, 'GET', '/better-bibtex/collection?/1/nowhere.biblatex', CURL)).status).toBe(404);
      const bad = await send(port, 'GET', '/better-bibtex/library?/1/library.docx', CURL);
      expect(bad.status).toBe(400);
      expect(bad.body).toContain('unknown export format "docx"');
    });
  });

  describe('who may call it', () => {
    it("refuses web pages: an Origin header, or a browser without Zotero's allow header", async () => {
      const page = await send(port, 'GET', '/better-bibtex/cayw?probe=1', {
        Origin: 'https://evil.example',
        'User-Agent': 'curl/8',
      });
      expect(page.status).toBe(403);
      const browser = await send(port, 'GET', '/better-bibtex/cayw?probe=1', {
        'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
      });
      expect(browser.status).toBe(403);
      expect(browser.body).toContain('Request not allowed');
      const rpc = await send(
        port,
        'POST',
        '/better-bibtex/json-rpc',
        { 'User-Agent': 'Mozilla/5.0', 'Content-Type': 'text/plain' },
        '{"jsonrpc":"2.0","method":"item.search","params":[""]}',
      );
      expect(rpc.status).toBe(403);
      const allowed = await send(port, 'GET', '/better-bibtex/cayw?probe=1', {
        'User-Agent': 'Mozilla/5.0',
        'Zotero-Allowed-Request': '1',
      });
      expect(allowed.body).toBe('ready');
    });

    it('refuses a Host other than 127.0.0.1 or localhost with its port (DNS rebinding)', async () => {
      expect((await send(port, 'GET', '/better-bibtex/cayw?probe=1', { Host: `evil.example:${port}` })).status).toBe(
        403,
      );
      expect((await send(port, 'GET', '/better-bibtex/cayw?probe=1', { Host: `localhost:${port + 1}` })).status).toBe(
        403,
      );
      expect((await send(port, 'GET', '/better-bibtex/cayw?probe=1', { Host: `localhost:${port}` })).body).toBe(
        'ready',
      );
    });

    it("the picker's data needs the picker's token and its own origin", async () => {
      const opened = f.nextPicker();
      const held = send(port, 'GET', '/better-bibtex/cayw?format=pandoc', CURL);
      const s = await opened;
      expect((await send(port, 'GET', `/citewise/picker/${s.id}/search?q=adams`, {})).status).toBe(403);
      expect(
        (await send(port, 'GET', `/citewise/picker/${s.id}/search?q=adams`, { 'X-Citewise-Picker': 'wrong' })).status,
      ).toBe(403);
      expect(
        (
          await send(
            port,
            'POST',
            `/citewise/picker/${s.id}/done`,
            { 'X-Citewise-Picker': s.token, Origin: 'https://evil.example' },
            '{"picks":[]}',
          )
        ).status,
      ).toBe(403);
      const ok = await send(port, 'GET', `/citewise/picker/${s.id}/search?q=${encodeURIComponent('author:adams')}`, {
        'X-Citewise-Picker': s.token,
      });
      expect(ok.status).toBe(200);
      expect(
        (JSON.parse(ok.body) as { hits: { citationKey: string; evidence: { state: string } }[] }).hits,
      ).toMatchObject([{ citationKey: 'adams2001', evidence: { state: 'not-fetched' } }]);
      const page = await send(port, 'GET', `/citewise/picker/${s.id}`, {});
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.body).not.toContain(s.token);
      await answerPicker(port, s, null);
      expect((await held).body).toBe('');
    });

    it('says plainly when the port is taken', async () => {
      const blocker = createServer();
      await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
      const taken = (blocker.address() as { port: number }).port;
      try {
        await expect(startApiServer({ core: f.core, port: taken, openPicker: () => {} })).rejects.toThrow(
          ApiPortInUseError,
        );
        await expect(startApiServer({ core: f.core, port: taken, openPicker: () => {} })).rejects.toThrow(
          `Port ${taken} is in use; run \`citewise api --port ${taken + 1}\``,
        );
        expect(new ApiPortInUseError(23119).message).toBe(
          'Port 23119 is in use (Zotero or JabRef may be running); run `citewise api --port 23120` or choose another port in Settings → Editors.',
        );
      } finally {
        blocker.close();
      }
    });
  });
});
