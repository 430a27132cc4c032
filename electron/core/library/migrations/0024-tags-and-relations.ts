import type { Migration } from './index';

// What a Zotero user organises with besides tags and collections:
// - Coloured tags (Zotero's tag selector): up to nine tags with a colour and a place 1–9, which is also
//   the key that toggles the tag on the selected items. Kept by name, apart from the tags table, so a
//   coloured tag keeps its colour and place while no item has it (the tags table drops unused names).
// - Related items, both ways: one row per pair, the smaller id first, so "A is related to B" and "B
//   is related to A" cannot disagree. Deleting either item removes the pair; trashing keeps it.
export const m0024TagsAndRelations: Migration = {
  version: 24,
  name: 'tags-and-relations',
  up(db) {
    db.exec(`
      CREATE TABLE tag_colors (
        name     TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,
        color    TEXT NOT NULL,
        position INTEGER NOT NULL UNIQUE CHECK (position BETWEEN 1 AND 9)
      ) STRICT;

      CREATE TABLE item_relations (
        item_id    INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        related_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        added_at   INTEGER NOT NULL,
        PRIMARY KEY (item_id, related_id),
        CHECK (item_id < related_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX item_relations_by_related ON item_relations(related_id, item_id);
    `);
  },
};
