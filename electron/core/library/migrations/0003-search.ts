import type { Migration } from './index';

// Full-text search: a contentless FTS5 table (the text already lives in items, creators, tags and
// notes, so storing it twice would only grow the file) whose rowid is the item id. contentless_delete
// lets an item's row be replaced when it changes. remove_diacritics 2 makes "Müller" and "Muller" the
// same token. Existing items are indexed here in SQL, so the migration does not depend on app code
// that may change later.
export const m0003Search: Migration = {
  version: 3,
  name: 'search',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE items_fts USING fts5(
        title, abstract, creators, container, tags, notes, citation_key,
        content = '', contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      -- A larger in-memory buffer before FTS5 writes a segment: a 100,000-item import writes far fewer
      -- segments and merges them less often (prefix indexes were measured to double import time, so
      -- prefix queries scan the term list instead).
      INSERT INTO items_fts (items_fts, rank) VALUES ('hashsize', 33554432);
      -- Ranking: a title hit counts most, then citation key, tags, creators and container; notes least.
      -- Stored as the table's rank so "ORDER BY rank LIMIT n" lets FTS5 pick the top rows itself.
      INSERT INTO items_fts (items_fts, rank) VALUES ('rank', 'bm25(10.0, 2.0, 5.0, 3.0, 4.0, 1.0, 5.0)');
      INSERT INTO items_fts (rowid, title, abstract, creators, container, tags, notes, citation_key)
      SELECT i.id, coalesce(i.title, ''), coalesce(json_extract(i.csl, '$.abstract'), ''),
             coalesce((SELECT group_concat(coalesce(c.literal, trim(coalesce(c.given, '') || ' ' || coalesce(c.family, ''))), '; ')
                         FROM creators c WHERE c.item_id = i.id), ''),
             coalesce(i.container, ''),
             coalesce((SELECT group_concat(t.name, '; ') FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE it.item_id = i.id), ''),
             coalesce((SELECT group_concat(n.body, ' ') FROM notes n WHERE n.item_id = i.id), ''),
             i.citation_key
        FROM items i;

      CREATE TABLE saved_searches (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL COLLATE NOCASE UNIQUE,
        query       TEXT NOT NULL,
        sort        TEXT,
        created_at  INTEGER NOT NULL,
        modified_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
