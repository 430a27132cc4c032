// `citewise server init | migrate`: the server's schema, created and brought up to date by versioned
// migrations of its own (migrations/). Each migration runs in one transaction under an advisory lock,
// so two admins migrating at once apply each step once, and a failure leaves the version before it.
import { randomBytes } from 'node:crypto';
import { CoreError } from '../../errors';
import { LATEST_SERVER_VERSION, serverMigrations, type Queryable, type ServerMigration } from './migrations';

export interface ServerSchema {
  /** The version reached; 0 when the database has no Citewise library. */
  version: number;
  libraryId: string | null;
  libraryName: string | null;
}

const MIGRATE_LOCK = "hashtext('citewise.migrate')";

/** The Citewise schema in this database: its version and library, or version 0 when there is none. */
export async function serverSchema(db: Queryable): Promise<ServerSchema> {
  const exists = await db.query<{ present: boolean }>(
    "SELECT to_regclass('citewise.schema_migrations') IS NOT NULL AS present",
  );
  if (!exists.rows[0]?.present) return { version: 0, libraryId: null, libraryName: null };
  const v = await db.query<{ version: number | null }>(
    'SELECT max(version)::int AS version FROM citewise.schema_migrations',
  );
  const version = v.rows[0]?.version ?? 0;
  const lib =
    version >= 1
      ? await db.query<{ id: string; name: string }>('SELECT id, name FROM citewise.library')
      : { rows: [] as { id: string; name: string }[] };
  return { version, libraryId: lib.rows[0]?.id ?? null, libraryName: lib.rows[0]?.name ?? null };
}

export interface MigrateResult {
  from: number;
  to: number;
  libraryId: string;
  libraryName: string;
  applied: { version: number; name: string }[];
}

/** Creates the library in an empty database (`citewise server init`). CONFLICT when there is one already. */
export async function initServer(
  db: Queryable,
  options: { name: string },
  list: readonly ServerMigration[] = serverMigrations,
): Promise<MigrateResult> {
  const name = options.name.trim();
  if (name === '' || name.length > 200)
    throw new CoreError('INVALID_INPUT', 'The library needs a name of 1 to 200 characters.');
  await db.query('BEGIN');
  try {
    await db.query(`SELECT pg_advisory_xact_lock(${MIGRATE_LOCK})`);
    const present = await db.query<{ present: boolean }>("SELECT to_regnamespace('citewise') IS NOT NULL AS present");
    if (present.rows[0]?.present) {
      throw new CoreError(
        'CONFLICT',
        'This database already holds a Citewise library; use "citewise server migrate" to bring it up to date.',
      );
    }
    await db.query(`
      CREATE SCHEMA citewise;
      CREATE TABLE citewise.schema_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        applied_by text NOT NULL DEFAULT session_user
      );
      REVOKE ALL ON SCHEMA citewise FROM PUBLIC;
    `);
    await db.query('COMMIT');
  } catch (err) {
    await db.query('ROLLBACK').catch(() => {});
    throw asServerError(err);
  }
  try {
    return await runMigrations(db, list, { libraryId: randomBytes(6).toString('hex'), libraryName: name });
  } catch (err) {
    // The library was never usable: leave the database as it was found.
    if ((await serverSchema(db).catch(() => ({ version: 0 }))).version === 0)
      await db.query('DROP SCHEMA IF EXISTS citewise CASCADE').catch(() => {});
    throw err;
  }
}

/** Applies the migrations this server has not had (`citewise server migrate`). */
export async function migrateServer(
  db: Queryable,
  list: readonly ServerMigration[] = serverMigrations,
): Promise<MigrateResult> {
  const schema = await serverSchema(db);
  if (schema.version === 0)
    throw new CoreError(
      'NOT_FOUND',
      'This database holds no Citewise library; create one with "citewise server init URL".',
    );
  return runMigrations(db, list, { libraryId: schema.libraryId!, libraryName: schema.libraryName! });
}

async function runMigrations(
  db: Queryable,
  list: readonly ServerMigration[],
  ctx: { libraryId: string; libraryName: string },
): Promise<MigrateResult> {
  const latest = list.reduce((m, x) => Math.max(m, x.version), 0);
  const applied: { version: number; name: string }[] = [];
  let from: number | null = null;
  let libraryId = ctx.libraryId;
  for (const m of [...list].sort((a, b) => a.version - b.version)) {
    await db.query('BEGIN');
    try {
      await db.query(`SELECT pg_advisory_xact_lock(${MIGRATE_LOCK})`);
      const v = await db.query<{ version: number | null }>(
        'SELECT max(version)::int AS version FROM citewise.schema_migrations',
      );
      const current = v.rows[0]?.version ?? 0;
      from ??= current;
      if (current > latest) {
        throw new CoreError(
          'CONFLICT',
          `This server's library was set up by a newer Citewise (server schema ${current}; this version knows up to ${latest}). Update Citewise; nothing was changed.`,
        );
      }
      if (m.version <= current) {
        await db.query('COMMIT');
        continue;
      }
      if (m.version >= 2) {
        const lib = await db.query<{ id: string }>('SELECT id FROM citewise.library');
        libraryId = lib.rows[0]?.id ?? libraryId;
      }
      await m.up(db, { ...ctx, libraryId });
      await db.query('INSERT INTO citewise.schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      await db.query('COMMIT');
      applied.push({ version: m.version, name: m.name });
    } catch (err) {
      await db.query('ROLLBACK').catch(() => {});
      throw asServerError(err, m);
    }
  }
  return { from: from ?? 0, to: Math.max(from ?? 0, latest), libraryId, libraryName: ctx.libraryName, applied };
}

/** A server error as a sentence; privileges are the usual reason, so they are named. */
export function asServerError(err: unknown, m?: ServerMigration): Error {
  if (err instanceof CoreError) return err;
  const e = err as { code?: string; message?: string };
  const at = m ? ` (server migration ${m.version}, ${m.name}; rolled back)` : '';
  if (e.code === '42501')
    return new CoreError(
      'FORBIDDEN',
      `The server refused${at}: ${e.message}. Setting up a library needs a role that owns the database and may create roles (CREATEROLE).`,
    );
  return new CoreError('SERVICE_ERROR', `The server refused${at}: ${e.message ?? String(err)}`);
}

export { LATEST_SERVER_VERSION };
