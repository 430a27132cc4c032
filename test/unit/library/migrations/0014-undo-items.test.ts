import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0014 undo items', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('lists the items of the undo entries of a populated version-13 database, whose undo and redo then work and name them', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 13);
    const row = h.db.prepare('SELECT i.*, r.csl FROM items i JOIN item_csl r ON r.item_id = i.id WHERE i.id = 1').get();
    const snapshot = {
      row,
      creators: h.db.prepare('SELECT * FROM creators WHERE item_id = 1').all(),
      tags: ['ml'],
      notes: [],
      collections: [],
      attachments: [],
      aliases: [],
    };
    const insert = h.db.prepare("INSERT INTO undo_log (stack, label, created_at, payload) VALUES ('undo', ?, 9, ?)");
    insert.run('Edit item', JSON.stringify({ restore: [snapshot], remove: [] }));
    insert.run('Add item', JSON.stringify({ restore: [], remove: [2] }));
    insert.run('Nothing', JSON.stringify({ restore: [], remove: [] }));
    h.db.prepare(`UPDATE item_csl SET csl = json_set(csl, '$.title', 'Changed') WHERE item_id = 1`).run();
    migrateTo(h.db, 14);

    expect(h.db.prepare('SELECT label, item_ids, fingerprint FROM undo_log ORDER BY id').raw().all()).toEqual([
      ['Edit item', '[1]', null],
      ['Add item', '[2]', null],
      ['Nothing', '[]', null],
    ]);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.undoHistory().undo.map((e) => [e.label, e.itemIds, e.itemCount])).toEqual([
        ['Nothing', [], 0],
        ['Add item', [2], 1],
        ['Edit item', [1], 1],
      ]);
      expect(lib.undo()).toBe('Nothing');
      // An entry from before: the item it created goes to the Trash, not away.
      expect(lib.undoStep()).toEqual({ label: 'Add item', itemIds: [2], trashed: [2] });
      expect(lib.getItem(2).trashedAt).not.toBeNull();
      expect(lib.undo()).toBe('Edit item');
      expect(lib.getItem(1).csl.title).not.toBe('Changed');
      expect(lib.redo()).toBe('Edit item');
      expect(lib.getItem(1).csl.title).toBe('Changed');
    } finally {
      opened.close();
    }
  });
});
