import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

describe('library search', () => {
  let t: TestLibrary;
  let ids: Record<string, number>;
  beforeEach(() => {
    t = testLibrary();
    const r = importItems(t.library, [
      article('Deep learning for protein folding', 'Müller', 2018, {
        DOI: '10.1000/a',
        abstract: 'We fold proteins.',
        'container-title': 'Nature',
        keyword: 'ml',
      }),
      article('Protein structure prediction', 'Muller', 2012, { DOI: '10.1000/b', 'container-title': 'Science' }),
      article('Climate change and oceans', 'García', 2021, { DOI: '10.1000/c', abstract: 'Learning from ocean data.' }),
      {
        id: 'book',
        type: 'book',
        title: 'A history of neural networks',
        author: [{ family: 'Smith' }],
        issued: { 'date-parts': [[1999]] },
      },
      article('Résumé of café culture', 'Dupont', 2005),
    ]);
    const [a, b, c, d, e] = r.ids as [number, number, number, number, number];
    ids = { a, b, c, d, e };
  });
  afterEach(() => t.dispose());

  const find = (query: string): number[] =>
    t.library.listing
      .list({ query, limit: 100 })
      .rows.map((r) => r.id)
      .sort((x, y) => x - y);

  it('matches words as prefixes across title, abstract, creators, container, tags, notes and key', () => {
    expect(find('prot')).toEqual([ids.a, ids.b]);
    expect(find('ocean')).toEqual([ids.c]);
    expect(find('nature')).toEqual([ids.a]);
    expect(find('ml')).toEqual([ids.a]);
    t.library.addNote(ids.d!, 'Read for the seminar on perceptrons');
    expect(find('perceptron')).toEqual([ids.d]);
    expect(find('smithHistory')).toEqual([ids.d]);
  });

  it('is diacritic-insensitive both ways', () => {
    expect(find('Müller')).toEqual([ids.a, ids.b]);
    expect(find('muller')).toEqual([ids.a, ids.b]);
    expect(find('author:Muller')).toEqual([ids.a, ids.b]);
    expect(find('resume cafe')).toEqual([ids.e]);
    expect(find('garcia')).toEqual([ids.c]);
  });

  it('ranks title hits above abstract hits (bm25)', () => {
    importItems(t.library, [article('Learning theory', 'Zed', 2000)]);
    const rows = t.library.listing.list({ query: 'learning' }).rows;
    expect(rows[0]!.title).toBe('Learning theory');
    expect(rows.map((r) => r.id)).toContain(ids.c);
  });

  it('supports fields, phrases, ranges and boolean operators', () => {
    expect(find('title:protein')).toEqual([ids.a, ids.b]);
    expect(find('"protein folding"')).toEqual([ids.a]);
    expect(find('"folding protein"')).toEqual([]);
    expect(find('year:2010..2020')).toEqual([ids.a, ids.b]);
    expect(find('year:<2000')).toEqual([ids.d]);
    expect(find('type:book')).toEqual([ids.d]);
    expect(find('doi:10.1000/B')).toEqual([ids.b]);
    expect(find('doi:10.1000/*')).toEqual([ids.a, ids.b, ids.c]);
    expect(find('key:smith*')).toEqual([ids.d]);
    expect(find('tag:ML')).toEqual([ids.a]);
    expect(find('protein OR climate')).toEqual([ids.a, ids.b, ids.c]);
    expect(find('protein -deep')).toEqual([ids.b]);
    expect(find('protein NOT year:2018')).toEqual([ids.b]);
    expect(find('(author:muller OR author:garcia) year:>2015')).toEqual([ids.a, ids.c]);
    expect(find('journal:science OR type:book')).toEqual([ids.b, ids.d]);
  });

  it('filters by collection (with subcollections) and by evidence', () => {
    const top = t.library.createCollection('Thesis');
    const sub = t.library.createCollection('Methods', top);
    t.library.addToCollection(sub, [ids.b!]);
    expect(find('collection:thesis')).toEqual([ids.b]);
    t.library.serviceCache.putTallies({
      found: {
        '10.1000/a': { total: 20, supporting: 12, contrasting: 1, mentioning: 7, unclassified: 0 },
        '10.1000/b': { total: 0, supporting: 0, contrasting: 0, mentioning: 0, unclassified: 0 },
      },
      unknown: ['10.1000/c'],
    });
    expect(find('supporting:>10')).toEqual([ids.a]);
    expect(find('contrasting:>0')).toEqual([ids.a]);
    expect(find('mentioning:0')).toEqual([ids.b]);
    t.library.serviceCache.putNotices('10.1000/b', [{ status: 'Retracted', date: '2020-1-1' }]);
    t.library.serviceCache.putNotices('10.1000/c', [{ status: 'Has correction' }], false);
    expect(find('retracted:yes')).toEqual([ids.b]);
    expect(find('notice:any')).toEqual([ids.b, ids.c]);
    expect(find('notice:correction')).toEqual([ids.c]);
    expect(find('retracted:no')).toEqual([ids.a, ids.c, ids.d, ids.e]);
  });

  it('rejects a malformed query with a clear message and its position', () => {
    try {
      t.library.listing.list({ query: 'title:"unclosed' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CoreError);
      expect(err).toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/never closed/),
        details: { start: 6 },
      });
    }
    expect(() => t.library.listing.count({ query: 'year:soon' })).toThrow(/needs a year/);
  });

  it('counts through the same filters', () => {
    expect(t.library.listing.count({ query: 'protein' })).toBe(2);
    expect(t.library.listing.count()).toBe(5);
  });

  it('saves searches, validating them', () => {
    const id = t.library.listing.saveSearch('Proteins', 'title:protein', { column: 'year', direction: 'desc' });
    expect(t.library.listing.listSavedSearches()).toEqual([
      { id, name: 'Proteins', query: 'title:protein', sort: { column: 'year', direction: 'desc' } },
    ]);
    expect(t.library.listing.saveSearch('proteins', 'protein year:>2000')).toBe(id);
    expect(() => t.library.listing.saveSearch('Bad', 'year:')).toThrow(CoreError);
    t.library.listing.deleteSavedSearch(id);
    expect(t.library.listing.listSavedSearches()).toEqual([]);
  });
});

