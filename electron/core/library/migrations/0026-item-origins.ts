import type { Migration } from './index';

// Where each item came from, entry by entry: the fingerprint of the entry as its file wrote it
// (formats/origin.ts), the key the file gave it and the title it had there. An item holds one row per
// distinct entry it was imported from (the same paper from two files, or from two versions of one
// file); a merge moves them to the item kept. With them an import recognises an entry it has seen
// before whatever became of the item since (its key renamed on the first import because another entry
// had it, its title or key edited), so importing a file again adds nothing.
// Items imported before this migration have none: the rules by key, DOI and title still find them,
// and the next import that does adds the row.
export const m0026ItemOrigins: Migration = {
  version: 26,
  name: 'item-origins',
  up(db) {
    db.exec(`
      CREATE TABLE item_origins (
        item_id    INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        origin     TEXT NOT NULL,
        source_key TEXT,
        title_sort TEXT
      ) STRICT;
      CREATE UNIQUE INDEX item_origins_by_origin ON item_origins(origin, item_id);
      CREATE INDEX item_origins_by_item ON item_origins(item_id);
      CREATE INDEX item_origins_by_key ON item_origins(source_key COLLATE NOCASE) WHERE source_key IS NOT NULL;
    `);
  },
};
