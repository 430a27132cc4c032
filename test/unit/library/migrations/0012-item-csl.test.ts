import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0012 item CSL table', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('moves every record out of the items rows of a populated version-11 database, which then opens, searches, edits, undoes and exports as before', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 11);
    const records = h.db.prepare('SELECT id, csl FROM items ORDER BY id').raw().all() as [number, string][];
    // An undo entry written at version 11: its snapshot has the record inside the items row.
    const row = h.db.prepare('SELECT * FROM items WHERE id = 1').get();
    const snapshot = {
      row,
      creators: h.db.prepare('SELECT * FROM creators WHERE item_id = 1').all(),
      tags: ['ml'],
      notes: [],
      collections: [{ collection_id: 2, added_at: 1 }],
      attachments: h.db.prepare('SELECT * FROM attachments WHERE item_id = 1').all(),
      aliases: [],
    };
    h.db
      .prepare("INSERT INTO undo_log (stack, label, created_at, payload) VALUES ('undo', 'Edit item', 9, ?)")
      .run(JSON.stringify({ restore: [snapshot], remove: [] }));
    migrateTo(h.db, 12);

    expect(h.db.prepare("SELECT count(*) FROM pragma_table_info('items') WHERE name = 'csl'").pluck().get()).toBe(0);
    expect(h.db.prepare('SELECT item_id, csl FROM item_csl ORDER BY item_id').raw().all()).toEqual(records);
    expect(h.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(h.db.pragma('foreign_key_check')).toEqual([]);
    // The revision trigger follows the record and the key (auto-export relies on it, migration 0007).
    const revision = () =>
      h.db
        .prepare('SELECT coalesce((SELECT revision FROM item_revisions WHERE item_id = 2), 0)')
        .pluck()
        .get() as number;
    const r0 = revision();
    h.db.prepare(`UPDATE item_csl SET csl = json_set(csl, '$.title', 'B') WHERE item_id = 2`).run();
    expect(revision()).toBe(r0 + 1);
    h.db.prepare(`UPDATE items SET citation_key = 'smithBook1999b' WHERE id = 2`).run();
    expect(revision()).toBe(r0 + 2);
    h.db.prepare(`UPDATE items SET citation_key = 'smithBook1999', date_modified = 5 WHERE id = 2`).run();
    h.db.prepare(`UPDATE item_csl SET csl = ? WHERE item_id = 2`).run(records[1]![1]);
    // A record changed after the undo entry was written, as the edit it undoes would have.
    h.db.prepare(`UPDATE item_csl SET csl = json_set(csl, '$.title', 'Changed') WHERE item_id = 1`).run();
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.getItem(1).csl).toMatchObject({ title: 'Changed', abstract: 'About neural networks.' });
      expect(lib.undo()).toBe('Edit item');
      expect(lib.getItem(1).csl).toEqual(JSON.parse(records[0]![1]));
      expect(lib.listing.list({ query: 'neural' }).rows.map((r) => r.citationKey)).toEqual(['mullerDeep2020']);
      const id = lib.addItem({ id: 'x', type: 'book', title: 'A New Book', abstract: 'On migrations' });
      expect(lib.listing.list({ query: 'migrations' }).rows.map((r) => r.id)).toEqual([id]);
      lib.updateItem(id, { ...lib.getItem(id).csl, title: 'A Renamed Book' });
      expect(lib.cslOf([id, 2])).toMatchObject([
        { title: 'A Renamed Book' },
        { title: 'A Book', 'citation-key': 'smithBook1999' },
      ]);
      lib.trashItems([id]);
      lib.emptyTrash();
      expect(opened.db.prepare('SELECT count(*) FROM item_csl WHERE item_id = ?').pluck().get(id)).toBe(0);
    } finally {
      opened.close();
    }
  });
});
