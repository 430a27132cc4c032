// Issue 40: what the editor API's two file methods may touch. Any program on the computer may call
// the API; collection.scanAUX read /etc/shadow (and said whether any path existed, and hung on a
// FIFO), and autoexport.add replaced package.json, even through a GET. Now: only files inside a folder
// the user allowed, with the right extension, regular files, not links out of the folder; only a POST
// with Content-Type: application/json may change anything; each change can be undone.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postRpc, send, startFixture, type Fixture } from './helpers';

const JSON_POST = { 'Content-Type': 'application/json', 'User-Agent': 'curl/8.5.0' };

interface RpcReply {
  result?: { libraryID: number; key: string; items?: number; missing?: string[] };
  error?: { code: number; message: string };
}

describe('the editor API and files', { timeout: 120_000 }, () => {
  let f: Fixture;
  let allowed: string;
  let outside: string;
  const rpc = async (
    method: string,
    params: unknown[],
    headers: Record<string, string> = JSON_POST,
    via: 'POST' | 'GET' = 'POST',
  ): Promise<RpcReply> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    const r =
      via === 'POST'
        ? await postRpc(f.api.port, headers, body)
        : await send(f.api.port, 'GET', `/better-bibtex/json-rpc?${encodeURIComponent(body)}`, headers);
    expect(r.status, r.body).toBe(200);
    return JSON.parse(r.body) as RpcReply;
  };
  const members = (collectionId: number) =>
    f.core.library.listing.idsOf({ collectionId, includeSubcollections: false });
  const allow = async (folders: string[]) =>
    expect(await f.core.invoke('settings.update', { editorApiFolders: folders })).toMatchObject({ ok: true });

  beforeAll(async () => {
    f = await startFixture();
    allowed = join(f.dir.path, 'thesis');
    outside = join(f.dir.path, 'private');
    mkdirSync(allowed);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.aux'), '\\citation{adams2001}\n');
  });
  afterAll(async () => {
    await f.close();
  });
  beforeEach(async () => {
    await allow([allowed]);
  });

  describe('collection.scanAUX', () => {
    it('reads nothing until the user allows a folder, and nothing outside it', async () => {
      await allow([]);
      const none = await rpc('collection.scanAUX', ['//cited', join(allowed, 'paper.aux')]);
      expect(none.error?.message).toContain('until you allow a folder');
      await allow([allowed]);
      const secret = await rpc('collection.scanAUX', ['//cited', join(outside, 'secret.aux')]);
      expect(secret.error?.message).toContain('not in a folder you allowed');
      // Outside, a path that exists and one that does not get the same answer: no existence oracle.
      const missing = await rpc('collection.scanAUX', ['//cited', join(outside, 'nothing.aux')]);
      expect(missing.error?.message.replace('nothing.aux', 'secret.aux')).toBe(secret.error?.message);
      // Other files are refused by kind, wherever they are.
      for (const path of ['/etc/shadow', '/etc/passwd', join(allowed, 'notes.txt')]) {
        const r = await rpc('collection.scanAUX', ['//cited', path]);
        expect(r.error?.message, path).toContain('must end in .aux');
      }
      expect((await f.core.invoke('library.collections.list', {})).ok).toBe(true);
      const cols = await f.core.library.lib.listCollections();
      expect(cols.some((c) => c.name === 'cited')).toBe(false);
    });

    it('refuses a link out of the folder, a FIFO (at once), /dev/zero and an .aux over 20 MB', async () => {
      symlinkSync(outside, join(allowed, 'elsewhere'));
      expect(
        (await rpc('collection.scanAUX', ['//cited', join(allowed, 'elsewhere', 'secret.aux')])).error?.message,
      ).toContain('leads out of the folders you allowed');
      symlinkSync(join(outside, 'secret.aux'), join(allowed, 'linked.aux'));
      expect((await rpc('collection.scanAUX', ['//cited', join(allowed, 'linked.aux')])).error?.message).toContain(
        'is a symbolic link',
      );
      symlinkSync('/dev/zero', join(allowed, 'zero.aux'));
      expect((await rpc('collection.scanAUX', ['//cited', join(allowed, 'zero.aux')])).error?.message).toContain(
        'is a symbolic link',
      );
      execFileSync('mkfifo', [join(allowed, 'pipe.aux')]);
      const started = Date.now();
      const fifo = await rpc('collection.scanAUX', ['//cited', join(allowed, 'pipe.aux')]);
      expect(fifo.error?.message).toMatch(/not a regular file/);
      expect(Date.now() - started).toBeLessThan(30_000);
      const big = join(allowed, 'big.aux');
      writeFileSync(big, '');
      truncateSync(big, 20 * 1024 * 1024 + 1);
      expect((await rpc('collection.scanAUX', ['//cited', big])).error?.message).toContain('more than the 20 MB');
      const edge = join(allowed, 'edge.aux');
      writeFileSync(edge, `\\citation{adams2001}\n${' '.repeat(20 * 1024 * 1024 - 21)}`);
      expect((await rpc('collection.scanAUX', ['//edge', edge])).result?.items).toBe(1);
    });

    it('changes nothing through a GET, a POST of another type or without one', async () => {
      const aux = join(allowed, 'get.aux');
      writeFileSync(aux, '\\citation{adams2001}\n');
      const get = await rpc('collection.scanAUX', ['//by-get', aux], { 'User-Agent': 'curl/8.5.0' }, 'GET');
      expect(get.error?.message).toContain('must come as a POST with Content-Type: application/json');
      const untyped = await rpc('collection.scanAUX', ['//by-get', aux], { 'User-Agent': 'curl/8.5.0' });
      expect(untyped.error?.code).toBe(-32600);
      const body = JSON.stringify({ jsonrpc: '2.0', method: 'collection.scanAUX', params: ['//by-get', aux] });
      const form = await send(
        f.api.port,
        'POST',
        '/better-bibtex/json-rpc',
        { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) },
        body,
      );
      expect(form.status).toBe(400);
      expect(form.body).toContain('takes application/json');
      expect((await f.core.library.lib.listCollections()).some((c) => c.name === 'by-get')).toBe(false);
      // Reading methods still answer a GET (zotero.lua) and a POST without a type.
      expect((await rpc('item.search', ['adams'], { 'User-Agent': 'curl/8.5.0' }, 'GET')).error).toBeUndefined();
    });

    it('fills a collection in one undoable step: one Undo puts back what it held', async () => {
      const made = await f.core.invoke('library.collections.create', { name: 'reading', parentId: null });
      if (!made.ok) throw new Error(made.error.message);
      const id = (made.value as { id: number }).id;
      const all = Object.values(f.ids);
      await f.core.invoke('library.collections.addItems', { collectionId: id, ids: all });
      expect((await members(id)).length).toBe(3);
      const empty = join(allowed, 'empty.aux');
      writeFileSync(empty, '\\relax\n');
      const r = await rpc('collection.scanAUX', ['//reading', empty]);
      expect(r.result).toMatchObject({ key: String(id), items: 0 });
      expect(await members(id)).toEqual([]);
      const history = await f.core.invoke('library.history', {});
      if (!history.ok) throw new Error(history.error.message);
      expect((history.value as { undo: { label: string }[] }).undo[0]!.label).toContain('empty.aux');
      expect((await f.core.invoke('library.undo', {})).ok).toBe(true);
      expect((await members(id)).sort()).toEqual([...all].sort());
    });
  });

  describe('a collection the API creates is part of the undo step', () => {
    type Entry = { id: number; label: string; cannotUndo?: unknown };
    const history = async () => {
      const h = await f.core.invoke('library.history', {});
      if (!h.ok) throw new Error(h.error.message);
      return h.value as { undo: Entry[]; redo: Entry[] };
    };
    const named = async (name: string) => (await f.core.library.lib.listCollections()).filter((c) => c.name === name);

    it('scanAUX into a new collection path: one step creates and fills; Undo removes both, Redo brings them back', async () => {
      const before = (await history()).undo[0];
      // As LaTeX writes the .aux of a document citing two entries (and one the library lacks).
      const aux = join(allowed, 'chapter1.aux');
      writeFileSync(
        aux,
        '\\relax\n\\citation{adams2001}\n\\citation{brigge2002,adams2001}\n\\citation{nobody1999}\n\\bibstyle{plain}\n\\bibdata{refs}\n\\gdef \\@abspage@last{3}\n',
      );
      const r = await rpc('collection.scanAUX', ['/My Library/thesis-2026/chapter 1', aux]);
      expect(r.result).toMatchObject({ items: 2, missing: ['nobody1999'] });
      const [parent] = await named('thesis-2026');
      const [child] = await named('chapter 1');
      expect(child?.parentId).toBe(parent!.id);
      expect(String(child!.id)).toBe(r.result!.key);
      expect((await members(child!.id)).sort()).toEqual([f.ids['adams2001'], f.ids['brigge2002']].sort());
      // One step, with no barrier: before, creating the path left "cannot be undone" markers.
      const after = await history();
      expect(after.undo[0]!.label).toBe(
        'Create collection “thesis-2026/chapter 1” with what chapter1.aux cites (2 items)',
      );
      expect(after.undo[0]!.cannotUndo).toBeUndefined();
      expect(after.undo[1]?.id).toBe(before?.id);

      const undone = await f.core.invoke('library.undo', { id: after.undo[0]!.id });
      expect(undone.ok, JSON.stringify(undone)).toBe(true);
      expect(await named('thesis-2026')).toEqual([]);
      expect(await named('chapter 1')).toEqual([]);
      // Not left in the Trash either, where its name would block the next scanAUX.
      expect((await f.core.library.lib.trashedCollections()).some((c) => c.name === 'thesis-2026')).toBe(false);
      expect((await history()).undo[0]?.id).toBe(before?.id);

      const redone = await f.core.invoke('library.redo', {});
      expect(redone.ok, JSON.stringify(redone)).toBe(true);
      const [again] = await named('chapter 1');
      expect(again?.id).toBe(child!.id);
      expect((await named('thesis-2026'))[0]?.id).toBe(parent!.id);
      expect((await members(child!.id)).sort()).toEqual([f.ids['adams2001'], f.ids['brigge2002']].sort());

      // Undone again, the same .aux can be scanned into the same path at once.
      expect((await f.core.invoke('library.undo', {})).ok).toBe(true);
      const twice = await rpc('collection.scanAUX', ['//thesis-2026/chapter 1', aux]);
      expect(twice.result).toMatchObject({ items: 2 });
      expect((await f.core.invoke('library.undo', {})).ok).toBe(true);
      expect(await named('thesis-2026')).toEqual([]);
    });

    it('into an existing parent: only the new child is created, and only it goes on Undo', async () => {
      const parent = await f.collection('existing-parent');
      const aux = join(allowed, 'one.aux');
      writeFileSync(aux, '\\relax\n\\citation{adams2001}\n');
      const r = await rpc('collection.scanAUX', ['//existing-parent/new-child', aux]);
      expect(r.result).toMatchObject({ items: 1 });
      expect((await history()).undo[0]!.label).toMatch(
        /^Create collection “existing-parent\/new-child” with what one\.aux cites \(.+\)$/,
      );
      expect((await f.core.invoke('library.undo', {})).ok).toBe(true);
      expect(await named('new-child')).toEqual([]);
      expect((await named('existing-parent'))[0]?.id).toBe(parent);
    });

    it('keeps, on Undo, a created collection that was used since', async () => {
      const aux = join(allowed, 'kept.aux');
      writeFileSync(aux, '\\relax\n\\citation{adams2001}\n');
      const r = await rpc('collection.scanAUX', ['//kept-one', aux]);
      const id = Number(r.result!.key);
      const step = (await history()).undo[0]!;
      // An auto-export set to write it since (no undo step of its own): the collection stays, only
      // the membership goes back. (A subcollection made there is a step of its own now, undone first.)
      expect(
        (await rpc('autoexport.add', ['//kept-one', 'Better BibLaTeX', join(allowed, 'kept.bib')])).error,
      ).toBeUndefined();
      expect((await history()).undo[0]!.id).toBe(step.id);
      const undone = await f.core.invoke('library.undo', { id: step.id });
      expect(undone).toMatchObject({ ok: true, value: { kept: ['“kept-one” (an auto-export writes it)'] } });
      expect((await named('kept-one'))[0]?.id).toBe(id);
      expect(await members(id)).toEqual([]);
    });

    it('autoexport.add into a new collection: creating it is an undo step, not a barrier', async () => {
      const before = (await history()).undo[0];
      const r = await rpc('autoexport.add', ['//fresh-exports', 'Better BibLaTeX', join(allowed, 'fresh.bib')]);
      expect(r.error).toBeUndefined();
      const top = (await history()).undo[0]!;
      expect(top.label).toBe('Create collection “fresh-exports”');
      expect(top.cannotUndo).toBeUndefined();
      expect(top.id).not.toBe(before?.id);
      // The auto-export writes it: Undo leaves the collection it would otherwise empty the file of.
      expect((await f.core.invoke('library.undo', {})).ok).toBe(true);
      expect(await named('fresh-exports')).toHaveLength(1);
    });
  });

  describe('autoexport.add', () => {
    const add = (path: string, translator = 'Better BibLaTeX', extra: unknown[] = []) =>
      rpc('autoexport.add', ['//thesis', translator, path, ...extra]);

    it('never replaces a file it does not keep in sync, inside or outside the allowed folder', async () => {
      const pkg = join(allowed, 'package.json');
      writeFileSync(pkg, '{"name":"mine"}\n');
      expect((await add(pkg, 'Better CSL JSON')).error?.message).toContain('already exists and is not a file');
      expect(readFileSync(pkg, 'utf8')).toBe('{"name":"mine"}\n');
      const bib = join(allowed, 'hand-written.bib');
      writeFileSync(bib, '@misc{mine, title={Mine}}\n');
      expect((await add(bib)).error?.message).toContain('already exists');
      expect(readFileSync(bib, 'utf8')).toBe('@misc{mine, title={Mine}}\n');
      const elsewhere = join(outside, 'refs.bib');
      expect((await add(elsewhere)).error?.message).toContain('not in a folder you allowed');
      expect(existsSync(elsewhere)).toBe(false);
      expect((await add(join(allowed, 'refs.json'))).error?.message).toContain('must end in .bib');
      symlinkSync(join(outside, 'target.bib'), join(allowed, 'link.bib'));
      expect((await add(join(allowed, 'link.bib'))).error?.message).toContain('is a symbolic link');
      expect(existsSync(join(outside, 'target.bib'))).toBe(false);
      const viaGet = await rpc(
        'autoexport.add',
        ['//thesis', 'Better BibLaTeX', join(allowed, 'get.bib')],
        { 'User-Agent': 'curl/8.5.0' },
        'GET',
      );
      expect(viaGet.error?.message).toContain('must come as a POST');
      expect(existsSync(join(allowed, 'get.bib'))).toBe(false);
    });

    it('writes a new file, refreshes its own, and replaces its own definition only when asked', async () => {
      const path = join(allowed, 'thesis.bib');
      expect((await add(path)).result?.libraryID).toBe(1);
      await expect.poll(() => existsSync(path), { timeout: 20_000 }).toBe(true);
      expect((await add(path)).result?.libraryID).toBe(1);
      expect((await add(path, 'Better BibTeX')).error?.message).toContain("no 'replace' was requested");
      expect((await add(path, 'Better BibTeX', [{}, true])).result?.libraryID).toBe(1);
      const list = await f.core.invoke('autoExport.list', {});
      if (!list.ok) throw new Error(list.error.message);
      const defs = (list.value as { path: string; format: string }[]).filter((d) => d.path === path);
      expect(defs).toMatchObject([{ format: 'bibtex' }]);
    });
  });
});
