// Issue 34, more faults and bad input: a malicious server answer (wrong types, huge rows, versions that
// go nowhere), a full disk on the client during a pull, clock skew between machines, and the same page
// applied twice. Nothing lost, nothing applied twice, integrity checked after each.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { openLibrary, type OpenedLibrary } from '../../../electron/core/library/open';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { SyncEngine, type SyncStoreClient } from '../../../electron/core/sync/engine';
import type { ServerRow } from '../../../electron/core/sync/types';
import { manyItems } from '../../helpers/many-items';
import { postgresAvailable, type TestPostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/tmp';
import { smallDisk, type SmallDisk } from '../faults/disk';
import { integrity, lab, machine, quiet, snapshot, startPostgres, type Lab, type Machine } from './helpers';

let server: TestPostgres;
let l: Lab | undefined;
const machines: Machine[] = [];
const cleanups: (() => void | Promise<void>)[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.remove();
});
afterEach(async () => {
  for (const m of machines.splice(0)) await m.remove();
  for (const c of cleanups.splice(0).reverse()) await c();
  await l?.close();
  l = undefined;
});

const itemDoc = (key: string, title: string): string =>
  JSON.stringify({
    key,
    'csl.type': 'book',
    'csl.title': title,
    dateAdded: 1,
    trashed: false,
    source: null,
    tags: [],
    aliases: [],
    edited: [],
  });

/** A "server" that answers the schema checks like a Citewise library and then sends the pages given. */
function hostile(pages: Record<string, unknown>[][]): pg.Client {
  let page = 0;
  const client = {
    on: () => client,
    end: async () => {},
    async query(text: string) {
      if (text.includes("to_regclass('citewise.schema_migrations')")) return { rows: [{ present: true }] };
      if (text.includes('FROM citewise.schema_migrations')) return { rows: [{ version: 2 }] };
      if (text.includes('FROM citewise.library')) return { rows: [{ id: 'aaaaaaaaaaaa', name: 'Hostile' }] };
      if (text.includes('my_role')) return { rows: [{ role: 'editor' }] };
      if (text.includes('FROM citewise.objects WHERE version > $1')) return { rows: pages[page++] ?? [] };
      return { rows: [] };
    },
  };
  return client as unknown as pg.Client;
}

