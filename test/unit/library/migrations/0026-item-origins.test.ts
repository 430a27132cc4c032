import { afterEach, describe, expect, it } from 'vitest';
import { importText } from '../../../../electron/core/formats';
import { m0026ItemOrigins } from '../../../../electron/core/library/migrations/0026-item-origins';
import { openLibrary } from '../../../../electron/core/library/open';
import { importParsed } from '../helpers/lib';
import { databaseAt, migrateTo, populateV2 } from './helpers';

const VERSION = m0026ItemOrigins.version;

describe('migration item origins', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds an empty origins table to a populated library; the items imported before it are still found, and keep being found after they are edited', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, VERSION - 1);
    const before = h.db.prepare('SELECT id, citation_key, title FROM items ORDER BY id').raw().all();
    migrateTo(h.db, VERSION);
    expect(h.db.prepare('SELECT id, citation_key, title FROM items ORDER BY id').raw().all()).toEqual(before);
    expect(h.db.prepare('SELECT count(*) FROM item_origins').pluck().get()).toBe(0);
    expect(h.db.pragma('integrity_check', { simple: true })).toEqual('ok');
    h.db.close();

    // smithBook1999 was imported before the migration: the rule by key and title finds it, and the
    // import records the entry's origin, by which it is found once its title was edited.
    const bib = '@book{smithBook1999,\n  title = {A Book},\n  author = {Smith},\n  year = {1999}\n}\n';
    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      const first = importParsed(lib, importText(bib).items, { source: 'old.bib' });
      expect(first).toMatchObject({ added: 0, duplicates: [{ existingId: 2, reason: 'key-title' }] });
      lib.updateItem(2, { ...lib.getItem(2).csl, title: 'A Book, second edition' });
      const again = importParsed(lib, importText(bib).items, { source: 'old.bib' });
      expect(again).toMatchObject({ added: 0, duplicates: [{ existingId: 2, reason: 'entry' }] });
      // Deleting the item for good deletes its origins; undoing that brings them back with it.
      const origins = (): number =>
        opened.db.prepare('SELECT count(*) FROM item_origins WHERE item_id = 2').pluck().get() as number;
      expect(origins()).toBe(1);
      lib.deleteItems([2]);
      expect(origins()).toBe(0);
      lib.undo();
      expect(origins()).toBe(1);
      expect(importParsed(lib, importText(bib).items, { source: 'old.bib' }).duplicates).toMatchObject([
        { existingId: 2, reason: 'entry' },
      ]);
    } finally {
      opened.close();
    }
  });
});
