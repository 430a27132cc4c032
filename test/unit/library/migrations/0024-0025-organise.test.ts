import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migrations 0024 tags and relations, 0025 collection trash', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('add coloured tags, relations and a Trash for collections to a populated version-23 library', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 23);
    const before = h.db.prepare('SELECT id, parent_id, name FROM collections ORDER BY id').raw().all();
    migrateTo(h.db, 24);
    expect(h.db.prepare('SELECT count(*) FROM tag_colors').pluck().get()).toBe(0);
    expect(h.db.prepare('SELECT count(*) FROM item_relations').pluck().get()).toBe(0);
    // One row per pair, the smaller id first.
    expect(() => h.db.exec('INSERT INTO item_relations VALUES (2, 1, 0)')).toThrow(/CHECK/);
    expect(() => h.db.exec("INSERT INTO tag_colors VALUES ('x', '#000000', 10)")).toThrow(/CHECK/);
    migrateTo(h.db, 25);
    expect(h.db.prepare('SELECT id, parent_id, name FROM collections ORDER BY id').raw().all()).toEqual(before);
    expect(h.db.prepare('SELECT count(*) FROM collections WHERE trashed_at IS NOT NULL').pluck().get()).toBe(0);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.listCollections().map((c) => c.name)).toEqual(['Chapter', 'Thesis']);
      lib.relateItems(2, [1]);
      expect(lib.relatedTo(1).map((r) => r.id)).toEqual([2]);
      lib.setTagColor('ml', '#ff6666');
      expect(lib.tagColors()).toEqual([{ name: 'ml', color: '#ff6666', position: 1, count: 1 }]);
      lib.trashCollection(1);
      expect(lib.listCollections()).toEqual([]);
      lib.restoreCollection(1);
      expect(lib.getItem(1).collections).toEqual([2]);
    } finally {
      opened.close();
    }
  });
});
