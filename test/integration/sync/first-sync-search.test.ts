// A first sync into an empty library leaves its items out of the search index while it loads and builds
// the index once, in bulk, when the pull ends (store.ts, finishPull), or when the library opens after a
// first sync cut short. Whatever stops it, the sync ends with every item findable by a word of its
// title, its notes and its tags, and the search-index check (start-up's, `citewise check`'s) clean.
// Rows come from a real PostgreSQL, as another member's Citewise wrote them.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkSearchIndex } from '../../../electron/core/library/search-index';
import { BULK_FIRST_SYNC_ROWS } from '../../../electron/core/sync/store';
import type { ServerRow } from '../../../electron/core/sync/types';
import { manyItems, titleOf } from '../../helpers/many-items';
import { postgresAvailable, startPostgres, type TestPostgres } from '../../helpers/postgres';
import { integrity, lab, machine, snapshot, until, type Lab, type Machine } from './helpers';

const ROOT = join(__dirname, '..', '..', '..');
/** Items on the server: five pages and more of the engine's pull (PULL_PAGE 2,000). */
const ITEMS = 10_500;
/** Every NOTE_EVERY-th item has a note, every TAG_EVERY-th the tag. */
const NOTE_EVERY = 25;
const TAG_EVERY = 100;
const TAG = 'shelfmarked';
/** The first round of alice's pushes: this many items, then their notes. */
const HALF = 5000;

let server: TestPostgres;
let l: Lab;
let rows: ServerRow[];
/** The last version of the first round. */
let firstRound: number | undefined;
let alice: Machine;
const machines: Machine[] = [];
const children: ChildProcess[] = [];

/** The word of item n's title no other title has ("Observations on specimen 00042"). */
const titleWord = (n: number): string => titleOf(n).split(' ').at(-1)!;
const noteWord = (n: number): string => `marginalia${n}x`;
/** Which n of manyItems an item is, by its title. */
const numberOf = (title: unknown): number => Number(String(title).split(' ').at(-1));

beforeAll(async () => {
  server = await startPostgres();
  l = await lab(server);
  await l.member('alice');
  await l.member('bob');
  alice = await machine('alice');
  await alice.join(l, 'alice');
  // In two rounds, each pushed with its notes: the server's versions interleave items and notes, as a
  // library that grew over time has them, so a first sync's pages bring notes while it loads.
  const all = manyItems(ITEMS);
  const seen = new Set<number>();
  for (const part of [all.slice(0, HALF), all.slice(HALF)]) {
    await alice.lib.importItems(part);
    for (const id of await alice.lib.listing.idsOf({})) {
      if (seen.has(id)) continue;
      seen.add(id);
      const n = numberOf((await alice.lib.lib.getItem(id)).csl.title);
      if (n % NOTE_EVERY === 0) await alice.lib.lib.addNote(id, `<p>Read again: ${noteWord(n)}.</p>`);
      if (n % TAG_EVERY === 0) await alice.lib.lib.addTags([id], [TAG]);
    }
    await alice.engine.syncNow();
    firstRound ??= Number(
      (await l.admin.query<{ v: string }>('SELECT max(version) AS v FROM citewise.objects')).rows[0]!.v,
    );
  }
  rows = (
    await l.admin.query<{ kind: string; uid: string; version: string; deleted: boolean; data: string }>(
      'SELECT kind, uid, version, deleted, data::text AS data FROM citewise.objects ORDER BY version',
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
}, 600_000);
afterAll(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const m of machines.splice(0)) await m.remove();
  await alice?.remove();
  await l?.close();
  await server?.remove();
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const m of machines.splice(0)) await m.remove();
});

async function empty(name: string): Promise<Machine> {
  const m = await machine(name);
  machines.push(m);
  await m.join(l, 'bob');
  return m;
}

function pendingSearch(file: string): boolean {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT 1 FROM sync_state WHERE key = 'searchDeferred'").get() !== undefined;
  } finally {
    db.close();
  }
}

/**
 * Which items the search index finds by each word of interest, read from the file: item n (by its
 * title) → whether its title word, its note word (when it has a note) and the tag find it, and
 * only it (the tag: exactly the tagged items).
 */
function findable(file: string): { items: number; unfound: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    const items = db.prepare('SELECT id, title FROM items').all() as { id: number; title: string }[];
    // Notes where they have arrived (a cut sync brings an item before its note).
    const noted = new Set(db.prepare('SELECT item_id FROM notes').pluck().all() as number[]);
    const match = db.prepare('SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid').pluck();
    const unfound: string[] = [];
    const tagged: number[] = [];
    for (const it of items) {
      const n = numberOf(it.title);
      const title = match.all(`title:"${titleWord(n)}"`) as number[];
      if (title.join() !== String(it.id)) unfound.push(`${it.title} by its title (${title.join()})`);
      if (noted.has(it.id)) {
        const note = match.all(`notes:"${noteWord(n)}"`) as number[];
        if (note.join() !== String(it.id)) unfound.push(`${it.title} by its note (${note.join()})`);
      }
      if (n % TAG_EVERY === 0) tagged.push(it.id);
    }
    const byTag = match.all(`tags:${TAG}`) as number[];
    if (byTag.join() !== tagged.sort((a, b) => a - b).join())
      unfound.push(`the tag finds ${byTag.length} items, not the ${tagged.length} tagged`);
    return { items: items.length, unfound };
  } finally {
    db.close();
  }
}

