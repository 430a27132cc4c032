import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';
import { importItems } from '../helpers/lib';

describe('migration 0013 search index hash size', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('sets an 8 MB hash on the search index of a populated version-12 database, which then finds what it found and what is added', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 12);
    const before = h.db
      .prepare("SELECT rowid FROM items_fts WHERE items_fts MATCH 'neural' ORDER BY rowid")
      .pluck()
      .all();
    migrateTo(h.db, 13);
    expect(h.db.prepare("SELECT v FROM items_fts_config WHERE k = 'hashsize'").pluck().get()).toBe(8388608);
    expect(
      h.db.prepare("SELECT rowid FROM items_fts WHERE items_fts MATCH 'neural' ORDER BY rowid").pluck().all(),
    ).toEqual(before);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.listing.list({ query: 'neural' }).rows.map((r) => r.citationKey)).toEqual(['mullerDeep2020']);
      const added = importItems(
        lib,
        Array.from({ length: 300 }, (_, i) => ({
          id: `g${i}`,
          type: 'article-journal' as const,
          title: `Graphene study ${i}`,
          abstract: 'Layers of carbon',
        })),
      );
      expect(added.added).toBe(300);
      expect(lib.listing.list({ query: 'graphene carbon', limit: 500 }).rows).toHaveLength(300);
      expect(
        opened.db.prepare("INSERT INTO items_fts (items_fts) VALUES ('integrity-check')").run().changes,
      ).toBeGreaterThanOrEqual(0);
    } finally {
      opened.close();
    }
  });
});
