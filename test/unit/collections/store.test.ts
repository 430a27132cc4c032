import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issnsOf } from '../../../electron/core/library/service-collections-store';
import type { Collection } from '../../../shared/service';
import { article, testLibrary, type TestLibrary, importItems } from '../library/helpers/lib';

const collection = (slug: string, dois: string[], extra: Partial<Collection> = {}): Collection => ({
  id: 9001,
  name: 'Reefs',
  slug,
  doiQuery: { query: { dois }, queryType: 'list' },
  matchedDoiCount: dois.length,
  unmatchedDoiCount: 1,
  totalDoiCount: dois.length + 1,
  unmatchedDois: ['10.9999/none'],
  warning: '1 of 3 DOIs could not be matched',
  refreshStatus: '-',
  ...extra,
});

describe('the service collections store', () => {
  let t: TestLibrary;
  beforeEach(() => {
    t = testLibrary();
  });
  afterEach(() => t.dispose());

  it('keeps a collection, lists it newest first, refreshes it in place, and forgets it', () => {
    const lib = t.library;
    const a = lib.serviceCollections.save(
      collection('reefs-a', ['10.1000/a', '10.1000/b']),
      { kind: 'items', dois: 3 },
      100,
    );
    const b = lib.serviceCollections.save(
      collection('reefs-b', ['10.1000/c'], { name: 'Corals' }),
      { kind: 'query', query: { term: 'coral' } },
      200,
    );
    expect(
      lib.serviceCollections.list().map((c) => [c.slug, c.name, c.matched, c.unmatched, c.total, c.warning]),
    ).toEqual([
      ['reefs-b', 'Corals', 1, 1, 2, '1 of 3 DOIs could not be matched'],
      ['reefs-a', 'Reefs', 2, 1, 3, '1 of 3 DOIs could not be matched'],
    ]);
    const refreshed = lib.serviceCollections.update(
      a.id,
      collection('reefs-a', ['10.1000/a', '10.1000/b', '10.1000/d'], {
        warning: '',
        unmatchedDoiCount: 0,
        unmatchedDois: [],
        totalDoiCount: 3,
      }),
      300,
    );
    expect(refreshed).toMatchObject({
      id: a.id,
      matched: 3,
      unmatched: 0,
      total: 3,
      warning: null,
      createdAt: 100,
      fetchedAt: 300,
      origin: { kind: 'items', dois: 3 },
    });
    expect(lib.serviceCollections.get(a.id).collection.doiQuery?.query?.dois).toEqual([
      '10.1000/a',
      '10.1000/b',
      '10.1000/d',
    ]);
    expect(() => lib.serviceCollections.update(a.id, collection('other', []))).toThrow(/another collection/);
    lib.serviceCollections.remove(b.id);
    expect(lib.serviceCollections.list().map((c) => c.slug)).toEqual(['reefs-a']);
    expect(() => lib.serviceCollections.get(b.id)).toThrow(/not kept/);
  });

  it('reads the DOIs of a selection and of a collection with its subcollections, leaving out items without a DOI and trashed ones', () => {
    const lib = t.library;
    const { ids } = importItems(lib, [
      article('A', 'X', 2001, { DOI: '10.1000/A' }),
      article('B', 'Y', 2002),
      article('C', 'Z', 2003, { DOI: '10.1000/c' }),
      article('D', 'W', 2004, { DOI: '10.1000/d' }),
    ]);
    const [a, b, c, d] = ids as [number, number, number, number];
    lib.trashItems([d]);
    expect(lib.serviceCollections.doisOfItems([c, b, a, d, a])).toEqual(['10.1000/c', '10.1000/a']);
    const top = lib.createCollection('Top');
    const sub = lib.createCollection('Sub', top);
    lib.addToCollection(top, [a, b]);
    lib.addToCollection(sub, [c, d]);
    expect(lib.serviceCollections.doisOfCollection(top)).toEqual({
      name: 'Top',
      dois: ['10.1000/a', '10.1000/c'],
      items: 3,
    });
    expect(
      lib.serviceCollections.doisInLibrary(['https://doi.org/10.1000/A', '10.1000/d', '10.1000/zzz', 'nonsense']),
    ).toEqual(['10.1000/a']);
  });

  it('groups the library by journal: the ISSN field first, else the service’s paper, each item once', () => {
    const lib = t.library;
    importItems(lib, [
      article('A', 'X', 2001, { ISSN: '0028-0836, 1476-4687', 'container-title': 'Nature' }),
      article('B', 'X', 2001, { ISSN: '00280836', 'container-title': 'Nature (London)' }),
      article('C', 'X', 2001, { ISSN: '0028-0836', 'container-title': 'Nature' }),
      article('D', 'X', 2001, { DOI: '10.1000/d', 'container-title': 'Science' }),
      article('E', 'X', 2001, { ISSN: 'not an issn' }),
    ]);
    lib.serviceCache.putPapers({
      found: { '10.1000/d': { doi: '10.1000/d', issns: ['0036-8075'], title: 'D' } as never },
      unknown: [],
    });
    expect(lib.serviceCollections.libraryJournals()).toEqual({
      journals: [
        { issn: '0028-0836', title: 'Nature', items: 3 },
        { issn: '0036-8075', title: 'Science', items: 1 },
      ],
      itemsWithoutIssn: 1,
    });
    expect(lib.serviceCollections.journalInLibrary('0036-8075')).toEqual({ items: 1, title: 'Science' });
    // Remembered only until the library changes: a new item (its ISSN as an array) counts at once.
    importItems(lib, [
      article('F', 'X', 2002, { ISSN: ['1476-4687', '0028-0836'] as never, 'container-title': 'Nature' }),
    ]);
    expect(lib.serviceCollections.libraryJournals().journals).toEqual([
      { issn: '0028-0836', title: 'Nature', items: 3 },
      { issn: '0036-8075', title: 'Science', items: 1 },
      { issn: '1476-4687', title: 'Nature', items: 1 },
    ]);
  });

  it('reads ISSN fields as researchers write them', () => {
    expect(issnsOf('0028-0836 1476-4687')).toEqual(['0028-0836', '1476-4687']);
    expect(issnsOf(['1476-4687', '0028-0836'])).toEqual(['1476-4687', '0028-0836']);
    expect(issnsOf('0028-0837')).toEqual([]);
    expect(issnsOf(null)).toEqual([]);
  });
});
