// A first sync into an empty library is a bulk load (store.ts, BULK_FIRST_SYNC_ROWS): the items' sort
// indexes are dropped at its first page and built once when the pull ends, or when the library opens
// after a first sync cut short. And the sync's own rows in the library file (sync_objects.base,
// sync_conflicts, sync_parked) are read through the stored-JSON checker: a damaged one is an error
// naming its object, or, for a parked row, a reason in the parked list, never a bare SyntaxError.
// Rows are taken from a real PostgreSQL, as the server wrote them.
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BULK_FIRST_SYNC_ROWS } from '../../../electron/core/sync/store';
import type { ServerRow } from '../../../electron/core/sync/types';
import { manyItems } from '../../helpers/many-items';
import { postgresAvailable, startPostgres, type TestPostgres } from '../../helpers/postgres';
import { integrity, lab, machine, snapshot, type Lab, type Machine } from './helpers';

/** The sort indexes a bulk first sync defers (import-session.ts's, without items_doi and item_origins'). */
const DEFERRED = [
  'items_by_container',
  'items_by_creators',
  'items_by_extra',
  'items_by_pages',
  'items_by_publisher',
  'items_by_title',
  'items_filter',
];

let server: TestPostgres;
let l: Lab;
let rows: ServerRow[];
const machines: Machine[] = [];

beforeAll(async () => {
  server = await startPostgres();
  l = await lab(server);
  await l.member('alice');
  await l.member('bob');
  const a = await machine('alice');
  machines.push(a);
  await a.join(l, 'alice');
  await a.lib.importItems(manyItems(BULK_FIRST_SYNC_ROWS + 1));
  await a.engine.syncNow();
  rows = (
    await l.admin.query<{ kind: string; uid: string; version: string; deleted: boolean; data: string }>(
      `SELECT kind, uid, version, deleted, data::text AS data, modified_by FROM citewise.objects ORDER BY version`,
    )
  ).rows.map((r) => ({
    kind: r.kind,
    uid: r.uid,
    version: Number(r.version),
    deleted: r.deleted,
    data: r.data,
    modifiedBy: 'alice',
    modifiedAt: 0,
  }));
}, 240_000);
afterAll(async () => {
  for (const m of machines.splice(0)) await m.remove();
  await l?.close();
  await server?.remove();
});
afterEach(async () => {
  for (const m of machines.splice(1)) await m.remove();
});

function indexes(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'items' ORDER BY name")
        .pluck()
        .all() as string[]
    ).filter((n) => DEFERRED.includes(n));
  } finally {
    db.close();
  }
}

function pendingRebuild(file: string): string | undefined {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT value FROM sync_state WHERE key = 'deferredIndexes'").pluck().get() as string | undefined;
  } finally {
    db.close();
  }
}

async function empty(name: string): Promise<Machine> {
  const m = await machine(name);
  machines.push(m);
  await m.join(l, 'bob');
  return m;
}

function edit(file: string, statement: string, ...params: unknown[]): void {
  const db = new Database(file);
  try {
    db.prepare(statement).run(...params);
  } finally {
    db.close();
  }
}