describe.skipIf(!postgresAvailable())(
  'sync against hostile answers, a full disk and skewed clocks',
  { timeout: 600_000 },
  () => {
    it("refuses a malicious server's rows one by one (wrong types, huge, unparsable) and applies the good ones", async () => {
      const huge = 'x'.repeat(6 * 1024 * 1024);
      const pages = [
        [
          {
            kind: 'item',
            uid: 'good1',
            version: 5,
            deleted: false,
            data: itemDoc('good1', 'Good one'),
            modified_by: 'm',
            modified_at: 1,
          },
          {
            kind: 'item',
            uid: 'strver',
            version: '7',
            deleted: false,
            data: itemDoc('x1', 'X'),
            modified_by: 'm',
            modified_at: 1,
          },
          { kind: 42, uid: 'numkind', version: 8, deleted: false, data: '{}', modified_by: 'm', modified_at: 1 },
          { kind: 'item', uid: { a: 1 }, version: 9, deleted: false, data: '{}', modified_by: 'm', modified_at: 1 },
          { kind: 'item', uid: 'delyes', version: 10, deleted: 'yes', data: null, modified_by: 'm', modified_at: 1 },
          { kind: 'item', uid: 'numdata', version: 11, deleted: false, data: 123, modified_by: 'm', modified_at: 1 },
          {
            kind: 'item',
            uid: 'badjson',
            version: 12,
            deleted: false,
            data: '{"key":',
            modified_by: 'm',
            modified_at: 1,
          },
          { kind: 'item', uid: 'array', version: 13, deleted: false, data: '[1,2]', modified_by: 'm', modified_at: 1 },
          {
            kind: 'item',
            uid: 'huge',
            version: 14,
            deleted: false,
            data: `{"key":"${huge}"}`,
            modified_by: 'm',
            modified_at: 1,
          },
          {
            kind: 'item',
            uid: 'negative',
            version: -3,
            deleted: false,
            data: itemDoc('neg', 'N'),
            modified_by: 'm',
            modified_at: 1,
          },
          {
            kind: 'item',
            uid: 'good2',
            version: 15,
            deleted: false,
            data: itemDoc('good2', 'Good two'),
            modified_by: { x: 1 },
            modified_at: 'never',
          },
        ],
        // Then a page whose versions go nowhere: sync stops rather than loop or apply it.
        [
          {
            kind: 'item',
            uid: 'again',
            version: 'NaN',
            deleted: false,
            data: itemDoc('again', 'A'),
            modified_by: 'm',
            modified_at: 1,
          },
        ],
      ];
      const m = await machine('victim', { connect: async () => hostile(pages) });
      machines.push(m);
      await m.engine.connect('postgresql://victim@127.0.0.1:1/hostile', 'pw', { start: false });
      // A page shorter than a full one is the last: the first sync applies it, the next meets the bad page.
      const first = await m.engine.syncNow();
      expect(first.pulled).toBe(2);
      expect(first.rejected).toHaveLength(9);
      const failure = await m.engine.syncNow().catch((err: Error) => err);
      expect(failure).toMatchObject({
        code: 'SERVICE_ERROR',
        message: expect.stringMatching(/rows that have no valid versions/),
      });
      expect((await m.engine.status()).phase).toBe('error');
      // The first page: 2 applied, 9 refused, each with its reason; the cursor at its last valid version.
      const keys = (await m.lib.listing.list({ limit: 10 })).rows.map((r) => r.citationKey).sort();
      expect(keys).toEqual(['good1', 'good2']);
      expect(await m.lib.sync.cursor()).toBe(15);
      expect(integrity(m.file)).toEqual([]);
    });

    it('refuses a row too large to take, from a real server, without downloading it, and goes on', async () => {
      l = await lab(server);
      await l.member('bob');
      // A superuser bypasses the size check a member's write gets.
      await l.admin.query('ALTER TABLE citewise.objects DISABLE TRIGGER objects_stamp');
      await l.admin.query(
        `INSERT INTO citewise.objects (kind, uid, version, data, modified_by, modified_at) VALUES
        ('item', 'big', nextval('citewise.version_seq'), jsonb_build_object('key', 'big', 'pad', repeat('x', 6000000)), 'root', now()),
        ('item', 'ok', nextval('citewise.version_seq'), $1::jsonb, 'root', now())`,
        [itemDoc('ok', 'Fine')],
      );
      await l.admin.query('ALTER TABLE citewise.objects ENABLE TRIGGER objects_stamp');
      const b = await machine('b');
      machines.push(b);
      await b.join(l, 'bob');
      const report = await b.engine.syncNow();
      expect(report.rejected).toEqual([
        { kind: 'item', uid: 'big', reason: 'its fields are too large for this replica' },
      ]);
      expect((await b.lib.listing.list({ limit: 5 })).rows.map((r) => r.citationKey)).toEqual(['ok']);
      expect(integrity(b.file)).toEqual([]);
    });

    it('applies a page given twice once: the second time every row is skipped', async () => {
      l = await lab(server);
      await l.member('alice');
      await l.member('bob');
      const a = await machine('a');
      const b = await machine('b');
      machines.push(a, b);
      await a.join(l, 'alice');
      await b.join(l, 'bob');
      await a.lib.importItems(manyItems(300));
      await a.engine.syncNow();
      const rows = (
        await l.admin.query<{
          kind: string;
          uid: string;
          version: string;
          deleted: boolean;
          data: unknown;
          modified_by: string;
        }>('SELECT kind, uid, version, deleted, data::text AS data, modified_by FROM citewise.objects ORDER BY version')
      ).rows.map((r): ServerRow => ({
        kind: r.kind,
        uid: r.uid,
        version: Number(r.version),
        deleted: r.deleted,
        data: r.data as string,
        modifiedBy: r.modified_by,
        modifiedAt: 0,
      }));
      const first = await b.lib.sync.applyPull(rows, rows[rows.length - 1]!.version);
      const before = snapshot(b.file);
      const second = await b.lib.sync.applyPull(rows, rows[rows.length - 1]!.version);
      expect([first.applied, first.skipped]).toEqual([300, 0]);
      expect([second.applied, second.skipped]).toEqual([0, 300]);
      expect(snapshot(b.file)).toEqual(before);
      expect(snapshot(b.file)).toEqual(snapshot(a.file));
    });

    it('survives a full disk during a pull: the pages that fit stay, the rest arrives once there is room', async () => {
      l = await lab(server);
      await l.member('alice');
      await l.member('bob');
      const a = await machine('a');
      machines.push(a);
      await a.join(l, 'alice');
      await a.lib.importItems(manyItems(20_000));
      const [first] = (await a.lib.listing.list({ limit: 1 })).rows;
      const content = Buffer.alloc(1024 * 1024, 3);
      writeFileSync(join(a.dir, 'scan.pdf'), content);
      await a.lib.lib.addAttachment(first!.id, {
        path: join(a.dir, 'scan.pdf'),
        sha256: createHash('sha256').update(content).digest('hex'),
        size: content.length,
      });
      await a.engine.syncNow();

      const disk: SmallDisk = smallDisk(96 * 1024 * 1024);
      cleanups.push(() => disk.remove());
      let b = await machine('b', {}, disk.dataDir);
      await b.join(l, 'bob');
      const secrets = b.secrets;
      if (disk.kind === 'tmpfs') {
        // A real full disk, filled while the library is open (its -shm file exists, as in the app).
        machines.push(b);
        disk.fill(b.file);
      } else {
        await b.close();
        disk.fill(b.file);
        b = await machine('b', { secrets }, disk.dataDir, { maxPageCount: disk.maxPageCount() });
        machines.push(b);
      }
      const failure = await b.engine.syncNow().catch((err: Error) => err);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(/disk is full|full|space/i);
      expect((await b.engine.status()).phase).toBe('error');
      const cursor = await b.lib.sync.cursor();
      expect(integrity(b.file)).toEqual([]);
      expect((await b.lib.listing.count({})) < 20_000).toBe(true);

      disk.free();
      await b.close();
      b = await machine('b', { secrets }, disk.dataDir);
      machines.push(b);
      const report = await b.engine.syncNow();
      expect(report.pulled).toBeGreaterThan(0);
      expect(await b.lib.sync.cursor()).toBeGreaterThan(cursor);
      expect(integrity(b.file)).toEqual([]);
      expect(snapshot(b.file)).toEqual(snapshot(a.file));
      expect((await b.engine.status()).files.failed).toBe(0);
    });
  },
);

