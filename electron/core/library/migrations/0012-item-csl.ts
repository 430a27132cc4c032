import type { Migration } from './index';

// Each item's CSL-JSON record moves out of its items row into a table of its own. The record was most
// of the row (about 880 of 1,500 bytes on a generated 100,000-item library), and every scan of items
// read it without needing it: the five sort indexes a large import builds at its end (one scan each,
// 1.3 -> 0.8 s for a 100,000-entry import), filtered list walks, ANALYZE. Few places read the record:
// an item's detail, exports and citations, edits and merges, enrichment, the search index's abstract.
// The revision trigger of migration 0007 watched the column; it now watches the record's table.
export const m0012ItemCsl: Migration = {
  version: 12,
  name: 'item-csl',
  up(db) {
    db.exec(`
      CREATE TABLE item_csl (
        item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
        csl     TEXT NOT NULL
      ) STRICT;
      INSERT INTO item_csl (item_id, csl) SELECT id, csl FROM items ORDER BY id;
      DROP TRIGGER item_revision_on_edit;
      ALTER TABLE items DROP COLUMN csl;
      CREATE TRIGGER item_revision_on_key AFTER UPDATE OF citation_key ON items BEGIN
        INSERT INTO item_revisions (item_id, revision) VALUES (old.id, 1) ON CONFLICT(item_id) DO UPDATE SET revision = revision + 1;
      END;
      CREATE TRIGGER item_revision_on_csl AFTER UPDATE OF csl ON item_csl BEGIN
        INSERT INTO item_revisions (item_id, revision) VALUES (old.item_id, 1) ON CONFLICT(item_id) DO UPDATE SET revision = revision + 1;
      END;
    `);
  },
};
