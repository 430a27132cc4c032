import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { ZOTERO_KEY } from '../../../../electron/core/library/zotero-room';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0022 zotero keys', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it("keeps a version-21 library's items as they were, and gives them stored Zotero keys and versions", () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 21);
    const before = h.db.prepare('SELECT id, citation_key, date_modified FROM items ORDER BY id').raw().all();
    migrateTo(h.db, 22);
    expect(h.db.prepare('SELECT id, citation_key, date_modified FROM items ORDER BY id').raw().all()).toEqual(before);
    expect(h.db.prepare('SELECT count(*) FROM zotero_keys').pluck().get()).toBe(0);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      const ids = (before as [number][]).map((r) => r[0]);
      const keys = lib.zoteroKeysOf('item', ids);
      expect(keys.every((k) => ZOTERO_KEY.test(k))).toBe(true);
      expect(new Set(keys).size).toBe(keys.length);
      // Stored: the same keys again, and each names its item.
      expect(lib.zoteroKeysOf('item', ids)).toEqual(keys);
      expect(lib.zoteroObject(keys[0]!)).toEqual({ kind: 'item', id: ids[0] });
      // Filing an item (no date_modified change) makes it newer for `since=`.
      const version = lib.zoteroLibraryVersion();
      const c = lib.createCollection('Later');
      lib.addToCollection(c, [ids[0]!]);
      expect(lib.zoteroItemsSince(version)).toEqual([ids[0]]);
      expect(lib.zoteroLibraryVersion()).toBeGreaterThan(version);
    } finally {
      opened.close();
    }
  });
});
