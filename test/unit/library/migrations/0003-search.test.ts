import { afterEach, describe, expect, it } from 'vitest';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0003 search', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('indexes the items already in a populated version-2 database', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 3);
    const match = (q: string): number[] =>
      h.db.prepare('SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid').pluck().all(q) as number[];
    expect(match('muller')).toEqual([1]); // creators, diacritics folded
    expect(match('jorg')).toEqual([1]);
    expect(match('neural')).toEqual([1]); // abstract from the CSL
    expect(match('ml')).toEqual([1]); // tags
    expect(match('seminal')).toEqual([2]); // notes
    expect(match('nature')).toEqual([1]); // container
    expect(match('{citation_key}: smithbook1999')).toEqual([2]);
    expect(h.db.prepare('SELECT count(*) FROM saved_searches').pluck().get()).toBe(0);
    expect(h.db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(2);
  });
});
