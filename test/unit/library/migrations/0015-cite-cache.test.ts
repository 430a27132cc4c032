import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0015 cite cache', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds an empty bibliography cache to a populated version-14 database, whose items stay and whose cache then works', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 14);
    const items = h.db.prepare('SELECT id, citation_key FROM items ORDER BY id').raw().all();
    migrateTo(h.db, 15);
    expect(h.db.prepare('SELECT count(*) FROM cite_cache').pluck().get()).toBe(0);
    expect(h.db.prepare('SELECT id, citation_key FROM items ORDER BY id').raw().all()).toEqual(items);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const key = 'k'.repeat(43);
      expect(opened.library.citeCache.get(key)).toBeNull();
      expect(
        opened.library.citeCache.put(key, { style: 'apa', format: 'text' }, [
          { id: 'mullerDeep2020', value: 'Müller, J. (2020). Deep learning.' },
        ]),
      ).toBe(true);
      expect(opened.library.citeCache.get(key)).toEqual([
        { id: 'mullerDeep2020', value: 'Müller, J. (2020). Deep learning.' },
      ]);
    } finally {
      opened.close();
    }
  });
});
