import type { Migration } from './index';

// Auto-export (Better BibTeX's "keep updated"): each row keeps one file in sync with the library or a
// collection. Entries are cached per definition and item, with the hash of the settings and the item's
// revision they were rendered from, so a change to one item re-renders one entry. No
// foreign keys to items or collections: a deleted collection must turn into an error status the user
// sees, not a silently deleted definition, and a cache row of a deleted item is what tells the next
// run which file it has to leave.
export const m0007AutoExport: Migration = {
  version: 7,
  name: 'auto-export',
  up(db) {
    db.exec(`
      CREATE TABLE auto_exports (
        id              INTEGER PRIMARY KEY,
        path            TEXT NOT NULL UNIQUE,
        format          TEXT NOT NULL CHECK (format IN ('bibtex', 'biblatex', 'csljson', 'ris')),
        collection_id   INTEGER,
        subcollections  INTEGER NOT NULL DEFAULT 1 CHECK (subcollections IN (0, 1)),
        options         TEXT NOT NULL DEFAULT '{}',
        created_at      INTEGER NOT NULL,
        last_run_at     INTEGER,
        last_status     TEXT NOT NULL DEFAULT 'pending' CHECK (last_status IN ('pending', 'written', 'unchanged', 'error')),
        last_error      TEXT,
        item_count      INTEGER,
        output_size     INTEGER,
        output_mtime_ms REAL
      ) STRICT;
      CREATE TABLE auto_export_entries (
        export_id     INTEGER NOT NULL REFERENCES auto_exports(id) ON DELETE CASCADE,
        item_id       INTEGER NOT NULL,
        settings_hash TEXT NOT NULL,
        revision      INTEGER NOT NULL,
        citation_key  TEXT NOT NULL,
        entry         TEXT NOT NULL,
        PRIMARY KEY (export_id, item_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX auto_export_entries_by_item ON auto_export_entries(item_id);
      -- Covers the check of which entries are stale, which then never reads the entries' text.
      CREATE INDEX auto_export_entries_state ON auto_export_entries(export_id, item_id, revision, settings_hash, citation_key);

      -- An item's revision: bumped by every change to what an export entry is made of (its CSL, its
      -- key, its notes), and when the item is deleted (undo restores an item by deleting and inserting
      -- its row, with its old modification time). Modification times cannot do this: they have
      -- millisecond resolution and undo puts old ones back. No row: revision 0. Inserts fire nothing,
      -- so imports pay nothing; a new item has no cached entry anyway.
      CREATE TABLE item_revisions (
        item_id  INTEGER PRIMARY KEY,
        revision INTEGER NOT NULL
      ) STRICT;
      CREATE TRIGGER item_revision_on_edit AFTER UPDATE OF csl, citation_key ON items BEGIN
        INSERT INTO item_revisions (item_id, revision) VALUES (old.id, 1) ON CONFLICT(item_id) DO UPDATE SET revision = revision + 1;
      END;
      CREATE TRIGGER item_revision_on_delete AFTER DELETE ON items BEGIN
        INSERT INTO item_revisions (item_id, revision) VALUES (old.id, 1) ON CONFLICT(item_id) DO UPDATE SET revision = revision + 1;
      END;
      CREATE TRIGGER item_revision_on_note_add AFTER INSERT ON notes BEGIN
        INSERT INTO item_revisions (item_id, revision) VALUES (new.item_id, 1) ON CONFLICT(item_id) DO UPDATE SET revision = revision + 1;
      END;
      CREATE TRIGGER item_revision_on_note_edit AFTER UPDATE ON notes BEGIN
        INSERT INTO item_revisions (item_id, revision) VALUES (old.item_id, 1) ON CONFLICT(item_id) DO UPDATE SET revision = revision + 1;
        INSERT INTO item_revisions (item_id, revision) VALUES (new.item_id, 1) ON CONFLICT(item_id) DO UPDATE SET revision = revision + 1;
      END;
      CREATE TRIGGER item_revision_on_note_delete AFTER DELETE ON notes BEGIN
        INSERT INTO item_revisions (item_id, revision) VALUES (old.item_id, 1) ON CONFLICT(item_id) DO UPDATE SET revision = revision + 1;
      END;
    `);
  },
};
