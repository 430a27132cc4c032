import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import type { Collection } from '../../../../shared/service';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0010 service collections', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds kept service collections and the journal index cache to a populated version-9 database, which then opens as a working library', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 7);
    h.db
      .prepare(
        "INSERT INTO service_journal_notices (issn, found, data, fetched_at) VALUES ('0028-0836', 1, '{\"totalRetractions\":2}', 5)",
      )
      .run();
    h.db.prepare(`UPDATE items SET csl = json_set(csl, '$.ISSN', '0028-0836') WHERE id = 1`).run();
    // Version 9's own data (an assistant conversation) comes through untouched.
    migrateTo(h.db, 9);
    h.db.prepare("INSERT INTO assistant_sessions (id, title, created_at, updated_at) VALUES (1, 'S', 1, 1)").run();
    h.db
      .prepare("INSERT INTO assistant_turns (session_id, position, question, created_at) VALUES (1, 0, 'q', 1)")
      .run();
    migrateTo(h.db, 10);
    expect(h.db.prepare('SELECT question FROM assistant_turns').pluck().all()).toEqual(['q']);
    expect(h.db.prepare('SELECT count(*) FROM service_collections').pluck().get()).toBe(0);
    expect(() =>
      h.db
        .prepare(
          "INSERT INTO service_collections (slug, name, origin, request, data, created_at, fetched_at) VALUES ('s', 'n', 'guess', '{}', '{}', 1, 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() =>
      h.db.prepare("INSERT INTO service_journal_index (issn, found, data, fetched_at) VALUES ('x', 2, NULL, 1)").run(),
    ).toThrow(/CHECK/);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.getItem(1)).toMatchObject({ citationKey: 'mullerDeep2020', collections: [2] });
      // The notices cached before the migration are still there, now beside the index.
      lib.serviceCollections.putJournals(
        {
          index: {
            '0028-0836': [
              {
                issns: ['0028-0836'],
                journal: 'Nature',
                journalSlug: 'nature',
                relativeYear: '2020',
                sjiAllYears: 1.2,
              },
            ],
          },
        },
        9,
      );
      expect(lib.serviceCollections.journalCache(['0028-0836'])['0028-0836']).toEqual({
        index: {
          state: 'found',
          fetchedAt: 9,
          value: [
            { issns: ['0028-0836'], journal: 'Nature', journalSlug: 'nature', relativeYear: '2020', sjiAllYears: 1.2 },
          ],
        },
        notices: { state: 'found', fetchedAt: 5, value: { totalRetractions: 2 } },
      });
      expect(lib.serviceCollections.libraryJournals()).toEqual({
        journals: [{ issn: '0028-0836', title: 'Nature', items: 1 }],
        itemsWithoutIssn: 1,
      });
      // A collection from the library collection "Thesis" (its subcollection's item), kept and listed.
      expect(lib.serviceCollections.doisOfCollection(1)).toEqual({ name: 'Thesis', dois: ['10.1000/a'], items: 1 });
      const collection: Collection = {
        id: 1,
        name: 'Thesis on the service',
        slug: 'thesis-abc',
        matchedDoiCount: 1,
        unmatchedDoiCount: 0,
        totalDoiCount: 1,
        doiQuery: { query: { dois: ['10.1000/a'] }, queryType: 'list' },
      };
      const kept = lib.serviceCollections.save(
        collection,
        { kind: 'collection', collectionId: 1, collectionName: 'Thesis', dois: 1 },
        20,
      );
      expect(lib.serviceCollections.list()).toEqual([
        {
          id: kept.id,
          slug: 'thesis-abc',
          name: 'Thesis on the service',
          origin: { kind: 'collection', collectionId: 1, collectionName: 'Thesis', dois: 1 },
          matched: 1,
          unmatched: 0,
          total: 1,
          warning: null,
          createdAt: 20,
          fetchedAt: 20,
        },
      ]);
    } finally {
      opened.close();
    }
  });
});
