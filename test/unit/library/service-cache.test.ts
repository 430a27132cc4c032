import { NEED_TALLIES } from '../../../electron/core/library/enrichment-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

describe('cached service data', () => {
  let t: TestLibrary;
  beforeEach(() => (t = testLibrary()));
  afterEach(() => t.dispose());

  /** A cache row as stored (the store has no reader for notices: items and filters join the table). */
  const row = (table: 'service_notices' | 'service_journal_notices', key: string): unknown =>
    t.db
      .prepare(`SELECT * FROM ${table} WHERE ${table === 'service_notices' ? 'doi' : 'issn'} = ?`)
      .get(key) as unknown;

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

  it('stores papers (with preprint links and notices) and journal notices with their states', () => {
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
    expect(row('service_notices', '10.1000/p')).toMatchObject({
      found: 1,
      retracted: 1,
      kinds: ',retracted,',
      data: JSON.stringify([{ status: 'Retracted', noticeDoi: '10.1000/n' }]),
      fetched_at: 5,
    });
    const p = t.library.addItem(article('P', 'A', 2000, { DOI: '10.1000/p' }));
    expect(t.library.getItem(p)).toMatchObject({ retracted: true, notices: ['retracted'] });
    t.library.serviceCache.putNotices('10.1000/Q', null, undefined, 6);
    expect(row('service_notices', '10.1000/q')).toMatchObject({ found: 0, data: null, fetched_at: 6 });
    expect(() => t.library.serviceCache.putNotices('junk', [])).toThrow('"junk" is not a valid DOI.');

    // Journal notices are the journal cache's (service-collections-store.ts), keyed by normalised ISSN.
    t.library.serviceCollections.putJournalNotices('00280836', { totalRetractions: 2 }, 8);
    expect(row('service_journal_notices', '0028-0836')).toMatchObject({
      found: 1,
      data: JSON.stringify({ totalRetractions: 2 }),
      fetched_at: 8,
    });
    expect(() => t.library.serviceCollections.putJournalNotices('1234-5678', null)).toThrow(/check digit/);
  });

  it('lists DOIs whose cache is missing or stale, for a refresh that never fetches everything at once', () => {
    importItems(t.library, [
      article('A', 'A', 2000, { DOI: '10.1000/a' }),
      article('B', 'B', 2000, { DOI: '10.1000/b' }),
      article('C', 'C', 2000),
    ]);
    t.library.serviceCache.putTallies(
      { found: { '10.1000/a': { total: 1, supporting: 1, contrasting: 0, mentioning: 0, unclassified: 0 } } },
      100,
    );
    // What a refresh queues (EnrichmentStore.enqueueStale, tallies only): each run is read, then dropped.
    const stale = (cutoff: number, limit = 1000): string[] => {
      const { run } = t.enrichment.enqueueStale({ papers: 0, notices: 0, tallies: cutoff }, limit, {
        only: NEED_TALLIES,
      });
      if (!run) return [];
      const dois = t.enrichment.nextBatch(run.id, 10).map((q) => q.doi);
      t.enrichment.cancelRun(run.id);
      return dois;
    };
    // Fetched at 100: stale only before a cutoff past it. Never fetched (b) is always due, and comes first.
    expect(stale(100)).toEqual(['10.1000/b']);
    expect(stale(101)).toEqual(['10.1000/b', '10.1000/a']);
    expect(stale(101, 1)).toEqual(['10.1000/b']);
  });
});
