// The replica's change log: SQLite triggers, made from the shared kinds' declarations (kinds.ts), mark
// an object dirty in the same transaction as whatever changed it, so no write path can be missed (an
// edit, an import, undo, a merge, enrichment, the command line, a program of the user's). They mark
// only while the library is shared (sync_flags.tracking) and never while the sync itself writes what the
// server sent (sync_flags.applying).
//
// The triggers are checked at every open of the library and (re)made when one is missing or differs
// from its declaration: a migration that rebuilds a table drops its triggers, and a kind declared in a
// later version adds its own without a migration of its own.
import type Database from 'better-sqlite3';
import { SYNC_KINDS, type SyncKind, type TriggerSource } from './kinds';

const PREFIX = 'sync_';
const IDENT = /^[a-z_][a-z0-9_]*$/;
const ACTIVE = 'WHEN (SELECT tracking = 1 AND applying = 0 FROM sync_flags WHERE id = 1)';

function upsert(kind: string, select: string): string {
  return `INSERT INTO sync_dirty (kind, local_id) ${select} ON CONFLICT(kind, local_id) DO UPDATE SET mark = mark + 1;`;
}

function marks(kind: string, source: TriggerSource, row: 'NEW' | 'OLD', unlessSameAsNew = false): string {
  const k = `'${kind}'`;
  if (source.select)
    return upsert(kind, `SELECT ${k}, * FROM (${source.select.replaceAll('ROW.', `${row}.`)}) WHERE true`);
  const id = source.id!.replaceAll('ROW.', `${row}.`);
  if (unlessSameAsNew) {
    const newId = source.id!.replaceAll('ROW.', 'NEW.');
    return upsert(kind, `SELECT ${k}, ${id} WHERE (${id}) IS NOT (${newId})`);
  }
  return upsert(kind, `SELECT ${k}, ${id} WHERE true`);
}

/** The triggers of one kind's source table, by name. */
function triggersOf(kind: SyncKind, source: TriggerSource): [string, string][] {
  if (!IDENT.test(kind.name) || !IDENT.test(source.table))
    throw new Error(`Bad sync declaration: ${kind.name}/${source.table}`);
  for (const c of source.columns ?? []) if (!IDENT.test(c)) throw new Error(`Bad sync column: ${c}`);
  const events = source.events ?? ['insert', 'update', 'delete'];
  const out: [string, string][] = [];
  for (const event of events) {
    const name = `${PREFIX}${kind.name}_${source.table}_${event}`;
    const on =
      event === 'update' && source.columns?.length
        ? `AFTER UPDATE OF ${source.columns.join(', ')} ON ${source.table}`
        : `AFTER ${event.toUpperCase()} ON ${source.table}`;
    const body =
      event === 'insert'
        ? marks(kind.name, source, 'NEW')
        : event === 'delete'
          ? marks(kind.name, source, 'OLD')
          : `${marks(kind.name, source, 'NEW')}\n  ${source.select ? '' : marks(kind.name, source, 'OLD', true)}`;
    out.push([name, `CREATE TRIGGER ${name} ${on} ${ACTIVE} BEGIN\n  ${body.trim()}\nEND`]);
  }
  return out;
}

/** Every change-log trigger the declarations ask for, by name. */
export function changeLogTriggers(kinds: readonly SyncKind[] = SYNC_KINDS): Map<string, string> {
  const out = new Map<string, string>();
  for (const kind of kinds)
    for (const source of kind.sources)
      for (const [name, text] of triggersOf(kind, source)) {
        if (out.has(name)) throw new Error(`Two sync declarations make the trigger ${name}`);
        out.set(name, text);
      }
  return out;
}

/**
 * Makes the library's change-log triggers match the declarations: missing or different ones are made,
 * ones no declaration asks for any more are dropped. One read of the schema when nothing changed.
 * Does nothing in a library without the sync tables (older than the sync migration, in tests).
 */
export function installChangeLog(
  db: Database.Database,
  kinds: readonly SyncKind[] = SYNC_KINDS,
): { made: number; dropped: number } {
  const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  if (!tables.has('sync_flags')) return { made: 0, dropped: 0 };
  const wanted = changeLogTriggers(kinds.filter((k) => k.sources.every((s) => tables.has(s.table))));
  const present = new Map(
    (
      db
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync\\_%' ESCAPE '\\'")
        .all() as {
        name: string;
        sql: string;
      }[]
    ).map((t) => [t.name, t.sql]),
  );
  const make = [...wanted].filter(([name, text]) => present.get(name) !== text);
  const drop = [...present.keys()].filter((name) => !wanted.has(name));
  if (make.length === 0 && drop.length === 0) return { made: 0, dropped: 0 };
  db.transaction(() => {
    for (const name of drop) db.exec(`DROP TRIGGER IF EXISTS "${name}"`);
    for (const [name, text] of make) {
      db.exec(`DROP TRIGGER IF EXISTS "${name}"`);
      db.exec(text);
    }
  }).immediate();
  return { made: make.length, dropped: drop.length };
}
