import type { Migration } from './index';

// Formatted bibliographies kept in the library (electron/core/library/cite-cache.ts), so that a cold
// export of an unchanged set (a fresh `citewise export`, the first export of an app session) costs a
// lookup instead of a citeproc run. A row is one whole bibliography: its key is a hash of everything
// that decides the output (the formatter's cache version, citeproc's version, the style's and the
// locale's XML, the format, every item's content in the order given), so an edit to an item, a
// neighbour or a style simply stops matching; old rows age out through the size bound.
export const m0015CiteCache: Migration = {
  version: 15,
  name: 'cite-cache',
  up(db) {
    db.exec(`
      CREATE TABLE cite_cache (
        key        TEXT PRIMARY KEY,
        style      TEXT NOT NULL,
        format     TEXT NOT NULL,
        items      INTEGER NOT NULL,
        entries    TEXT NOT NULL,
        bytes      INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX cite_cache_age ON cite_cache(created_at);
    `);
  },
};
