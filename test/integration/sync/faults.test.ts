// Issue 34, faults and bad input, with counts: three clients editing 10,000 items at once; two machines
// editing offline then reconnecting; kill -9 of a client mid-push and mid-pull; kill -9 of the server
// mid-transaction; the server stopped mid-push; the connection dropped mid-pull. Nothing lost, nothing
// applied twice (no duplicate, every object at the server's version), integrity checked after each.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, Socket, type Server } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { manyItems } from '../../helpers/many-items';
import { postgresAvailable, type TestPostgres } from '../../helpers/postgres';
import {
  integrity,
  lab,
  machine,
  serverCounts,
  snapshot,
  startPostgres,
  until,
  type Lab,
  type Machine,
} from './helpers';

const ROOT = join(__dirname, '..', '..', '..');

let server: TestPostgres;
let l: Lab;
const machines: Machine[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.remove();
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const m of machines.splice(0)) await m.remove();
  await l?.close();
});

async function fresh(...logins: string[]): Promise<Machine[]> {
  l = await lab(server);
  const out: Machine[] = [];
  for (const login of logins) {
    await l.member(login);
    const m = await machine(login);
    machines.push(m);
    await m.join(l, login);
    out.push(m);
  }
  return out;
}

/** Syncs every machine in turn until none pulls or pushes anything more. */
async function settle(...ms: Machine[]): Promise<void> {
  for (let round = 0; round < 10; round++) {
    let moved = 0;
    for (const m of ms) {
      const r = await m.engine.syncNow();
      moved += r.pulled + r.pushed;
    }
    if (moved === 0) return;
  }
  throw new Error('the machines did not settle in 10 rounds');
}

/** Every machine equal to the first, each sound, nothing waiting, every local object at the server's version. */
async function converged(ms: Machine[], items: number): Promise<void> {
  const first = snapshot(ms[0]!.file);
  expect(Object.keys(first).filter((k) => k.startsWith('item ')).length).toBe(items);
  const indexes = indexesOf(ms[0]!.file);
  for (const m of ms) {
    expect(integrity(m.file)).toEqual([]);
    // A bulk first sync's deferred sort indexes are built again, even after a fault.
    expect(indexesOf(m.file)).toEqual(indexes);
    expect(snapshot(m.file)).toEqual(first);
    expect((await m.engine.status()).pending).toBe(0);
    expect(await versionsBehind(m)).toBe(0);
  }
  expect((await serverCounts(l)).item).toBe(items);
}

/** Objects whose local version is not the server's (a change applied twice, or missed, shows here). */
async function versionsBehind(m: Machine): Promise<number> {
  const server = new Map(
    (
      await l.admin.query<{ kind: string; uid: string; version: string }>(
        'SELECT kind, uid, version FROM citewise.objects',
      )
    ).rows.map((r) => [`${r.kind} ${r.uid}`, Number(r.version)]),
  );
  const db = new Database(m.file, { readonly: true });
  try {
    const local = db.prepare('SELECT kind, uid, version FROM sync_objects WHERE version > 0').all() as {
      kind: string;
      uid: string;
      version: number;
    }[];
    return local.filter((o) => server.get(`${o.kind} ${o.uid}`) !== o.version).length;
  } finally {
    db.close();
  }
}

async function edit(m: Machine, id: number, patch: Partial<CslItem>): Promise<void> {
  await m.lib.lib.updateItem(id, { ...(await m.lib.lib.getItem(id)).csl, ...patch });
}

async function idsOf(m: Machine): Promise<number[]> {
  return m.lib.listing.idsOf({});
}

function cli(dataDir: string, password: string, ...args: string[]): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'electron', 'cli', 'index.ts'), '--data-dir', dataDir, ...args],
    {
      cwd: ROOT,
      env: { ...process.env, CITEWISE_SYNC_PASSWORD: password },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The library's indexes, and whether a first sync still has some to build. */
function indexesOf(file: string): { names: string[]; pending: boolean } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      names: db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name").pluck().all() as string[],
      pending: db.prepare("SELECT 1 FROM sync_state WHERE key = 'deferredIndexes'").get() !== undefined,
    };
  } finally {
    db.close();
  }
}

