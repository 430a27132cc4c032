// The text the advanced search dialog writes finds what the text it was built from finds: for every
// construct of the language, the library (query-sql.ts over SQLite) answers the printed query and the
// query rebuilt from groups and rules with the same items.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupToTree, parseQuery, printQuery, treeToGroup } from '../../../shared/model/query';
import { article, importItems, testLibrary, type TestLibrary } from './helpers/lib';

let t: TestLibrary;
beforeAll(() => {
  t = testLibrary();
  importItems(t.library, [
    article('Protein folding in vivo', 'Smith', 2012, { DOI: '10.1000/a1', keyword: 'to read, review' }),
    article('Gene expression atlas', 'van der Berg', 2016, { DOI: '10.1000/b2', abstract: 'Climate and genes' }),
    article('Deep learning for proteins', "O'Brien", 2019, { type: 'book', keyword: 'key paper' }),
    article('Soil microbes', 'Smith', 2021, { 'container-title': 'Nature', DOI: '10.2000/x' }),
  ]);
  t.library.addNote(1, 'todo: reread');
  const collection = t.library.createCollection('Chapter 2');
  t.library.addToCollection(collection, [2, 3]);
  t.library.serviceCache.putTallies({
    found: { '10.1000/a1': { total: 12, supporting: 11, contrasting: 0, mentioning: 1, unclassified: 0 } },
    unknown: [],
  });
});
afterAll(() => t.dispose());

const QUERIES = [
  'protein',
  'prot*',
  '"gene expression"',
  'title:folding OR title:"deep learning"',
  'author:"van der Berg"',
  "author:o'brien",
  'abstract:climate',
  'container:nature',
  'note:todo',
  'year:2012..2019',
  'year:>2015',
  'year:<2016',
  'supporting:>10',
  'contrasting:0',
  'type:book',
  'NOT type:book',
  'doi:10.1000/*',
  'doi:10.2000/x',
  'key:smith*',
  'tag:"to read"',
  'tag:rev*',
  'collection:"Chapter 2"',
  'retracted:no',
  'notice:none',
  'version:published',
  'smith (year:2010..2015 OR tag:"key paper") -notice:any',
  '(protein OR gene) NOT (soil OR deep)',
];

describe('printed and rebuilt queries', () => {
  it('find the same items as the text they came from', () => {
    for (const query of QUERIES) {
      const tree = parseQuery(query);
      const expected = t.library.listing.idsOf({ query });
      expect(t.library.listing.idsOf({ query: printQuery(tree) }), query).toEqual(expected);
      expect(t.library.listing.idsOf({ query: printQuery(groupToTree(treeToGroup(tree))) }), query).toEqual(expected);
    }
    // The corpus is not trivial: the queries tell the items apart.
    const answers = new Set(QUERIES.map((query) => JSON.stringify(t.library.listing.idsOf({ query }))));
    expect(answers.size).toBeGreaterThan(8);
  });
});
