import type { Migration } from './index';

// Zotero's side of the library, for the Zotero Connector and the clients of Zotero's local Web API.
// zotero_keys: each object's 8-character Zotero key (items, their notes and attachments, which Zotero
// counts as items, collections and saved searches), given once and never changed; an item imported
// from a Zotero data folder keeps the key it had there. zotero_changes: when an item left the library,
// went to or came back from the Trash, or joined or left a collection, none of which touches its
// date_modified; with date_modified it is the version the local API reports (`since=`), since an
// undo puts an item's old modification time back by deleting and re-inserting it.
export const m0022ZoteroKeys: Migration = {
  version: 22,
  name: 'zotero-keys',
  up(db) {
    const now = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";
    const touch = (kind: string, id: string) =>
      `INSERT INTO zotero_changes (kind, object_id, changed_at) VALUES ('${kind}', ${id}, ${now})
         ON CONFLICT(kind, object_id) DO UPDATE SET changed_at = max(changed_at + 1, excluded.changed_at);`;
    db.exec(`
      CREATE TABLE zotero_keys (
        kind      TEXT NOT NULL CHECK (kind IN ('item', 'note', 'attachment', 'collection', 'search')),
        object_id INTEGER NOT NULL,
        key       TEXT NOT NULL UNIQUE CHECK (length(key) = 8),
        PRIMARY KEY (kind, object_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE zotero_changes (
        kind       TEXT NOT NULL CHECK (kind IN ('item', 'collection')),
        object_id  INTEGER NOT NULL,
        changed_at INTEGER NOT NULL,
        PRIMARY KEY (kind, object_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TRIGGER zotero_change_item_deleted AFTER DELETE ON items BEGIN ${touch('item', 'old.id')} END;
      CREATE TRIGGER zotero_change_item_trashed AFTER UPDATE OF trashed_at ON items BEGIN ${touch('item', 'new.id')} END;
      CREATE TRIGGER zotero_change_item_filed AFTER INSERT ON collection_items BEGIN ${touch('item', 'new.item_id')} END;
      CREATE TRIGGER zotero_change_item_unfiled AFTER DELETE ON collection_items BEGIN ${touch('item', 'old.item_id')} END;
      CREATE TRIGGER zotero_change_collection_added AFTER INSERT ON collections BEGIN ${touch('collection', 'new.id')} END;
      CREATE TRIGGER zotero_change_collection_changed AFTER UPDATE ON collections BEGIN ${touch('collection', 'new.id')} END;
      CREATE TRIGGER zotero_change_collection_deleted AFTER DELETE ON collections BEGIN ${touch('collection', 'old.id')} END;
    `);
  },
};
