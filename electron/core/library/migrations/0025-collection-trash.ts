import type { Migration } from './index';

// Collections go to the Trash, as items do, instead of being deleted at once: trashed_at is set on the
// collection and its subcollections (one time for all of them, so a restore brings back the same
// subtree), and their items' membership stays in collection_items, so a restore brings the collection
// back with its items. Emptying the Trash deletes them for good (cascading to their membership).
export const m0025CollectionTrash: Migration = {
  version: 25,
  name: 'collection-trash',
  up(db) {
    db.exec(`
      ALTER TABLE collections ADD COLUMN trashed_at INTEGER;
      CREATE INDEX collections_trashed ON collections(trashed_at) WHERE trashed_at IS NOT NULL;
    `);
  },
};
