// Machines sharing one library through a real PostgreSQL: each "machine" is its own data folder with its
// own library worker and sync engine, as two installed Citewise would be. The server is started by the
// test (test/helpers/postgres.ts); every test gets a database of its own.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { LibraryClient, type StartLibraryOptions } from '../../../electron/core/library/client';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { checkSearchIndex, searchIndexDrift } from '../../../electron/core/library/search-index';
import { createMemorySecretStore, type SecretStore } from '../../../electron/core/secrets';
import { SyncEngine, type SyncEngineOptions } from '../../../electron/core/sync/engine';
import { initServer } from '../../../electron/core/sync/server/migrate';
import { setMember, type MemberRole } from '../../../electron/core/sync/server/members';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';

export const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let dbCount = 0;

export interface Lab {
  pg: TestPostgres;
  database: string;
  admin: pg.Client;
  /** Adds a member with a role; their password is `pw-LOGIN`. */
  member(login: string, role?: MemberRole): Promise<string>;
  url(login: string): string;
  close(): Promise<void>;
}

/** A fresh shared library: a database, the schema made by `citewise server init`'s code, an admin connection. */
export async function lab(server: TestPostgres, name = 'Lab'): Promise<Lab> {
  const database = `lab${++dbCount}_${process.pid}`;
  await server.createDatabase(database);
  const admin = await server.client(database);
  await initServer(admin, { name });
  return {
    pg: server,
    database,
    admin,
    async member(login, role = 'editor') {
      // Logins are the cluster's: one made for an earlier test's library keeps its password.
      const exists = (await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [login])).rows.length > 0;
      await setMember(admin, login, role, exists ? null : `pw-${login}`);
      return `pw-${login}`;
    },
    url: (login) => server.url(database, login),
    async close() {
      await admin.end().catch(() => {});
    },
  };
}

export interface Machine {
  name: string;
  dir: string;
  file: string;
  lib: LibraryClient;
  engine: SyncEngine;
  secrets: SecretStore;
  /** Connects as `login` (password pw-LOGIN) without starting the background loop. */
  join(l: Lab, login: string): Promise<void>;
  close(): Promise<void>;
  remove(): Promise<void>;
}

/** A machine: its own data folder, library worker and sync engine (background loop off unless started). */
export async function machine(
  name: string,
  options: Partial<SyncEngineOptions> = {},
  dir?: string,
  libOptions: Partial<StartLibraryOptions> = {},
): Promise<Machine> {
  const folder = dir ?? mkdtempSync(join(tmpdir(), `citewise-${name}-`));
  mkdirSync(folder, { recursive: true });
  const file = join(folder, LIBRARY_FILE);
  const lib = await LibraryClient.start({ file, durability: 'off', ...libOptions });
  const secrets = options.secrets ?? createMemorySecretStore();
  const engine = new SyncEngine({
    store: lib.sync,
    secrets,
    logger: quiet,
    timing: { pollMs: 3_600_000, retryMinMs: 100, retryMaxMs: 1000, connectTimeoutMs: 5000 },
    ...options,
  });
  let closed = false;
  const m: Machine = {
    name,
    dir: folder,
    file,
    lib,
    engine,
    secrets,
    async join(l, login) {
      await engine.connect(l.url(login), `pw-${login}`, { start: false });
    },
    async close() {
      if (closed) return;
      closed = true;
      await engine.close();
      await lib.close();
    },
    async remove() {
      await m.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return m;
}

/**
 * What a library holds, without local ids: items by citation key (metadata, trash, tags, notes,
 * collections, aliases, attachments), the collection tree, saved searches and fetched evidence. Two
 * replicas in sync have equal snapshots. Read from the file, as another program would.
 */
export function snapshot(file: string): Record<string, unknown> {
  const db = new Database(file, { readonly: true });
  try {
    const path = new Map<number, string>();
    const cols = db.prepare('SELECT id, parent_id, name FROM collections').all() as {
      id: number;
      parent_id: number | null;
      name: string;
    }[];
    const byId = new Map(cols.map((c) => [c.id, c]));
    const pathOf = (id: number): string => {
      if (path.has(id)) return path.get(id)!;
      const c = byId.get(id)!;
      const p = c.parent_id === null ? c.name : `${pathOf(c.parent_id)}/${c.name}`;
      path.set(id, p);
      return p;
    };
    const items = db
      .prepare(
        `SELECT i.id, i.citation_key, i.trashed_at IS NOT NULL AS trashed, i.date_added, r.csl FROM items i JOIN item_csl r ON r.item_id = i.id ORDER BY i.citation_key`,
      )
      .all() as { id: number; citation_key: string; trashed: number; date_added: number; csl: string }[];
    const list = (q: string, id: number): unknown[] => db.prepare(q).pluck().all(id);
    const out: Record<string, unknown> = {};
    for (const it of items) {
      out[`item ${it.citation_key}`] = {
        csl: JSON.parse(it.csl) as unknown,
        trashed: it.trashed === 1,
        dateAdded: it.date_added,
        tags: list(
          'SELECT t.name FROM item_tags x JOIN tags t ON t.id = x.tag_id WHERE x.item_id = ? ORDER BY t.name',
          it.id,
        ),
        notes: list('SELECT body FROM notes WHERE item_id = ? ORDER BY body', it.id),
        collections: (list('SELECT collection_id FROM collection_items WHERE item_id = ?', it.id) as number[])
          .map(pathOf)
          .sort(),
        aliases: list('SELECT alias FROM key_aliases WHERE item_id = ? ORDER BY alias', it.id),
        attachments: db
          .prepare('SELECT sha256, size, original_name AS name FROM attachments WHERE item_id = ? ORDER BY sha256')
          .all(it.id),
      };
    }
    out.collections = cols.map((c) => pathOf(c.id)).sort();
    out.searches = db.prepare('SELECT name, query FROM saved_searches ORDER BY name').all();
    out.tallies = db.prepare('SELECT doi, supporting, contrasting, mentioning FROM service_tallies ORDER BY doi').all();
    return out;
  } finally {
    db.close();
  }
}

/** SQLite's integrity_check and foreign keys, and the search index against the items: [] when sound. */
export function integrity(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const problems: string[] = [];
    const ic = db.prepare('PRAGMA integrity_check').pluck().all() as string[];
    if (ic.join() !== 'ok') problems.push(...ic.map((x) => `integrity_check: ${x}`));
    const fk = db.prepare('PRAGMA foreign_key_check').all();
    if (fk.length) problems.push(`foreign keys: ${JSON.stringify(fk.slice(0, 5))}`);
    // The same comparison start-up and `citewise check` make (library/search-index.ts).
    const index = checkSearchIndex(db);
    if (searchIndexDrift(index)) problems.push(`search index: ${JSON.stringify(index)}`);
    return problems;
  } finally {
    db.close();
  }
}

/** The server's live objects per kind, and their count of versions (nothing is written twice). */
export async function serverCounts(l: Lab): Promise<Record<string, number>> {
  const r = await l.admin.query<{ kind: string; n: string }>(
    'SELECT kind, count(*) AS n FROM citewise.objects WHERE NOT deleted GROUP BY kind ORDER BY kind',
  );
  return Object.fromEntries(r.rows.map((x) => [x.kind, Number(x.n)]));
}

export async function until(what: string, test: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export { startPostgres };
