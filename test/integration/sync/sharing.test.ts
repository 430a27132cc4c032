// Issue 34: two data folders on this machine, each with its own Citewise, share one library through a
// real PostgreSQL started by the test. What is shared, how edits merge, conflicts kept on both sides,
// deletes against edits, keys and names that collide, merges and their undo, attachment files.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { postgresAvailable, type TestPostgres } from '../../helpers/postgres';
import { integrity, lab, machine, serverCounts, snapshot, startPostgres, type Lab, type Machine } from './helpers';

let server: TestPostgres;
let l: Lab;
const machines: Machine[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.remove();
});
afterEach(async () => {
  for (const m of machines.splice(0)) await m.remove();
  await l?.close();
});

async function two(): Promise<[Machine, Machine]> {
  l = await lab(server);
  await l.member('alice');
  await l.member('bob');
  const a = await machine('a');
  const b = await machine('b');
  machines.push(a, b);
  return [a, b];
}

const paper = (n: number, extra: Partial<CslItem> = {}): CslItem => ({
  id: `p${n}`,
  type: 'article-journal',
  'citation-key': `paper${n}`,
  title: `Paper number ${n}`,
  author: [{ family: `Author${n}`, given: 'Ada' }],
  issued: { 'date-parts': [[2000 + n]] },
  'container-title': 'Journal of Tests',
  DOI: `10.1000/test.${n}`,
  ...extra,
});

async function syncAll(...ms: Machine[]): Promise<void> {
  // Twice round: what one pushes, the others pull on the second pass.
  for (let i = 0; i < 2; i++) for (const m of ms) await m.engine.syncNow();
}