describe.skipIf(!postgresAvailable())('a first sync into an empty library', { timeout: 300_000 }, () => {
  it('keeps the sort indexes for a first page below the threshold', async () => {
    const b = await empty('below');
    const page = rows.slice(0, BULK_FIRST_SYNC_ROWS - 1);
    await b.lib.sync.applyPull(page, page.at(-1)!.version);
    expect(pendingRebuild(b.file)).toBeUndefined();
    expect(indexes(b.file)).toEqual(DEFERRED);
  });

  it('defers them from a first page at the threshold and above, and builds them when the pull ends', async () => {
    for (const size of [BULK_FIRST_SYNC_ROWS, BULK_FIRST_SYNC_ROWS + 1]) {
      const b = await empty(`at-${size}`);
      const page = rows.slice(0, size);
      await b.lib.sync.applyPull(page, page.at(-1)!.version);
      expect(indexes(b.file)).toEqual([]);
      expect(JSON.parse(pendingRebuild(b.file)!)).toHaveLength(DEFERRED.length);
      expect(await b.lib.sync.finishPull()).toEqual({ rebuilt: DEFERRED.length });
      expect(indexes(b.file)).toEqual(DEFERRED);
      expect(pendingRebuild(b.file)).toBeUndefined();
      expect(integrity(b.file)).toEqual([]);
      expect(await b.lib.listing.count({})).toBe(size);
      // A second call has nothing to do.
      expect(await b.lib.sync.finishPull()).toEqual({ rebuilt: 0 });
    }
  });

  it('defers nothing in a library that has items, or after the first page', async () => {
    const b = await empty('has-items');
    await b.lib.importItems(manyItems(1));
    await b.lib.sync.applyPull(rows, rows.at(-1)!.version);
    expect(pendingRebuild(b.file)).toBeUndefined();
    expect(indexes(b.file)).toEqual(DEFERRED);

    const c = await empty('second-page');
    await c.lib.sync.applyPull(rows.slice(0, 10), rows[9]!.version);
    await c.lib.sync.applyPull(rows.slice(10), rows.at(-1)!.version);
    expect(pendingRebuild(c.file)).toBeUndefined();
    expect(indexes(c.file)).toEqual(DEFERRED);
  });

  it('builds them when the library opens after a first sync cut short, then the sync ends as the others', async () => {
    const b = await empty('cut');
    const page = rows.slice(0, BULK_FIRST_SYNC_ROWS);
    await b.lib.sync.applyPull(page, page.at(-1)!.version);
    expect(indexes(b.file)).toEqual([]);
    // As after kill -9 between two pages: the first page committed, the pull never ended.
    await b.close();
    const again = await machine('cut', { secrets: b.secrets }, b.dir);
    machines.push(again);
    expect(indexes(again.file)).toEqual(DEFERRED);
    expect(pendingRebuild(again.file)).toBeUndefined();
    const report = await again.engine.syncNow();
    expect(report.pulled).toBe(rows.length - BULK_FIRST_SYNC_ROWS);
    expect(integrity(again.file)).toEqual([]);
    expect(snapshot(again.file)).toEqual(snapshot(machines[0]!.file));
  });

  it('writes each new item once: its date added and import source go in with its row', async () => {
    const b = await empty('once');
    // Every later write of an item's row is counted, by a trigger of the test's own.
    edit(b.file, 'CREATE TABLE test_item_writes (id INTEGER)');
    edit(
      b.file,
      'CREATE TRIGGER test_item_written AFTER UPDATE ON items BEGIN INSERT INTO test_item_writes VALUES (new.id); END',
    );
    // The server's rows as another member wrote them, each with its own date and source; one in the Trash.
    const page = rows.slice(0, BULK_FIRST_SYNC_ROWS).map((r, i) => ({
      ...r,
      data: JSON.stringify({
        ...(JSON.parse(r.data!) as Record<string, unknown>),
        dateAdded: 1_600_000_000_000 + i * 1000,
        source: `shelf-${i % 7}.bib`,
        trashed: i === 3,
      }),
    }));
    const summary = await b.lib.sync.applyPull(page, page.at(-1)!.version);
    expect(summary.applied).toBe(page.length);
    await b.lib.sync.finishPull();
    const db = new Database(b.file);
    try {
      const got = db
        .prepare(
          'SELECT citation_key AS key, date_added AS added, source, trashed_at IS NOT NULL AS trashed FROM items',
        )
        .all() as { key: string; added: number; source: string; trashed: number }[];
      const want = page.map((r, i) => ({
        key: (JSON.parse(r.data) as { key: string }).key,
        added: 1_600_000_000_000 + i * 1000,
        source: `shelf-${i % 7}.bib`,
        trashed: i === 3 ? 1 : 0,
      }));
      const byKey = (a: { key: string }, c: { key: string }): number => a.key.localeCompare(c.key);
      expect(got.sort(byKey)).toEqual(want.sort(byKey));
      // Only the item in the Trash was written again (its trashed_at); the others once, by the insert.
      expect(db.prepare('SELECT count(*) FROM test_item_writes').pluck().get()).toBe(1);
      db.exec('DROP TRIGGER test_item_written; DROP TABLE test_item_writes');
    } finally {
      db.close();
    }
    expect(integrity(b.file)).toEqual([]);
  });

  it('refuses to run a damaged record of the indexes to build, and says what it is', async () => {
    const b = await empty('bad-record');
    const page = rows.slice(0, BULK_FIRST_SYNC_ROWS);
    await b.lib.sync.applyPull(page, page.at(-1)!.version);
    await b.close();
    edit(
      b.file,
      "UPDATE sync_state SET value = ? WHERE key = 'deferredIndexes'",
      JSON.stringify(['CREATE INDEX items_by_title ON items(title_sort); DROP TABLE items']),
    );
    const again = await machine('bad-record', { secrets: b.secrets }, b.dir);
    machines.push(again);
    await expect(again.lib.sync.finishPull()).rejects.toThrow(
      /The sync record of the indexes to rebuild after a first sync is damaged/,
    );
    expect(await again.lib.listing.count({})).toBe(BULK_FIRST_SYNC_ROWS);
  });
});

