// An item's preprints and published versions from the service cache: links from either side, named
// from the library's item or the cached record, the Trash, items without a DOI, and records whose
// links are malformed (stored without them, never a failed batch).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseQuery } from '../../../shared/model/query';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

const PRE = '10.1101/2020.01.01.000001';
const PUB = '10.1038/published';

describe('paper versions', () => {
  let t: TestLibrary;
  beforeEach(() => (t = testLibrary()));
  afterEach(() => t.dispose());

  it("names a preprint's published version from the cache, then from the library once it is added", () => {
    const pre = t.library.addItem(article('A Preprint on Dreams', 'Early', 2020, { DOI: PRE, type: 'article' }));
    expect(t.library.paperVersions(pre)).toEqual({ doi: PRE, published: [], preprints: [] });

    t.library.serviceCache.putPapers({
      found: {
        [PRE]: {
          title: 'A Preprint on Dreams',
          publicationLinks: [{ publishedDoi: '10.1038/PUBLISHED' }],
          preprintLinks: [],
        },
      },
    });
    expect(t.library.paperVersions(pre).published).toEqual([
      { doi: PUB, itemId: null, citationKey: null, title: null, journal: null, year: null, trashed: false },
    ]);

    // The published paper's own record (fetched to name it) fills in what it is.
    t.library.serviceCache.putPapers({
      found: {
        [PUB]: {
          title: 'Dreams, <i>Published</i>',
          journal: 'Nature',
          year: 2021,
          preprintLinks: [{ preprintDoi: PRE }],
          publicationLinks: [],
        },
      },
    });
    expect(t.library.paperVersions(pre).published).toEqual([
      {
        doi: PUB,
        itemId: null,
        citationKey: null,
        title: 'Dreams, <i>Published</i>',
        journal: 'Nature',
        year: 2021,
        trashed: false,
      },
    ]);

    const pub = t.library.addItem(
      article('Dreams, Published', 'Early', 2022, { DOI: PUB, 'container-title': 'Nature (London)' }),
    );
    const key = t.library.getItem(pub).citationKey;
    expect(t.library.paperVersions(pre).published).toEqual([
      {
        doi: PUB,
        itemId: pub,
        citationKey: key,
        title: 'Dreams, Published',
        journal: 'Nature (London)',
        year: 2022,
        trashed: false,
      },
    ]);
    // The other way round: the published item names its preprint.
    expect(t.library.paperVersions(pub)).toEqual({
      doi: PUB,
      published: [],
      preprints: [
        {
          doi: PRE,
          itemId: pre,
          citationKey: t.library.getItem(pre).citationKey,
          title: 'A Preprint on Dreams',
          journal: null,
          year: 2020,
          trashed: false,
        },
      ],
    });
  });

  it('finds the link from the published side alone, and says when the other version is only in the Trash', () => {
    const [pre, pub] = importItems(t.library, [
      article('Preprint', 'A', 2020, { DOI: PRE }),
      article('Published', 'A', 2021, { DOI: PUB }),
    ]).ids as [number, number];
    t.library.serviceCache.putPapers({
      found: { [PUB]: { preprintLinks: [{ preprintDoi: PRE }], publicationLinks: [] } },
    });
    expect(t.library.paperVersions(pre).published.map((v) => [v.doi, v.itemId])).toEqual([[PUB, pub]]);
    expect(t.library.paperVersions(pub).preprints.map((v) => [v.doi, v.itemId])).toEqual([[PRE, pre]]);
    t.library.trashItems([pub]);
    expect(t.library.paperVersions(pre).published).toEqual([
      { doi: PUB, itemId: null, citationKey: null, title: null, journal: null, year: null, trashed: true },
    ]);
  });

  it('has nothing to say for an item without a DOI or without links, and NOT_FOUND for no such item', () => {
    const plain = t.library.addItem(article('No DOI', 'A', 2020));
    expect(t.library.paperVersions(plain)).toEqual({ doi: null, published: [], preprints: [] });
    const other = t.library.addItem(article('Other', 'A', 2020, { DOI: '10.1000/other' }));
    t.library.serviceCache.putPapers({ found: { '10.1000/other': { preprintLinks: [], publicationLinks: [] } } });
    expect(t.library.paperVersions(other)).toEqual({ doi: '10.1000/other', published: [], preprints: [] });
    expect(() => t.library.paperVersions(9999)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('ignores a cached record whose fields are not what a paper has when naming a version', () => {
    const pre = t.library.addItem(article('Preprint', 'A', 2020, { DOI: PRE }));
    t.library.serviceCache.putPapers({
      found: {
        [PRE]: { publicationLinks: [{ publishedDoi: PUB }] },
        [PUB]: { title: { text: 'x' }, journal: 42, year: '2021' },
      },
    });
    expect(t.library.paperVersions(pre).published).toEqual([
      { doi: PUB, itemId: null, citationKey: null, title: null, journal: null, year: null, trashed: false },
    ]);
  });

  it('stores a batch whose records carry malformed links: the good links and the rest of the batch are kept', () => {
    const pre = t.library.addItem(article('Preprint', 'A', 2020, { DOI: PRE }));
    const other = t.library.addItem(article('Other', 'B', 2019, { DOI: '10.1000/other' }));
    const batch = {
      found: {
        [PRE]: {
          publicationLinks: [
            null,
            { publishedDoi: 17 },
            {},
            { publishedDoi: 'junk' },
            { publishedDoi: PUB },
            { publishedDoi: PRE },
          ],
          preprintLinks: 'none',
        },
        '10.1000/other': { preprintLinks: { preprintDoi: PRE }, publicationLinks: 5, retracted: true },
      },
    } as unknown as Parameters<typeof t.library.serviceCache.putPapers>[0];
    expect(() => t.library.serviceCache.putPapers(batch)).not.toThrow();
    // A link of a paper to itself is not a version of it.
    expect(t.library.paperVersions(pre)).toMatchObject({ published: [{ doi: PUB }], preprints: [] });
    expect(t.library.paperVersions(other)).toEqual({ doi: '10.1000/other', published: [], preprints: [] });
    expect(t.library.getItem(other)).toMatchObject({ retracted: true });
  });

  it('finds preprints with a published version (version:published) and papers with a preprint (version:preprint), from either side of the link', () => {
    const [pre, pub, pre2, plain] = importItems(t.library, [
      article('Preprint', 'A', 2020, { DOI: PRE }),
      article('Published', 'A', 2021, { DOI: PUB }),
      article('Second preprint', 'B', 2020, { DOI: '10.1101/2020.02.02.000002' }),
      article('Plain', 'C', 2019, { DOI: '10.1000/plain' }),
    ]).ids as [number, number, number, number];
    const found = (query: string) =>
      t.library.listing
        .list({ query })
        .rows.map((r) => r.id)
        .sort((a, b) => a - b);
    expect(found('version:published')).toEqual([]);
    // The first pair linked from the preprint's record, the second from its published paper's (not in the library).
    t.library.serviceCache.putPapers({
      found: {
        [PRE]: { publicationLinks: [{ publishedDoi: PUB }] },
        '10.1000/other-pub': { preprintLinks: [{ preprintDoi: '10.1101/2020.02.02.000002' }] },
      },
    });
    expect(found('version:published')).toEqual([pre, pre2]);
    expect(found('version:PREPRINT')).toEqual([pub]);
    expect(found('-version:published')).toEqual([pub, plain]);
    expect(found('version:published author:b')).toEqual([pre2]);
    t.library.trashItems([pre2]);
    expect(found('version:published')).toEqual([pre]);
  });

  it('refuses any other version: value, saying which ones it takes', () => {
    expect(() => parseQuery('version:draft')).toThrow(
      '"version:" takes published (preprints with a published version) or preprint (papers with a preprint), not "draft" (at position 9), as in version:published.',
    );
  });
});