/** Everything the server has is here, findable, and every check the library makes is clean. */
async function complete(m: Machine): Promise<void> {
  expect(pendingSearch(m.file)).toBe(false);
  expect(integrity(m.file)).toEqual([]);
  expect(findable(m.file)).toEqual({ items: ITEMS, unfound: [] });
  expect(snapshot(m.file)).toEqual(snapshot(alice.file));
  // And through the library's own search, as the Library pane asks it.
  for (const n of [0, 1, NOTE_EVERY * 7, ITEMS - 1]) {
    const ids = await m.lib.listing.idsOf({ query: titleWord(n) });
    expect(ids).toHaveLength(1);
    expect((await m.lib.lib.getItem(ids[0]!)).csl.title).toBe(titleOf(n));
  }
  expect(await m.lib.listing.idsOf({ query: noteWord(NOTE_EVERY * 3) })).toHaveLength(1);
}

function cli(dataDir: string, ...args: string[]): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'electron', 'cli', 'index.ts'), '--data-dir', dataDir, ...args],
    { cwd: ROOT, env: { ...process.env, CITEWISE_SYNC_PASSWORD: 'pw-bob' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  return child;
}

function finished(child: ChildProcess): Promise<{ code: number | null; out: string }> {
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
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

describe.skipIf(!postgresAvailable())('the search index of a first sync', { timeout: 600_000 }, () => {
  it('is written row by row below the bulk threshold, and in one pass at and above it', async () => {
    const below = await empty('below');
    const small = rows.filter((r) => r.kind === 'item').slice(0, BULK_FIRST_SYNC_ROWS - 1);
    await below.lib.sync.applyPull(small, small.at(-1)!.version);
    expect(pendingSearch(below.file)).toBe(false);
    // Every item of the page has its row at once.
    const db = new Database(below.file, { readonly: true });
    expect(checkSearchIndex(db)).toEqual({ items: small.length, missing: 0, extra: 0, pending: false });
    db.close();

    for (const size of [BULK_FIRST_SYNC_ROWS, BULK_FIRST_SYNC_ROWS + 1]) {
      const b = await empty(`bulk-${size}`);
      const page = rows.filter((r) => r.kind === 'item').slice(0, size);
      await b.lib.sync.applyPull(page, page.at(-1)!.version);
      expect(pendingSearch(b.file)).toBe(true);
      const during = new Database(b.file, { readonly: true });
      // No row yet, and the check knows a first sync is loading (not drift to repair).
      expect(checkSearchIndex(during)).toEqual({ items: size, missing: size, extra: 0, pending: true });
      during.close();
      expect(integrity(b.file)).toEqual([]);
      await b.lib.sync.finishPull();
      expect(pendingSearch(b.file)).toBe(false);
      const after = new Database(b.file, { readonly: true });
      expect(checkSearchIndex(after)).toEqual({ items: size, missing: 0, extra: 0, pending: false });
      after.close();
    }
  });

  it('cut after some pages (as by kill -9 between pages): built at the next open, then the sync resumes', async () => {
    const b = await empty('cut');
    // The first round's rows, in the engine's pages (PULL_PAGE), items and their notes.
    const first = rows.filter((r) => r.version <= firstRound!);
    expect(first.filter((r) => r.kind === 'note')).toHaveLength(HALF / NOTE_EVERY);
    for (let i = 0; i < first.length; i += 2000) {
      const page = first.slice(i, i + 2000);
      await b.lib.sync.applyPull(page, page.at(-1)!.version);
    }
    expect(pendingSearch(b.file)).toBe(true);
    await b.close();
    const again = await machine('cut', { secrets: b.secrets }, b.dir);
    machines.push(again);
    // The open built every row of what the first page brought, notes included.
    expect(pendingSearch(again.file)).toBe(false);
    expect(integrity(again.file)).toEqual([]);
    expect(findable(again.file)).toEqual({ items: HALF, unfound: [] });
    await again.engine.syncNow();
    await complete(again);
    await again.close();
    // `citewise check` on the same folder: the index is whole.
    const check = await finished(cli(again.dir, 'check', '--offline'));
    expect(check.out).toContain(`Search index: all ${ITEMS} items are indexed.`);
  });

  it('a client killed (-9) mid-pull: the next run builds the index and resumes, every item findable', async () => {
    const b = await empty('killed');
    await b.close();
    const child = cli(b.dir, 'sync');
    const done = finished(child);
    await until('part of the pull is applied', () => cursorOf(b.file) > 0, 300_000);
    child.kill('SIGKILL');
    await done;
    const cursor = cursorOf(b.file);
    expect(cursor).toBeLessThan(rows.at(-1)!.version);
    // Cut mid-load: the index waits for the load's end, recorded in the same commits as its pages.
    expect(pendingSearch(b.file)).toBe(true);
    expect(integrity(b.file)).toEqual([]);
    const again = await machine('killed', { secrets: b.secrets }, b.dir);
    machines.push(again);
    expect(pendingSearch(again.file)).toBe(false);
    expect(findable(again.file).unfound).toEqual([]);
    const report = await again.engine.syncNow();
    expect(report.pulled).toBeGreaterThan(0);
    await complete(again);
  });

  it('leaving the shared library mid-load builds what the load left, before its records go', async () => {
    const b = await empty('leave');
    const page = rows.slice(0, BULK_FIRST_SYNC_ROWS);
    await b.lib.sync.applyPull(page, page.at(-1)!.version);
    expect(pendingSearch(b.file)).toBe(true);
    await b.lib.sync.leave();
    expect(pendingSearch(b.file)).toBe(false);
    expect(integrity(b.file)).toEqual([]);
    const db = new Database(b.file, { readonly: true });
    try {
      expect(checkSearchIndex(db)).toEqual({ items: BULK_FIRST_SYNC_ROWS, missing: 0, extra: 0, pending: false });
      expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'items_by_title'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
