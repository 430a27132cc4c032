import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0011 filter index', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds the narrow filter index to a populated version-10 database, whose filtered searches then use it and find the same items', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 10);
    // Version 10's own data (a kept service collection) comes through untouched.
    h.db
      .prepare(
        "INSERT INTO service_collections (slug, name, origin, request, data, created_at, fetched_at) VALUES ('s', 'n', 'items', '{}', '{}', 1, 1)",
      )
      .run();
    migrateTo(h.db, 11);
    expect(h.db.prepare('SELECT slug FROM service_collections').pluck().all()).toEqual(['s']);
    const index = h.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'items_filter'").pluck().get() as string;
    expect(index).toMatch(/items\(id, trashed_at, year, type, supporting, contrasting, mentioning, citing\)/);
    expect(h.db.pragma('integrity_check', { simple: true })).toBe('ok');
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.listing.list({ query: 'deep year:2020' }).rows.map((r) => r.citationKey)).toEqual(['mullerDeep2020']);
      expect(lib.listing.list({ query: 'deep year:<2000' }).rows).toEqual([]);
      expect(lib.listing.list({ query: 'a -type:article-journal' }).rows.map((r) => r.citationKey)).toEqual([
        'smithBook1999',
      ]);
      lib.trashItems([1]);
      expect(lib.listing.list({ query: 'deep year:2020' }).rows).toEqual([]);
      expect(lib.listing.list({ query: 'deep year:2020', trash: true }).rows.map((r) => r.citationKey)).toEqual([
        'mullerDeep2020',
      ]);
    } finally {
      opened.close();
    }
  });
});
