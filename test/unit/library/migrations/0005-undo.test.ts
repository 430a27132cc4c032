import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0005 undo', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds the undo log to a populated version-4 database, which then opens as a working library', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 4);
    h.db
      .prepare(
        "INSERT INTO service_tallies (doi, found, total, supporting, contrasting, mentioning, unclassified, fetched_at) VALUES ('10.1000/a', 1, 1, 1, 0, 0, 0, 5)",
      )
      .run();
    migrateTo(h.db, 5);
    h.db.close();
    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.getItem(1)).toMatchObject({
        citationKey: 'mullerDeep2020',
        tags: ['ml'],
        collections: [2],
        evidence: { state: 'found', supporting: 1 },
      });
      lib.addTags([2], ['classic']);
      expect(lib.undo()).toMatch(/Add tag/);
      expect(lib.getItem(2).tags).toEqual([]);
      expect(lib.listing.list({ query: 'seminal' }).rows.map((r) => r.id)).toEqual([2]);
    } finally {
      opened.close();
    }
  });
});
