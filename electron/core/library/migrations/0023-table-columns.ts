import { pagesSortOf, textSortOf } from '../derive';
import type { Migration } from './index';

// The table's columns a Zotero user expects besides those of 0002: Date modified, Publisher, Pages,
// Extra (CSL `note`, where Zotero's Extra field goes), and the counts of an item's attachments and notes.
// Each sorts through an index ending in id, as every column does (keyset paging needs a total order):
// publisher, pages and Extra get folded sort columns filled from each item's CSL; the counts are kept
// by triggers, so every path that adds or removes a note or an attachment (an import, undo, a merge)
// keeps them right without knowing. A trigger recounts rather than adds one, so undo, which puts an
// item's row back with its old counts and then its notes, cannot count twice.
export const m0023TableColumns: Migration = {
  version: 23,
  name: 'table-columns',
  up(db) {
    db.exec(`
      ALTER TABLE items ADD COLUMN publisher_sort TEXT;
      ALTER TABLE items ADD COLUMN pages_sort INTEGER;
      ALTER TABLE items ADD COLUMN extra_sort TEXT;
      ALTER TABLE items ADD COLUMN notes_count INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE items ADD COLUMN attachments_count INTEGER NOT NULL DEFAULT 0;
    `);
    const set = db.prepare('UPDATE items SET publisher_sort = ?, pages_sort = ?, extra_sort = ? WHERE id = ?');
    const rows = db
      .prepare(
        "SELECT item_id AS id, json_extract(csl, '$.publisher') AS publisher, json_extract(csl, '$.page') AS page, json_extract(csl, '$.note') AS note FROM item_csl",
      )
      .all() as { id: number; publisher: unknown; page: unknown; note: unknown }[];
    for (const r of rows) {
      const p = textSortOf(r.publisher);
      const n = pagesSortOf(r.page);
      const e = textSortOf(r.note);
      if (p !== null || n !== null || e !== null) set.run(p, n, e, r.id);
    }
    db.exec(`
      UPDATE items SET notes_count = (SELECT count(*) FROM notes n WHERE n.item_id = items.id),
                       attachments_count = (SELECT count(*) FROM attachments a WHERE a.item_id = items.id);
      CREATE INDEX items_by_modified ON items(date_modified, id);
      CREATE INDEX items_by_publisher ON items(publisher_sort, id);
      CREATE INDEX items_by_pages ON items(pages_sort, id);
      CREATE INDEX items_by_extra ON items(extra_sort, id);
      CREATE INDEX items_by_notes ON items(notes_count, id);
      CREATE INDEX items_by_attachments ON items(attachments_count, id);

      CREATE TRIGGER items_notes_count_add AFTER INSERT ON notes BEGIN
        UPDATE items SET notes_count = (SELECT count(*) FROM notes WHERE item_id = new.item_id) WHERE id = new.item_id;
      END;
      CREATE TRIGGER items_notes_count_remove AFTER DELETE ON notes BEGIN
        UPDATE items SET notes_count = (SELECT count(*) FROM notes WHERE item_id = old.item_id) WHERE id = old.item_id;
      END;
      CREATE TRIGGER items_notes_count_move AFTER UPDATE OF item_id ON notes BEGIN
        UPDATE items SET notes_count = (SELECT count(*) FROM notes WHERE item_id = items.id) WHERE id IN (old.item_id, new.item_id);
      END;
      CREATE TRIGGER items_attachments_count_add AFTER INSERT ON attachments BEGIN
        UPDATE items SET attachments_count = (SELECT count(*) FROM attachments WHERE item_id = new.item_id) WHERE id = new.item_id;
      END;
      CREATE TRIGGER items_attachments_count_remove AFTER DELETE ON attachments BEGIN
        UPDATE items SET attachments_count = (SELECT count(*) FROM attachments WHERE item_id = old.item_id) WHERE id = old.item_id;
      END;
      CREATE TRIGGER items_attachments_count_move AFTER UPDATE OF item_id ON attachments BEGIN
        UPDATE items SET attachments_count = (SELECT count(*) FROM attachments WHERE item_id = items.id) WHERE id IN (old.item_id, new.item_id);
      END;
    `);
  },
};
