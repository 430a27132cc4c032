// The Obsidian "Zotero Integration" plugin (mgmeyers/obsidian-zotero-integration 3.2.1, src/bbt/),
// replayed: its import of a note (cayw.ts getCAYWJSON, jsonRPC.ts getItemJSONFromCiteKeys, then
// export.ts processItem's date, collections and bibliography, and getAttachmentData), its citation
// key list (getAllCiteKeys) and its library lookup (getLibForCiteKey), each request with the headers
// and body it sends, each answer read the way it reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPicker, send, startFixture, type Fixture } from './helpers';

/** src/bbt/helpers.ts defaultHeaders. */
const DEFAULT_HEADERS = {
  'Content-Type': 'application/json',
  'User-Agent': 'obsidian/zotero',
  Accept: 'application/json',
  Connection: 'keep-alive',
};
const BBT_JSON = '36a3b0b5-bad0-4a04-b79b-441c7cef77db';
const CSL_JSON = 'f4b52ab0-f878-4556-85a0-c7aeedd09dfc';

interface CiteKey {
  key: string;
  library: number;
}

describe('Obsidian Zotero Integration, replayed', { timeout: 120_000 }, () => {
  let f: Fixture;
  let port: number;
  /** Obsidian's request(): the body as text; a non-2xx status throws. */
  const request = async (method: 'GET' | 'POST', path: string, body?: string): Promise<string> => {
    const r = await send(
      port,
      method,
      path,
      body === undefined ? DEFAULT_HEADERS : { ...DEFAULT_HEADERS, 'Content-Length': Buffer.byteLength(body) },
      body,
    );
    if (r.status >= 400) throw new Error(`Request failed, status ${r.status}`);
    return r.body;
  };
  const rpc = (method: string, params?: unknown[]) =>
    request(
      'POST',
      '/better-bibtex/json-rpc',
      JSON.stringify(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }),
    );

  beforeAll(async () => {
    f = await startFixture();
    port = f.api.port;
    await f.collection('methods', await f.collection('reading'), ['adams2001']);
    await f.core.invoke('library.notes.add', { itemId: f.ids.adams2001!, body: 'First point\n\nSecond <point>' });
    await f.core.library.lib.addAttachment(f.ids.adams2001!, { path: '/papers/adams.pdf' });
  });
  afterAll(async () => {
    await f.close();
  });

  it('imports a note: probe, pick as BetterBibTeX JSON, item.export, then date, collections, bibliography, attachments', async () => {
    // isZoteroRunning()
    expect(await request('GET', '/better-bibtex/cayw?probe=true')).toBe('ready');
    // getCAYWJSON(): the pick as BetterBibTeX JSON, without notes.
    const opened = f.nextPicker();
    const picked = request('GET', `/better-bibtex/cayw?format=translate&translator=${BBT_JSON}&exportNotes=false`);
    await answerPicker(port, await opened, [{ citationKey: 'adams2001' }]);
    const items = (JSON.parse(await picked) as { items: Record<string, unknown>[] }).items || [];
    // getCiteKeyFromAny()
    const citeKeys: CiteKey[] = items.map((i) => ({
      key: (i.citekey ?? i.citationKey) as string,
      library: i.libraryID as number,
    }));
    expect(citeKeys).toEqual([{ key: 'adams2001', library: 1 }]);

    // getItemJSONFromCiteKeys()
    const parsed = JSON.parse(
      await rpc('item.export', [citeKeys.map((k) => k.key), BBT_JSON, citeKeys[0]!.library]),
    ) as {
      result: unknown;
      error?: { message: string };
    };
    expect(parsed.error).toBeUndefined();
    const itemData = (
      Array.isArray(parsed.result) ? JSON.parse(parsed.result[2] as string) : JSON.parse(parsed.result as string)
    ).items as Record<string, unknown>[];
    const item = itemData[0]!;
    expect(item).toMatchObject({
      citationKey: 'adams2001',
      title: 'On Citing',
      itemType: 'journalArticle',
      libraryID: 1,
      date: '2001',
    });
    expect(item.notes).toMatchObject([{ note: '<p>First point</p><p>Second &lt;point&gt;</p>' }]);
    // processItem(): desktopURI = item.select || zotero://select/…: Citewise sends no link nothing opens.
    expect(item.select).toBeUndefined();

    const citekey = citeKeys[0]!;
    // getIssueDateFromCiteKey()
    const dated = JSON.parse(await rpc('item.export', [[citekey.key], CSL_JSON, citekey.library])) as {
      result: unknown;
    };
    const csl = (
      Array.isArray(dated.result) ? JSON.parse(dated.result[2] as string) : JSON.parse(dated.result as string)
    ) as { issued: { 'date-parts': number[][] } }[];
    expect(csl[0]!.issued['date-parts'][0]).toEqual([2001]);
    // getCollectionFromCiteKey(): the full path from the nested parents.
    const cols = (
      JSON.parse(await rpc('item.collections', [[citekey.key], true])) as {
        result: Record<string, { name: string; parentCollection: unknown }[]>;
      }
    ).result[citekey.key]!;
    const fullPaths = cols.map((c) => {
      let pointer = c as { name: string; parentCollection: unknown };
      const path = [c.name];
      while (pointer.parentCollection) {
        pointer = pointer.parentCollection as { name: string; parentCollection: unknown };
        path.push(pointer.name);
      }
      return path.reverse().join('/');
    });
    expect(fullPaths).toEqual(['reading/methods']);
    // getBibFromCiteKey(): quick copy as HTML, and a chosen CSL style.
    for (const params of [
      { quickCopy: true, contentType: 'html' },
      { contentType: 'html', id: 'ieee' },
    ]) {
      const bib = JSON.parse(await rpc('item.bibliography', [[citekey.key], params, citekey.library])) as {
        result?: string;
        error?: { message: string };
      };
      expect(bib.error).toBeUndefined();
      expect(bib.result).toContain('On Citing');
    }
    // getAttachmentData(): item.attachments with the key and its library, mapped by path.
    const attachments = (
      JSON.parse(await rpc('item.attachments', [citekey.key, citekey.library])) as {
        result: { path: string; open: string }[];
      }
    ).result;
    expect(Object.keys(Object.fromEntries(attachments.map((a) => [a.path, a])))).toEqual(['/papers/adams.pdf']);
    // getNotesFromCiteKeys() (exportNotes.ts)
    expect(
      (JSON.parse(await rpc('item.notes', [[citekey.key]])) as { result: Record<string, string[]> }).result,
    ).toEqual({ adams2001: ['<p>First point</p><p>Second &lt;point&gt;</p>'] });
  });

  it('lists every citation key: user.groups, then each library pulled as Better CSL JSON', async () => {
    const groups = (JSON.parse(await rpc('user.groups', [])) as { result: { id: number; name: string }[] }).result;
    const all: { libraryID: number; citekey: string; title: string }[] = [];
    for (const group of groups) {
      // getCiteKeyExport(): the group's name as it is in the URL (Electron's net encodes the space).
      const entries = JSON.parse(
        await request('GET', `/better-bibtex/export/library?/${group.id}/${encodeURI(group.name)}.${CSL_JSON}`),
      ) as Record<string, string>[];
      for (const e of entries)
        if (e['citation-key'] && e.title) all.push({ libraryID: group.id, citekey: e['citation-key'], title: e.title });
    }
    expect(all.map((k) => k.citekey).sort()).toEqual(['Author:2026-test', 'adams2001', 'brigge2002']);
  });

  it('finds the library of a key: item.search, then user.groups without params', async () => {
    const results = (
      JSON.parse(await rpc('item.search', ['brigge2002'])) as { result: { citekey: string; library: string }[] }
    ).result;
    const match = results.find((r) => r.citekey === 'brigge2002')!;
    const libs = (JSON.parse(await rpc('user.groups')) as { result: { id: number; name: string }[] }).result;
    expect(libs.find((l) => l.name === match.library)?.id).toBe(1);
  });

  it('relations: item.citationkey for "libraryID:itemKey" of each related item', async () => {
    const uri = `http://zotero.org/users/local/citewise/items/${f.ids.brigge2002}`;
    const id = uri.split('/').pop()!;
    const json = JSON.parse(await rpc('item.citationkey', [[`1:${id}`, '1:ZZZZ9999']])) as {
      result: Record<string, string | null>;
    };
    expect(json.result).toEqual({ [`1:${id}`]: 'brigge2002', '1:ZZZZ9999': null });
  });
});
