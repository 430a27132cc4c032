import type { Migration } from './index';

// Standalone notes (shared/model/standalone-note.ts) are items of type `note`. A Zotero data-folder
// import made each of Zotero's standalone notes an item of type `document` marked
// custom.zotero.itemType = 'note', holding the note. Those are recognised safely, and only those: the
// mark is written nowhere else, and the record holds nothing but what that import wrote (id, type,
// title, the mark, a key), with exactly one note and no attachment. Each becomes a note item; its
// citation key stays (keys never change silently), its title, dates, tags, collections and note too.
export const m0029StandaloneNotes: Migration = {
  version: 29,
  name: 'standalone-notes',
  up(db) {
    const ids = db
      .prepare(
        `SELECT i.id FROM items i JOIN item_csl r ON r.item_id = i.id
         WHERE i.type = 'document'
           AND json_valid(r.csl)
           AND json_extract(r.csl, '$.custom.zotero.itemType') = 'note'
           AND NOT EXISTS (SELECT 1 FROM json_each(r.csl) j WHERE j.key NOT IN ('id', 'type', 'title', 'custom', 'citation-key'))
           AND NOT EXISTS (SELECT 1 FROM json_each(r.csl, '$.custom') j WHERE j.key <> 'zotero')
           AND NOT EXISTS (SELECT 1 FROM json_each(r.csl, '$.custom.zotero') j WHERE j.key <> 'itemType')
           AND (SELECT count(*) FROM notes n WHERE n.item_id = i.id) = 1
           AND NOT EXISTS (SELECT 1 FROM attachments a WHERE a.item_id = i.id)`,
      )
      .pluck()
      .all() as number[];
    const record = db.prepare(
      `UPDATE item_csl SET csl = json_remove(json_set(csl, '$.type', 'note'), '$.custom') WHERE item_id = ?`,
    );
    const item = db.prepare(`UPDATE items SET type = 'note' WHERE id = ?`);
    for (const id of ids) {
      record.run(id);
      item.run(id);
    }
  },
};
