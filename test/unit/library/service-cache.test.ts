import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { article, testLibrary, type TestLibrary } from './helpers/lib';

describe('cached service data', () => {
  let t: TestLibrary;
  beforeEach(() => (t = testLibrary()));
  afterEach(() => t.dispose());

  it('keeps tallies keyed by normalised DOI with fetch time, telling unknown from zero from not fetched', () => {
    t.library.serviceCache.putTallies(
      {
        found: {
          'HTTPS://DOI.ORG/10.1000/A': { total: 0, supporting: 0, contrasting: 0, mentioning: 0, unclassified: 0 },
        },
        unknown: ['10.1000/u'],
      },
      1000,
    );
    expect(t.library.serviceCache.getTallies(['10.1000/a', 'doi:10.1000/U', '10.1000/none', 'junk'])).toEqual({
      '10.1000/a': {
        state: 'found',
        fetchedAt: 1000,
        total: 0,
        supporting: 0,
        contrasting: 0,
        mentioning: 0,
        unclassified: 0,
        citingPublications: null,
      },
      'doi:10.1000/U': { state: 'unknown', fetchedAt: 1000 },
      '10.1000/none': { state: 'not-fetched' },
      junk: { state: 'not-fetched' },
    });
    // A later fetch replaces the row: unknown → found.
    t.library.serviceCache.putTallies(
      {
        found: {
          '10.1000/u': {
            total: 3,
            supporting: 1,
            contrasting: 1,
            mentioning: 1,
            unclassified: 0,
            citingPublications: 2,
          },
        },
      },
      2000,
    );
    expect(t.library.serviceCache.getTallies(['10.1000/u'])['10.1000/u']).toMatchObject({
      state: 'found',
      fetchedAt: 2000,
      citingPublications: 2,
    });
  });

  it('copies tallies onto items for sorting, whenever the item or the tally comes first', () => {
    const before = t.library.addItem(article('Before', 'A', 2000, { DOI: '10.1000/b' }));
    t.library.serviceCache.putTallies({
      found: {
        '10.1000/b': { total: 5, supporting: 5, contrasting: 0, mentioning: 0, unclassified: 0 },
        '10.1000/c': { total: 9, supporting: 9, contrasting: 0, mentioning: 0, unclassified: 0 },
      },
    });
    const after = t.library.addItem(article('After', 'B', 2000, { DOI: '10.1000/c' }));
    const rows = t.library.listing.list({ sort: { column: 'supporting', direction: 'desc' } }).rows;
    expect(rows.map((r) => r.id)).toEqual([after, before]);
    // Changing an item's DOI picks up the other DOI's tallies.
    t.library.updateItem(before, { ...t.library.getItem(before).csl, DOI: '10.1000/none' });
    expect(t.library.getItem(before).evidence).toEqual({ state: 'not-fetched' });
    expect(t.library.listing.list({ query: 'supporting:>0' }).rows.map((r) => r.id)).toEqual([after]);
  });

  it('stores papers (with preprint links and notices), statements and journal notices with their states', () => {
    t.library.serviceCache.putPapers(
      {
        found: {
          '10.1000/p': {
            title: 'P',
            retracted: true,
            editorialNotices: [{ status: 'Retracted', noticeDoi: '10.1000/n' }],
            preprintLinks: [],
            publicationLinks: [],
          },
        },
        unknown: ['10.1000/q'],
      },
      5,
    );
    expect(t.library.serviceCache.getPaper('10.1000/P')).toMatchObject({
      state: 'found',
      fetchedAt: 5,
      paper: { title: 'P' },
    });
    expect(t.library.serviceCache.getPaper('10.1000/q')).toEqual({ state: 'unknown', fetchedAt: 5 });
    expect(t.library.serviceCache.getPaper('10.1000/r')).toEqual({ state: 'not-fetched' });
    expect(t.library.serviceCache.getNotices('10.1000/p')).toMatchObject({
      state: 'found',
      retracted: true,
      notices: [{ status: 'Retracted' }],
    });
    t.library.serviceCache.putNotices('10.1000/q', null, undefined, 6);
    expect(t.library.serviceCache.getNotices('10.1000/q')).toEqual({ state: 'unknown', fetchedAt: 6 });

    t.library.serviceCache.putStatements('10.1000/p', [{ text: 'supports', type: 'supporting' }], 7);
    expect(t.library.serviceCache.getStatements('10.1000/p')).toEqual({
      state: 'found',
      fetchedAt: 7,
      statements: [{ text: 'supports', type: 'supporting' }],
    });
    t.library.serviceCache.putJournalNotices('0028-0836', { totalRetractions: 2 }, 8);
    expect(t.library.serviceCache.getJournalNotices('00280836')).toEqual({
      state: 'found',
      fetchedAt: 8,
      notices: { totalRetractions: 2 },
    });
    expect(() => t.library.serviceCache.putJournalNotices('1234-5678', {})).toThrow(/check digit/);
  });

  it('lists DOIs whose cache is missing or stale, for a refresh that never fetches everything at once', () => {
    t.library.importItems([
      article('A', 'A', 2000, { DOI: '10.1000/a' }),
      article('B', 'B', 2000, { DOI: '10.1000/b' }),
      article('C', 'C', 2000),
    ]);
    t.library.serviceCache.putTallies(
      { found: { '10.1000/a': { total: 1, supporting: 1, contrasting: 0, mentioning: 0, unclassified: 0 } } },
      100,
    );
    expect(t.library.serviceCache.staleDois('tallies', 50).sort()).toEqual(['10.1000/b']);
    expect(t.library.serviceCache.staleDois('tallies', 200).sort()).toEqual(['10.1000/a', '10.1000/b']);
  });
});
