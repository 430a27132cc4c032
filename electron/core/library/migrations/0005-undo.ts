import type { Migration } from './index';

// The operation log behind undo and redo: each entry holds what is needed to invert one user action
// (snapshots of the items and collections it touched). It lives in the library so an undo survives a
// restart and is written in the same transaction as the change it inverts.
export const m0005Undo: Migration = {
  version: 5,
  name: 'undo',
  up(db) {
    db.exec(`
      CREATE TABLE undo_log (
        id         INTEGER PRIMARY KEY,
        stack      TEXT NOT NULL CHECK (stack IN ('undo', 'redo')),
        label      TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        payload    TEXT NOT NULL
      ) STRICT;
      CREATE INDEX undo_log_by_stack ON undo_log(stack, id);
    `);
  },
};
