import type { Migration } from './index';

// Items: hot fields as typed columns beside the full CSL-JSON record, ordered creators, tags, notes,
// nested collections, attachments and the aliases a merge leaves behind. The *_sort columns hold a
// folded form of the text (lowercase, no diacritics, no punctuation) so every sort the library table
// offers walks an index ending in id, which keyset paging needs for a total order; title_sort doubles
// as the normalised title duplicate detection groups by. Every index slows a bulk import, so there is
// none the table or a lookup does not need.
export const m0002Items: Migration = {
  version: 2,
  name: 'items',
  up(db) {
    db.exec(`
      -- AUTOINCREMENT: an id is never reused, so undoing a deletion can bring an item back under its own id.
      CREATE TABLE items (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        type           TEXT NOT NULL,
        citation_key   TEXT NOT NULL COLLATE NOCASE UNIQUE,
        title          TEXT,
        title_sort     TEXT,
        creators_text  TEXT,
        creators_sort  TEXT,
        year           INTEGER,
        container      TEXT,
        container_sort TEXT,
        doi            TEXT,
        date_added     INTEGER NOT NULL,
        date_modified  INTEGER NOT NULL,
        trashed_at     INTEGER,
        source         TEXT,
        csl            TEXT NOT NULL
      ) STRICT;
      -- Not partial: the planner cannot use a partial index for "doi IN (subquery)" (evidence filters).
      CREATE INDEX items_doi ON items(doi);
      CREATE INDEX items_trashed ON items(trashed_at) WHERE trashed_at IS NOT NULL;
      CREATE INDEX items_by_title ON items(title_sort, id);
      CREATE INDEX items_by_creators ON items(creators_sort, id);
      CREATE INDEX items_by_year ON items(year, id);
      CREATE INDEX items_by_container ON items(container_sort, id);
      CREATE INDEX items_by_type ON items(type, id);
      CREATE INDEX items_by_added ON items(date_added, id);

      CREATE TABLE creators (
        item_id     INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        role        TEXT NOT NULL,
        position    INTEGER NOT NULL,
        family      TEXT,
        given       TEXT,
        literal     TEXT,
        family_norm TEXT NOT NULL,
        PRIMARY KEY (item_id, role, position)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE tags (
        id   INTEGER PRIMARY KEY,
        name TEXT NOT NULL COLLATE NOCASE UNIQUE
      ) STRICT;
      CREATE TABLE item_tags (
        item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        tag_id  INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
        PRIMARY KEY (item_id, tag_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX item_tags_by_tag ON item_tags(tag_id, item_id);

      CREATE TABLE notes (
        id          INTEGER PRIMARY KEY,
        item_id     INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        body        TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        modified_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX notes_by_item ON notes(item_id);

      CREATE TABLE collections (
        id         INTEGER PRIMARY KEY,
        parent_id  INTEGER REFERENCES collections(id) ON DELETE CASCADE,
        name       TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      -- Sibling names are unique; roots have parent 0 here so NULLs do not escape the constraint.
      CREATE UNIQUE INDEX collections_sibling_name ON collections(coalesce(parent_id, 0), name COLLATE NOCASE);
      CREATE TABLE collection_items (
        collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
        item_id       INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        added_at      INTEGER NOT NULL,
        PRIMARY KEY (collection_id, item_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX collection_items_by_item ON collection_items(item_id);

      CREATE TABLE attachments (
        id       INTEGER PRIMARY KEY,
        item_id  INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        path     TEXT NOT NULL,
        sha256   TEXT,
        size     INTEGER,
        mime     TEXT,
        added_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX attachments_by_item ON attachments(item_id);

      -- Keys of items merged into another: documents citing them still resolve, and no new item takes them.
      CREATE TABLE key_aliases (
        alias   TEXT PRIMARY KEY COLLATE NOCASE,
        item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE
      ) STRICT;
      CREATE INDEX key_aliases_by_item ON key_aliases(item_id);
    `);
  },
};