describe.skipIf(!postgresAvailable())(
  'a library shared by two machines through PostgreSQL',
  { timeout: 240_000 },
  () => {
    it('shares items with every field, keys, trash, tags, collections, notes, saved searches, evidence and files', async () => {
      const [a, b] = await two();
      await a.join(l, 'alice');
      const imported = await a.lib.importItems([
        paper(1, { abstract: 'An abstract with <i>markup</i>', volume: '3', page: '10-20', keyword: 'alpha, beta' }),
        paper(2, {
          editor: [{ family: 'Editor', given: 'E' }],
          note: 'a CSL note field',
          custom: { x: 1 },
        } as Partial<CslItem>),
        paper(3),
      ]);
      const [i1, i2, i3] = imported.ids as [number, number, number];
      await a.lib.lib.addTags([i1, i2], ['to read']);
      const parent = await a.lib.lib.createCollection('Project');
      const child = await a.lib.lib.createCollection('Chapter 1', parent);
      await a.lib.lib.addToCollection(child, [i1, i3]);
      await a.lib.lib.addNote(i2, 'Read section 3 again');
      await a.lib.listing.saveSearch('Recent', 'year:2002..');
      await a.lib.lib.trashItems([i3]);
      await a.lib.lib.setCitationKey(i2, 'editedKey2002');
      await a.lib.serviceCache.putTallies({
        found: { '10.1000/test.1': { total: 9, supporting: 3, contrasting: 1, mentioning: 5, unclassified: 0 } },
      });
      const pdf = join(a.dir, 'paper1.pdf');
      const content = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2_500_000, 7)]);
      writeFileSync(pdf, content);
      const sha = createHash('sha256').update(content).digest('hex');
      await a.lib.lib.addAttachment(i1, { path: pdf, sha256: sha, size: content.length, mime: 'application/pdf' });

      const pushed = await a.engine.syncNow();
      // 3 items, 2 collections, 2 memberships, a note, a saved search, an attachment, a DOI's tallies.
      expect(pushed.pushed).toBe(11);
      expect(pushed.filesUp).toBe(1);

      await b.join(l, 'bob');
      const pulled = await b.engine.syncNow();
      expect(pulled.pulled).toBe(pushed.pushed);
      expect(pulled.filesDown).toBe(1);
      expect(snapshot(b.file)).toEqual(snapshot(a.file));
      const itemB = (await b.lib.listing.list({ query: 'paper1', limit: 5 })).rows[0]!;
      const detail = await b.lib.lib.getItem(itemB.id);
      expect(detail.tags.sort()).toEqual(['alpha', 'beta', 'to read']);
      expect(detail.evidence).toMatchObject({ state: 'found', supporting: 3, contrasting: 1, mentioning: 5 });
      // The file, content-addressed in B's own library folder, whole.
      const file = detail.attachments[0]!.path;
      expect(file.startsWith(b.dir)).toBe(true);
      expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(sha);
      // Search finds what arrived (the search index is written as for any edit).
      expect((await b.lib.listing.list({ query: 'section', limit: 5 })).rows.map((r) => r.citationKey)).toEqual([
        'editedKey2002',
      ]);
      expect(await serverCounts(l)).toMatchObject({
        item: 3,
        collection: 2,
        membership: 2,
        note: 1,
        saved_search: 1,
        attachment: 1,
        tallies: 1,
      });
      expect(integrity(a.file)).toEqual([]);
      expect(integrity(b.file)).toEqual([]);
    });

    it('merges edits of different fields silently, and keeps a same-field conflict on both sides until it is resolved', async () => {
      const [a, b] = await two();
      await a.join(l, 'alice');
      const [ia] = (await a.lib.importItems([paper(1)])).ids as [number];
      await a.engine.syncNow();
      await b.join(l, 'bob');
      await b.engine.syncNow();
      const ib = (await b.lib.listing.list({ limit: 1 })).rows[0]!.id;

      const edit = async (m: Machine, id: number, patch: Partial<CslItem>): Promise<void> =>
        m.lib.lib.updateItem(id, { ...(await m.lib.lib.getItem(id)).csl, ...patch });
      await edit(a, ia, { volume: '12' });
      await edit(b, ib, { issue: '4' });
      await a.lib.lib.addTags([ia], ['from-a']);
      await b.lib.lib.addTags([ib], ['from-b']);
      await syncAll(a, b);
      for (const [m, id] of [
        [a, ia],
        [b, ib],
      ] as const) {
        const d = await m.lib.lib.getItem(id);
        expect(d.csl).toMatchObject({ volume: '12', issue: '4' });
        expect(d.tags.sort()).toEqual(['from-a', 'from-b']);
        expect(await m.lib.sync.conflicts()).toEqual([]);
      }

      // The same field on both sides: each keeps its own value; the one who syncs second sees both.
      await edit(a, ia, { title: 'Title from A' });
      await edit(b, ib, { title: 'Title from B', page: '1-9' });
      await a.engine.syncNow();
      const report = await b.engine.syncNow();
      expect(report.conflicts).toBe(1);
      const [conflict] = await b.lib.sync.conflicts();
      expect(conflict).toMatchObject({
        kind: 'item',
        serverBy: 'alice',
        fields: [{ field: 'csl.title', local: 'Title from B', server: 'Title from A' }],
      });
      expect((await b.lib.lib.getItem(ib)).title).toBe('Title from B');
      await a.engine.syncNow();
      // B's other change went through; A still has its own title.
      expect(await a.lib.lib.getItem(ia)).toMatchObject({
        title: 'Title from A',
        csl: expect.objectContaining({ page: '1-9' }),
      });
      // A later change of the other field on the server keeps the conflict, with the newer value.
      await edit(a, ia, { title: 'Title from A, again' });
      await a.engine.syncNow();
      await b.engine.syncNow();
      expect((await b.lib.sync.conflicts())[0]!.fields[0]).toMatchObject({
        local: 'Title from B',
        server: 'Title from A, again',
      });
      expect((await b.lib.lib.getItem(ib)).title).toBe('Title from B');

      await b.lib.sync.resolve('item', conflict!.uid, { 'csl.title': 'local' });
      expect(await b.lib.sync.conflicts()).toEqual([]);
      await syncAll(b, a);
      expect((await a.lib.lib.getItem(ia)).title).toBe('Title from B');
      expect(snapshot(a.file)).toEqual(snapshot(b.file));
      expect((await b.engine.status()).pending).toBe(0);
    });

    it('keeps an edit against a delete, either way round, and says so', async () => {
      const [a, b] = await two();
      await a.join(l, 'alice');
      const [x, y] = (await a.lib.importItems([paper(1), paper(2)])).ids as [number, number];
      await a.engine.syncNow();
      await b.join(l, 'bob');
      await b.engine.syncNow();
      const bx = (await b.lib.listing.list({ query: 'paper1', limit: 1 })).rows[0]!.id;
      const by = (await b.lib.listing.list({ query: 'paper2', limit: 1 })).rows[0]!.id;

      // x: deleted for good on A, edited on B (B syncs second).
      await a.lib.lib.deleteItems([x]);
      await b.lib.lib.updateItem(bx, { ...(await b.lib.lib.getItem(bx)).csl, volume: '99' });
      // y: edited on A, deleted on B (B syncs second).
      await a.lib.lib.updateItem(y, { ...(await a.lib.lib.getItem(y)).csl, volume: '42' });
      await b.lib.lib.deleteItems([by]);
      await a.engine.syncNow();
      const report = await b.engine.syncNow();
      expect(report.notes.join('\n')).toMatch(
        /deleted on another machine \(by alice\) but changed here; your change was kept/,
      );
      expect(report.notes.join('\n')).toMatch(
        /deleted here but changed on another machine \(by alice\); the change was kept, so it is back/,
      );
      await a.engine.syncNow();
      for (const m of [a, b]) {
        const keys = (await m.lib.listing.list({ limit: 10 })).rows.map((r) => r.citationKey).sort();
        expect(keys).toEqual(['paper1', 'paper2']);
      }
      expect(snapshot(a.file)).toEqual(snapshot(b.file));
      expect((await b.lib.sync.log(10)).length).toBe(2);
    });

    it('gives a colliding citation key or collection name a free one, and says so', async () => {
      const [a, b] = await two();
      await a.join(l, 'alice');
      await b.join(l, 'bob');
      // Both machines add an item with the same key, and a collection with the same name, offline.
      await a.lib.importItems([paper(1, { title: 'From A' })]);
      await b.lib.importItems([paper(1, { title: 'From B' })]);
      // Names differing only in case collide too. Uids are random, so which of a pair gives way is
      // chance: eight pairs, spelt both ways round, make both outcomes (and both machines) certain.
      const pairs = Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0 ? [`Reading ${i}`, `reading ${i}`] : [`topic ${i}`, `Topic ${i}`],
      );
      for (const [onA, onB] of pairs) {
        await a.lib.lib.createCollection(onA!);
        await b.lib.lib.createCollection(onB!);
      }
      await syncAll(a, b);
      await syncAll(a, b);
      const keys = (await a.lib.listing.list({ limit: 10 })).rows.map((r) => r.citationKey).sort();
      expect(keys).toEqual(['paper1', 'paper1a']);
      // Of each pair, the one with the larger uid gave way, keeping its own spelling, the same on both machines.
      const names = (await a.lib.lib.listCollections()).map((c) => c.name);
      for (const [onA, onB] of pairs) {
        const pair = names.filter((n) => n.toLowerCase().startsWith(onA!.toLowerCase())).sort();
        expect([[onA!, `${onB!} (2)`].sort(), [`${onA!} (2)`, onB!].sort()]).toContainEqual(pair);
      }
      expect(snapshot(a.file)).toEqual(snapshot(b.file));
      const notes = [...(await a.lib.sync.log(10)), ...(await b.lib.sync.log(10))].map((e) => e.message).join('\n');
      expect(notes).toMatch(/citation key “paper1”/);
      expect(notes).toMatch(/Two collections were called/);
    });

    it('shares a merge of duplicates, and its undo', async () => {
      const [a, b] = await two();
      await a.join(l, 'alice');
      const [keep, dup] = (await a.lib.importItems([paper(1), paper(1, { 'citation-key': 'dup1', volume: '5' })]))
        .ids as [number, number];
      await a.lib.lib.addNote(dup, 'note on the duplicate');
      await a.engine.syncNow();
      await b.join(l, 'bob');
      await b.engine.syncNow();
      await a.lib.lib.mergeItems(keep, [dup]);
      await a.engine.syncNow();
      await b.engine.syncNow();
      const merged = (await b.lib.listing.list({ limit: 10 })).rows;
      expect(merged.map((r) => r.citationKey)).toEqual(['paper1']);
      const d = await b.lib.lib.getItem(merged[0]!.id);
      expect(d.keyAliases).toEqual(['dup1']);
      expect(d.notes.map((n) => n.text)).toEqual(['note on the duplicate']);
      expect(d.csl.volume).toBe('5');

      expect(await a.lib.lib.undo()).toMatch(/^Merge 2 items/);
      await a.engine.syncNow();
      await b.engine.syncNow();
      expect((await b.lib.listing.list({ limit: 10 })).rows.map((r) => r.citationKey).sort()).toEqual([
        'dup1',
        'paper1',
      ]);
      expect(snapshot(b.file)).toEqual(snapshot(a.file));
      expect(integrity(b.file)).toEqual([]);
    });

    it('fetches files on demand when not fetched ahead, and leaves files over the cap alone', async () => {
      const [a, b] = await two();
      await a.join(l, 'alice');
      const [id] = (await a.lib.importItems([paper(1)])).ids as [number];
      const small = Buffer.from('small file');
      const big = Buffer.alloc(3 * 1024 * 1024, 1);
      for (const [name, buf] of [
        ['small.txt', small],
        ['big.bin', big],
      ] as const) {
        writeFileSync(join(a.dir, name), buf);
        await a.lib.lib.addAttachment(id, {
          path: join(a.dir, name),
          sha256: createHash('sha256').update(buf).digest('hex'),
          size: buf.length,
        });
      }
      expect((await a.engine.syncNow()).filesUp).toBe(2);
      await b.join(l, 'bob');
      await b.lib.sync.setOptions({ fetchFilesAhead: false, maxFileBytes: 2 * 1024 * 1024 });
      await b.engine.syncNow();
      const itemB = (await b.lib.listing.list({ limit: 1 })).rows[0]!.id;
      const atts = (await b.lib.lib.getItem(itemB)).attachments;
      expect(atts.every((x) => !existsSync(x.path))).toBe(true);
      const smallAtt = atts.find((x) => x.size === small.length)!;
      const want = (await b.lib.sync.wantFile(smallAtt.id))!;
      expect(await b.engine.download(want.sha256, want.path!)).toBe(true);
      expect(readFileSync(smallAtt.path).toString()).toBe('small file');
      // Over the cap: never fetched, said so.
      const bigAtt = atts.find((x) => x.size === big.length)!;
      expect(await b.lib.sync.wantFile(bigAtt.id)).toBeNull();
      expect(existsSync(bigAtt.path)).toBe(false);
    });
  },
);
