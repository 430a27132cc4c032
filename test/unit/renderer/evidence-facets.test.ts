// MAUDE facet counts, read from the shapes a service may send, largest first.
import { describe, expect, it } from 'vitest';
import { facetBuckets } from '../../../renderer/src/panes/evidence/facets';

describe('facet buckets', () => {
  it('reads [{key, docCount}], doc_count and count, largest first, ties by name', () => {
    expect(
      facetBuckets([
        { key: 'Injury', docCount: 5 },
        { key: 'Malfunction', doc_count: 9 },
        { value: 'Death', count: 5 },
      ]),
    ).toEqual([
      { key: 'Malfunction', count: 9 },
      { key: 'Death', count: 5 },
      { key: 'Injury', count: 5 },
    ]);
  });

  it('reads a map of value → count', () => {
    expect(facetBuckets({ II: 3, III: 7 })).toEqual([
      { key: 'III', count: 7 },
      { key: 'II', count: 3 },
    ]);
  });

  it('drops what is not a count: missing keys, non-numbers, negatives; anything else is no buckets', () => {
    expect(
      facetBuckets([
        { key: 'a' },
        { docCount: 3 },
        { key: 'b', docCount: 'x' },
        { key: 'c', docCount: -1 },
        null,
        7,
        { key: 4, docCount: 1 },
      ]),
    ).toEqual([{ key: '4', count: 1 }]);
    expect(facetBuckets('nonsense')).toEqual([]);
    expect(facetBuckets(undefined)).toEqual([]);
  });
});