function cursorOf(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return Number(
      (db.prepare("SELECT value FROM sync_state WHERE key = 'cursor'").pluck().get() as string | undefined) ?? 0,
    );
  } finally {
    db.close();
  }
}

/** A TCP relay to the server that can cut every connection (a network drop) after some bytes from the server. */
async function relay(
  port: number,
): Promise<{ port: number; cutAfter(bytes: number | null): void; close(): Promise<void> }> {
  let limit: number | null = null;
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    let fromServer = 0;
    upstream.connect(port, '127.0.0.1');
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => {
      fromServer += d.length;
      if (limit !== null && fromServer > limit) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(d);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  return {
    port: (proxy.address() as { port: number }).port,
    cutAfter(bytes) {
      limit = bytes;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => r());
      }),
  };
}

describe.skipIf(!postgresAvailable())('sync under faults', { timeout: 600_000 }, () => {
  it('three clients editing 10,000 items at once converge, with exactly the 500 same-field edits in conflict', async () => {
    const [a, b, c] = (await fresh('alice', 'bob', 'carol')) as [Machine, Machine, Machine];
    await a.lib.importItems(manyItems(10_000));
    await a.engine.syncNow();
    await b.engine.syncNow();
    await c.engine.syncNow();
    const [ia, ib, ic] = [await idsOf(a), await idsOf(b), await idsOf(c)];
    expect([ia.length, ib.length, ic.length]).toEqual([10_000, 10_000, 10_000]);
    // Ids differ per machine; the n-th item by date added and id is the same item everywhere.
    const coll = await b.lib.lib.createCollection('Everything');
    // Before either syncs, A and C change the volume of the same 500 items: those are conflicts.
    for (let n = 0; n < 500; n++) await edit(a, ia[n]!, { volume: `A${n}` });
    for (let n = 0; n < 500; n++) await edit(c, ic[n]!, { volume: `C${n}` });
    // Then all three at once, with their sync loops running: a tag on all 10,000 (A), all 10,000 into a
    // collection (B), a tag on all 10,000 (C), the issue of 1,000 items (B), the volume of 500 more (A).
    for (const m of [a, b, c]) m.engine.start();
    await Promise.all([
      (async () => {
        await a.lib.lib.addTags(ia, ['from-a']);
        for (let n = 500; n < 1000; n++) await edit(a, ia[n]!, { volume: `A${n}` });
      })(),
      (async () => {
        await b.lib.lib.addToCollection(coll, ib);
        for (let n = 5000; n < 6000; n++) await edit(b, ib[n]!, { issue: `B${n}` });
      })(),
      (async () => {
        await c.lib.lib.addTags(ic, ['from-c']);
      })(),
    ]);
    for (const m of [a, b, c]) await m.engine.stop();
    await settle(a, b, c);
    const conflicts = [
      ...(await a.lib.sync.conflicts()),
      ...(await b.lib.sync.conflicts()),
      ...(await c.lib.sync.conflicts()),
    ];
    expect(conflicts).toHaveLength(500);
    expect(conflicts.every((x) => x.fields.length === 1 && x.fields[0]!.field === 'csl.volume')).toBe(true);
    // Each machine keeps its own value until someone chooses; resolving keeps the server's here.
    for (const m of [a, c])
      for (const x of await m.lib.sync.conflicts())
        await m.lib.sync.resolve(x.kind, x.uid, { [x.fields[0]!.field]: 'server' });
    await settle(a, b, c);
    await converged([a, b, c], 10_000);
    const snap = snapshot(a.file) as Record<string, { tags: string[]; collections: string[]; csl: CslItem }>;
    const items = Object.values(snap).filter((v) => v && typeof v === 'object' && 'csl' in v);
    expect(items.filter((i) => i.tags.join() === 'from-a,from-c')).toHaveLength(10_000);
    expect(items.filter((i) => i.collections.join() === 'Everything')).toHaveLength(10_000);
    expect(items.filter((i) => typeof i.csl.volume === 'string' && /^[AC]\d+$/.test(i.csl.volume))).toHaveLength(1000);
    expect(items.filter((i) => typeof i.csl.issue === 'string' && i.csl.issue.startsWith('B'))).toHaveLength(1000);
  });

  it('three clients: different fields merge, a same-field edit conflicts only where it must, an offline client catches up, through pg_ctl restart and pg_terminate_backend', async () => {
    const [a, b, c] = (await fresh('alice', 'bob', 'carol')) as [Machine, Machine, Machine];
    await a.lib.importItems(manyItems(3000));
    await settle(a, b, c);
    const [ia, ib, ic] = [await idsOf(a), await idsOf(b), await idsOf(c)];
    // Carol goes offline (her engine stopped, her connection gone with the restart below) and edits:
    // a note on 100 items and a tag on 200.
    await c.engine.stop();
    for (let n = 0; n < 100; n++) await edit(c, ic[n]!, { note: `carol ${n}` });
    await c.lib.lib.addTags(ic.slice(0, 200), ['offline']);
    // Alice and Bob change different fields of the same 300 items: those merge.
    for (let n = 0; n < 300; n++) await edit(a, ia[n]!, { volume: `A${n}` });
    for (let n = 0; n < 300; n++) await edit(b, ib[n]!, { issue: `B${n}` });
    // And the same field of 50 others: Alice syncs first, so Bob alone must see those conflicts.
    for (let n = 300; n < 350; n++) await edit(a, ia[n]!, { page: `A${n}` });
    for (let n = 300; n < 350; n++) await edit(b, ib[n]!, { page: `B${n}` });
    await a.engine.syncNow();
    // Alice tags everything (3,000 objects, three push transactions); the server restarts mid-push.
    await a.lib.lib.addTags(ia, ['restart']);
    const pushing = a.engine.syncNow().then(
      () => 'done',
      (err: Error) => err.message,
    );
    await until(
      'part of the push is on the server',
      async () =>
        Number(
          (
            await l.admin
              .query("SELECT count(*) AS n FROM citewise.objects WHERE data->'tags' ? 'restart'")
              .catch(() => ({ rows: [{ n: 0 }] }))
          ).rows[0]!.n,
        ) > 0,
      120_000,
    );
    await l.admin.end().catch(() => {});
    await server.restart();
    l.admin = await server.client(l.database);
    const outcome = await pushing;
    expect(outcome === 'done' || /terminat|shut|cannot be reached|Connection/i.test(outcome)).toBe(true);
    // Bob's sync connection is ended by the server mid-pull (an admin's pg_terminate_backend).
    b.engine.start();
    await until('Bob is connected', async () => (await b.engine.status()).phase === 'idle', 60_000);
    await l.admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'citewise sync' AND usename = 'bob'",
    );
    await b.engine.stop();
    await settle(a, b);
    expect((await a.lib.sync.conflicts()).length).toBe(0);
    const bConflicts = await b.lib.sync.conflicts();
    expect(bConflicts).toHaveLength(50);
    expect(bConflicts.every((x) => x.fields.length === 1 && x.fields[0]!.field === 'csl.page')).toBe(true);
    // Carol reconnects: her offline edits go up, everything else comes down, and she has no conflict.
    await settle(c, a, b);
    expect((await c.lib.sync.conflicts()).length).toBe(0);
    expect((await a.lib.sync.conflicts()).length).toBe(0);
    for (const x of bConflicts) await b.lib.sync.resolve(x.kind, x.uid, { 'csl.page': 'local' });
    await settle(a, b, c);
    await converged([a, b, c], 3000);
    const items = Object.values(snapshot(c.file)).filter(
      (v): v is { tags: string[]; csl: CslItem } => !!v && typeof v === 'object' && 'csl' in v,
    );
    expect(items.filter((i) => /^A\d+$/.test(String(i.csl.volume)) && /^B\d+$/.test(String(i.csl.issue)))).toHaveLength(
      300,
    );
    expect(items.filter((i) => /^B3\d\d$/.test(String(i.csl.page)))).toHaveLength(50);
    expect(items.filter((i) => /^carol \d+$/.test(String(i.csl.note)))).toHaveLength(100);
    expect(items.filter((i) => i.tags.includes('offline'))).toHaveLength(200);
    expect(items.filter((i) => i.tags.includes('restart'))).toHaveLength(3000);
    // Every object once on the server, every version once.
    const dup = await l.admin.query(
      'SELECT version FROM citewise.objects GROUP BY version HAVING count(*) > 1 UNION ALL SELECT 0 FROM citewise.objects GROUP BY kind, uid HAVING count(*) > 1',
    );
    expect(dup.rows).toEqual([]);
  });

  it('two machines editing offline (server stopped) sync when it is back: 200 edits each, 50 of them on the same field', async () => {
    const [a, b] = (await fresh('alice', 'bob')) as [Machine, Machine];
    await a.lib.importItems(manyItems(400));
    await settle(a, b);
    const [ia, ib] = [await idsOf(a), await idsOf(b)];
    a.engine.start();
    b.engine.start();
    await server.stop();
    await until('both see the server gone', async () =>
      (await Promise.all([a, b].map((m) => m.engine.status()))).every((s) => s.phase === 'offline'),
    );
    for (let n = 0; n < 200; n++) await edit(a, ia[n]!, { note: `a${n}` });
    for (let n = 150; n < 350; n++) await edit(b, ib[n]!, n < 200 ? { note: `b${n}` } : { annote: `b${n}` });
    expect((await a.engine.status()).pending).toBe(200);
    await l.admin.end().catch(() => {});
    await server.start();
    l.admin = await server.client(l.database);
    await until('both have pushed', async () =>
      (await Promise.all([a, b].map((m) => m.engine.status()))).every((s) => s.phase === 'idle' && s.pending === 0),
    );
    await a.engine.stop();
    await b.engine.stop();
    await settle(a, b);
    const conflicts = [...(await a.lib.sync.conflicts()), ...(await b.lib.sync.conflicts())];
    expect(conflicts).toHaveLength(50);
    for (const m of [a, b])
      for (const x of await m.lib.sync.conflicts()) await m.lib.sync.resolve(x.kind, x.uid, { 'csl.note': 'local' });
    await settle(a, b);
    await converged([a, b], 400);
  });

  it('a client killed (-9) mid-push pushes the rest on its next run: 20,000 items, none twice', async () => {
    const [a, b] = (await fresh('alice', 'bob')) as [Machine, Machine];
    await a.lib.importItems(manyItems(20_000));
    await a.close();
    const child = cli(a.dir, 'pw-alice', 'sync');
    await until(
      'part of the push is on the server',
      async () => {
        const n = (await serverCounts(l)).item ?? 0;
        return n > 0;
      },
      120_000,
    );
    child.kill('SIGKILL');
    await exited(child);
    const partial = (await serverCounts(l)).item ?? 0;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(20_000);
    expect(integrity(a.file)).toEqual([]);
    // The next run (a new process) pushes the rest.
    const again = cli(a.dir, 'pw-alice', 'sync', '--json');
    expect(await exited(again)).toBe(0);
    const a2 = await machine('alice', { secrets: a.secrets }, a.dir);
    machines.push(a2);
    await settle(a2, b);
    await converged([a2, b], 20_000);
  });

  it('a client killed (-9) mid-pull resumes at its cursor: 20,000 items, none twice', async () => {
    const [a, b] = (await fresh('alice', 'bob')) as [Machine, Machine];
    await a.lib.importItems(manyItems(20_000));
    await a.engine.syncNow();
    await b.close();
    const child = cli(b.dir, 'pw-bob', 'sync');
    await until('part of the pull is applied', () => cursorOf(b.file) > 0, 120_000);
    child.kill('SIGKILL');
    await exited(child);
    const cursor = cursorOf(b.file);
    expect(integrity(b.file)).toEqual([]);
    const b2 = await machine('bob', { secrets: b.secrets }, b.dir);
    machines.push(b2);
    const report = await b2.engine.syncNow();
    expect(report.pulled + cursor).toBeGreaterThanOrEqual(20_000);
    await converged([a, b2], 20_000);
  });

  it('the server killed (-9) mid-transaction, then restarted: the push resumes, nothing half-written', async () => {
    const [a, b] = (await fresh('alice', 'bob')) as [Machine, Machine];
    await a.lib.importItems(manyItems(20_000));
    a.engine.start();
    await until(
      'part of the push is on the server',
      async () => ((await serverCounts(l).catch(() => ({}) as Record<string, number>)).item ?? 0) > 0,
      120_000,
    );
    await l.admin.end().catch(() => {});
    await server.kill9();
    await until('the client sees the server gone', async () => (await a.engine.status()).phase === 'offline', 30_000);
    await server.start();
    l.admin = await server.client(l.database);
    await until(
      'the push completes',
      async () => {
        const s = await a.engine.status();
        return s.phase === 'idle' && s.pending === 0;
      },
      180_000,
    );
    await a.engine.stop();
    // The server's own consistency after crash recovery: every version once, every object once.
    const dup = await l.admin.query('SELECT version FROM citewise.objects GROUP BY version HAVING count(*) > 1');
    expect(dup.rows).toEqual([]);
    await settle(a, b);
    await converged([a, b], 20_000);
  });

  it('the server stopped mid-push: the client waits, then pushes the rest when it is back', async () => {
    const [a, b] = (await fresh('alice', 'bob')) as [Machine, Machine];
    await a.lib.importItems(manyItems(20_000));
    const pushing = a.engine.syncNow().then(
      () => 'done',
      (err: Error) => err.message,
    );
    await until('part of the push is on the server', async () => ((await serverCounts(l)).item ?? 0) > 0, 120_000);
    await l.admin.end().catch(() => {});
    await server.stop('fast');
    expect(await pushing).toMatch(/cannot be reached|terminat|shut|Connection/i);
    const pending = (await a.engine.status()).pending;
    expect(pending).toBeGreaterThan(0);
    await server.start();
    l.admin = await server.client(l.database);
    await settle(a, b);
    await converged([a, b], 20_000);
  });

  it('a connection dropped mid-pull: the pages applied stay, the next pull starts at the cursor', async () => {
    const [a] = (await fresh('alice')) as [Machine];
    await a.lib.importItems(manyItems(20_000));
    await a.engine.syncNow();
    await l.member('bob');
    const proxy = await relay(server.port);
    try {
      const b = await machine('bob');
      machines.push(b);
      await b.engine.connect(`postgresql://bob@127.0.0.1:${proxy.port}/${l.database}`, 'pw-bob', { start: false });
      // About four pages of documents, then the connection is cut.
      proxy.cutAfter(4 * 1024 * 1024);
      await expect(b.engine.syncNow()).rejects.toMatchObject({
        message: expect.stringMatching(/terminated|cannot be reached|closed|ECONNRESET/i),
      });
      const cursor = cursorOf(b.file);
      expect(cursor).toBeGreaterThan(0);
      expect(cursor).toBeLessThan(20_000);
      expect(integrity(b.file)).toEqual([]);
      // The first sync was a bulk load: cut short, it built the sort indexes it had deferred.
      expect(indexesOf(b.file)).toEqual(indexesOf(a.file));
      const applied = (await b.lib.listing.count({})) as number;
      proxy.cutAfter(null);
      const report = await b.engine.syncNow();
      expect(report.pulled).toBe(20_000 - applied);
      await converged([a, b], 20_000);
    } finally {
      await proxy.close();
    }
  });
});
