// The server's own migrations, one file each, applied in order by `citewise server init|migrate`
// (../migrate.ts). Each runs in its own transaction; the version reached is kept in
// citewise.schema_migrations. A client refuses a server whose schema is newer than the last one listed
// here, and asks for `citewise server migrate` when it is older than REQUIRED_SERVER_VERSION.
import type { QueryResult, QueryResultRow } from 'pg';
import { m0001Library } from './0001-library';
import { m0002Members } from './0002-members';

/** What a migration needs of a connection: pg's Client or PoolClient. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

export interface ServerMigration {
  version: number;
  name: string;
  up(db: Queryable, ctx: { libraryId: string; libraryName: string }): Promise<void>;
}

export const serverMigrations: readonly ServerMigration[] = [m0001Library, m0002Members];

export const LATEST_SERVER_VERSION = serverMigrations[serverMigrations.length - 1]!.version;
/** The oldest server schema this Citewise syncs with. */
export const REQUIRED_SERVER_VERSION = LATEST_SERVER_VERSION;
