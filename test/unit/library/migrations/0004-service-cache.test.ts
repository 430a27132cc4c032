import { afterEach, describe, expect, it } from 'vitest';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0004 service cache', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds the cache and the tally columns to a populated version-3 database, keeping items', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 3);
    migrateTo(h.db, 4);
    expect(h.db.prepare('SELECT id, supporting FROM items ORDER BY id').all()).toEqual([
      { id: 1, supporting: null },
      { id: 2, supporting: null },
    ]);
    h.db
      .prepare(
        "INSERT INTO service_tallies (doi, found, total, supporting, contrasting, mentioning, unclassified, fetched_at) VALUES ('10.1000/a', 1, 3, 2, 1, 0, 0, 5)",
      )
      .run();
    expect(h.db.prepare('SELECT supporting, contrasting FROM items WHERE id = 1').get()).toEqual({
      supporting: 2,
      contrasting: 1,
    });
    h.db.prepare("UPDATE service_tallies SET found = 0 WHERE doi = '10.1000/a'").run();
    expect(h.db.prepare('SELECT supporting FROM items WHERE id = 1').pluck().get()).toBeNull();
    expect(() => h.db.prepare("INSERT INTO service_papers (doi, found, fetched_at) VALUES ('x', 2, 1)").run()).toThrow(
      /CHECK/,
    );
    expect(h.db.prepare("SELECT count(*) FROM items_fts WHERE items_fts MATCH 'muller'").pluck().get()).toBe(1);
  });
});
