import type { Migration } from './index';

// Which items each undo entry touches, beside its payload: the redo stack keeps an entry after
// unrelated changes (only a change to one of its items drops it, found with json_each instead of
// parsing every payload), and the UI names the entry's items. `fingerprint` is the state of those
// items right after an undo, so a redo is refused when anything (enrichment included) changed them.
// Entries written before this version get their items from their payload.
export const m0014UndoItems: Migration = {
  version: 14,
  name: 'undo-items',
  up(db) {
    db.exec(`
      ALTER TABLE undo_log ADD COLUMN item_ids TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE undo_log ADD COLUMN fingerprint TEXT;
      UPDATE undo_log SET item_ids = (
        SELECT coalesce(json_group_array(id), '[]') FROM (
          SELECT json_extract(r.value, '$.row.id') AS id FROM json_each(undo_log.payload, '$.restore') r
          UNION SELECT value FROM json_each(undo_log.payload, '$.remove')
          ORDER BY 1
        )
      );
    `);
  },
};