/**
 * A machine whose library runs in this thread with a clock of its own (the library worker uses the
 * system's), its store reached as the worker's would be: each call's arguments and answer cloned.
 */
function skewedMachine(
  name: string,
  offsetMs: number,
): { opened: OpenedLibrary; engine: SyncEngine; dispose(): Promise<void> } {
  const dir = tempDir(`citewise-${name}-`);
  const opened = openLibrary(join(dir.path, 'citewise.sqlite'), {
    now: () => Date.now() + offsetMs,
    durability: 'off',
  });
  const store = new Proxy({} as SyncStoreClient, {
    get:
      (_t, method: string) =>
      async (...args: unknown[]) => {
        const fn = (opened.sync as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!;
        return structuredClone(fn.apply(opened.sync, structuredClone(args)));
      },
  });
  const engine = new SyncEngine({
    store,
    secrets: createMemorySecretStore(),
    logger: quiet,
    timing: { pollMs: 3_600_000 },
  });
  return {
    opened,
    engine,
    async dispose() {
      await engine.close();
      opened.close();
      dir.remove();
    },
  };
}

describe.skipIf(!postgresAvailable())('clock skew', { timeout: 240_000 }, () => {
  it("decides by the server's versions, never by the machines' clocks (one 3 days ahead, one 2 hours behind)", async () => {
    l = await lab(server);
    await l.member('alice');
    await l.member('bob');
    const ahead = skewedMachine('ahead', 3 * 86_400_000);
    const behind = skewedMachine('behind', -2 * 3_600_000);
    cleanups.push(
      () => ahead.dispose(),
      () => behind.dispose(),
    );
    await ahead.engine.connect(l.url('alice'), 'pw-alice', { start: false });
    await behind.engine.connect(l.url('bob'), 'pw-bob', { start: false });
    const A = ahead.opened.library;
    const B = behind.opened.library;
    const id = A.addItem({ type: 'article-journal', title: 'Original', 'citation-key': 'skew1' } as CslItem);
    await ahead.engine.syncNow();
    await behind.engine.syncNow();
    const bid = B.findByCitationKey('skew1')!;
    // B edits after A, with a clock that says long before: B's edit is the later one, and wins.
    B.updateItem(bid, { ...B.getItem(bid).csl, title: 'Edited later, on a slow clock' });
    await behind.engine.syncNow();
    await ahead.engine.syncNow();
    expect(A.getItem(id).title).toBe('Edited later, on a slow clock');
    // Both change the same field before syncing: a conflict, whoever's clock is ahead.
    A.updateItem(id, { ...A.getItem(id).csl, title: 'A, three days ahead' });
    B.updateItem(bid, { ...B.getItem(bid).csl, title: 'B, two hours behind' });
    await ahead.engine.syncNow();
    expect((await behind.engine.syncNow()).conflicts).toBe(1);
    expect(B.getItem(bid).title).toBe('B, two hours behind');
    expect(A.getItem(id).title).toBe('A, three days ahead');
    // The date an item was added is the adding machine's, everywhere.
    expect(B.getItem(bid).dateAdded).toBe(A.getItem(id).dateAdded);
    expect(A.getItem(id).dateAdded).toBeGreaterThan(Date.now() + 86_400_000);
  });
});