describe('relevance order', () => {
  let t: TestLibrary;
  afterEach(() => t.dispose());

  it('is the index’s configured rank (bm25 with its column weights), on the plain and the filtered path, page after page', () => {
    t = testLibrary();
    const words = ['learning', 'protein', 'ocean', 'climate', 'network', 'model'];
    const items = Array.from({ length: 120 }, (_, i) =>
      article(
        `${words[i % 6]} ${words[(i * 7) % 6]} study ${i % 3 === 0 ? 'learning learning' : ''}`,
        i % 4 === 0 ? 'Learning' : 'Other',
        1990 + (i % 30),
        {
          abstract: i % 5 === 0 ? 'learning about learning' : 'an abstract',
        },
      ),
    );
    importItems(t.library, items);
    const byRank = (match: string, where = '1'): number[] =>
      t.db
        .prepare(
          `SELECT f.rowid FROM items_fts f JOIN items i ON i.id = f.rowid WHERE items_fts MATCH ? AND ${where} ORDER BY f.rank, f.rowid`,
        )
        .pluck()
        .all(match) as number[];
    const pages = (query: string): number[] => {
      const out: number[] = [];
      let cursor: string | undefined;
      do {
        const page = t.library.listing.list({ query, limit: 7, ...(cursor ? { cursor } : {}) });
        out.push(...page.rows.map((r) => r.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return out;
    };
    expect(pages('learn')).toEqual(byRank('"learn"*'));
    expect(pages('learning year:>2000')).toEqual(byRank('"learning"*', 'i.year >= 2001'));
  });

  it('pages a search whose best matches are in the trash without skipping or repeating items, and keeps Unfiled to unfiled items', () => {
    const t = testLibrary();
    const items = Array.from({ length: 30 }, (_, i) =>
      article(`Learning ${'learning '.repeat(i % 5)}study ${i}`, `Author${i}`, 2000 + i),
    );
    const added = importItems(t.library, items).ids;
    // The best-ranked matches go to the trash; later pages must still count only what is listed.
    const best = t.library.listing.list({ query: 'learning', limit: 6 }).rows.map((r) => r.id);
    t.library.trashItems(best);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = t.library.listing.list({ query: 'learning', limit: 5, ...(cursor ? { cursor } : {}) });
      seen.push(...page.rows.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const live = added.filter((id) => !best.includes(id));
    expect(seen.length).toBe(new Set(seen).size);
    expect([...seen].sort((x, y) => x - y)).toEqual(live);

    const shelf = t.library.createCollection('Shelf');
    t.library.addToCollection(shelf, live.slice(0, 10));
    const unfiled = t.library.listing.list({ query: 'learning', unfiled: true, limit: 100 }).rows.map((r) => r.id);
    expect(unfiled.sort((x, y) => x - y)).toEqual(live.slice(10));
    t.dispose();
  });
});
