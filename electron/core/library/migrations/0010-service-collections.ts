import type { Migration } from './index';

// Local copies of the researcher's service collections, so a collection opens offline: what was asked
// for (the DOI list or the query object, and where it came from), the collection as the service last
// answered, and when. Plus the journal index by ISSN, beside the journal notice totals that 0004
// already caches (service_journal_notices), each with its fetch time; `found = 0` records that the
// service has no index for the ISSN, which is not the same as "not fetched" (no row).
export const m0010ServiceCollections: Migration = {
  version: 10,
  name: 'service-collections',
  up(db) {
    db.exec(`
      CREATE TABLE service_collections (
        id         INTEGER PRIMARY KEY,
        slug       TEXT NOT NULL UNIQUE,
        name       TEXT NOT NULL,
        -- How it was made: 'items' (a library selection), 'collection' (a library collection), 'query'.
        origin     TEXT NOT NULL CHECK (origin IN ('items', 'collection', 'query')),
        -- JSON: what was sent (the DOI count and the library collection's name, or the query object).
        request    TEXT NOT NULL,
        -- JSON: the Collection as the service last answered.
        data       TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        fetched_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX service_collections_by_created ON service_collections(created_at, id);

      CREATE TABLE service_journal_index (
        issn       TEXT PRIMARY KEY,
        found      INTEGER NOT NULL CHECK (found IN (0, 1)),
        data       TEXT,
        fetched_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