describe.skipIf(!postgresAvailable())('damaged sync rows in the library file', { timeout: 300_000 }, () => {
  it("names the object whose sync record (the server's last document) is damaged", async () => {
    const b = await empty('base');
    const page = rows.slice(0, 20);
    await b.lib.sync.applyPull(page, page.at(-1)!.version);
    const uid = page[3]!.uid;
    await b.close();
    edit(b.file, "UPDATE sync_objects SET base = '{\"key\": ' WHERE kind = 'item' AND uid = ?", uid);
    edit(b.file, "UPDATE sync_objects SET base = '[1, 2]' WHERE kind = 'item' AND uid = ?", page[4]!.uid);
    const again = await machine('base', { secrets: b.secrets }, b.dir);
    machines.push(again);
    // An edit of the first makes the push read its record.
    const db = new Database(again.file, { readonly: true });
    const localId = db
      .prepare("SELECT local_id FROM sync_objects WHERE kind = 'item' AND uid = ?")
      .pluck()
      .get(uid) as number;
    db.close();
    const item = await again.lib.lib.getItem(localId);
    await again.lib.lib.updateItem(localId, { ...item.csl, volume: '99' });
    await expect(again.lib.sync.preparePush(1000)).rejects.toThrow(
      new RegExp(`The sync record of item ${uid} is damaged in the library file \\(not JSON`),
    );
    // And the server's next version of the second, pulled, says its record is not a document.
    const next = { ...page[4]!, version: rows.at(-1)!.version + 1 };
    await expect(again.lib.sync.applyPull([next], next.version)).rejects.toThrow(
      new RegExp(`The sync record of item ${page[4]!.uid} is damaged in the library file \\(an object was expected`),
    );
  });

  it('names the field of a conflict whose stored value is damaged', async () => {
    const b = await empty('conflict');
    const page = rows.slice(0, 5);
    await b.lib.sync.applyPull(page, page.at(-1)!.version);
    await b.close();
    edit(
      b.file,
      `INSERT INTO sync_conflicts (kind, uid, field, local_value, server_value, server_version, server_by, detected_at)
       VALUES ('item', ?, 'csl.volume', '"12"', '{"unfinished', 1, 'alice', 0)`,
      page[0]!.uid,
    );
    const again = await machine('conflict', { secrets: b.secrets }, b.dir);
    machines.push(again);
    await expect(again.lib.sync.conflicts()).rejects.toThrow(
      /The server value of the field “csl\.volume” in conflict for “.*” \(.*\) is damaged in the library file \(not JSON/,
    );
    await expect(again.lib.sync.resolve('item', page[0]!.uid, { 'csl.volume': 'server' })).rejects.toThrow(
      /The server value of the field “csl\.volume” in conflict for “.*” \(.*\) is damaged in the library file \(not JSON/,
    );
  });

  it('keeps a damaged parked row parked with why, and applies the rest of the page', async () => {
    const b = await empty('parked');
    await b.close();
    edit(
      b.file,
      `INSERT INTO sync_parked (kind, uid, version, deleted, data, modified_by, reason)
       VALUES ('note', 'n-1', 1, 0, '{"item": "x", "body": ', 'alice', 'waiting for item x')`,
    );
    const again = await machine('parked', { secrets: b.secrets }, b.dir);
    machines.push(again);
    const page = rows.slice(0, 30);
    const summary = await again.lib.sync.applyPull(page, page.at(-1)!.version);
    expect(summary.applied).toBe(30);
    expect(await again.lib.sync.parked()).toEqual([
      { kind: 'note', uid: 'n-1', version: 1, reason: 'damaged in the library file: its fields are not JSON' },
    ]);
  });
});
