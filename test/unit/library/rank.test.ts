// cw_bm25 (electron/core/library/cw_rank.c, built by `npm run build`) must rank exactly as FTS5's bm25,
// including after the library changed under a connection that has cached row lengths.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary, type OpenedLibrary } from '../../../electron/core/library/open';
import { findRankExtension } from '../../../electron/core/library/rank';
import { tempDir } from '../../helpers/tmp';
import { generateItems } from './helpers/generate-items';
import { article, clock, importItems } from './helpers/lib';

const QUERIES = [
  'learning',
  'prot',
  'neural net',
  'climate OR ocean',
  'cancer -therapy',
  'author:müller',
  '(author:wang OR author:li) quantum',
  'title:protein year:>2015',
  'bayesian inference NOT type:book',
  'author:smith year:2010..2020',
  '"climate change"',
  'tag:review learning',
];

describe('search ranking with cw_bm25', () => {
  const open: OpenedLibrary[] = [];
  let dir: ReturnType<typeof tempDir> | undefined;
  afterEach(() => {
    for (const o of open.splice(0)) o.close();
    dir?.remove();
  });

  /** The same library file twice: ranked by cw_bm25, and by FTS5's bm25. */
  function pair(): { fast: OpenedLibrary; plain: OpenedLibrary } {
    dir = tempDir('citewise-rank-');
    const file = join(dir.path, 'citewise.sqlite');
    const fast = openLibrary(file, { now: clock() });
    const plain = openLibrary(file, { now: clock(), rankExtension: null, skipIntegrityCheck: true });
    open.push(fast, plain);
    return { fast, plain };
  }

  const page = (o: OpenedLibrary, query: string): number[] =>
    o.library.listing.list({ query, limit: 100 }).rows.map((r) => r.id);

  it('is built, found and used', () => {
    expect(
      findRankExtension(),
      'the ranking extension is missing: run `npm run build` (it needs a C compiler)',
    ).not.toBeNull();
    const { fast, plain } = pair();
    expect(fast.library.listing.searchRanking()).toEqual({ fn: 'cw_bm25' });
    expect(plain.library.listing.searchRanking()).toEqual({ fn: 'bm25', reason: 'turned off' });
  });

  it('gives the same score as bm25 for every match, and the same pages', () => {
    const { fast, plain } = pair();
    importItems(fast.library, generateItems(1500, 3));
    for (const query of QUERIES) expect(page(fast, query), query).toEqual(page(plain, query));
    // Every match, not just the first page: the scores themselves, bit for bit.
    const scores = fast.db.prepare(
      'SELECT rowid, bm25(items_fts, 10, 2, 5, 3, 4, 1, 5) AS a, cw_bm25(items_fts, 10, 2, 5, 3, 4, 1, 5) AS b FROM items_fts WHERE items_fts MATCH ?',
    );
    for (const match of ['"learning"*', '"prot"* OR "climate"*', '{creators} : "smith"*', '"neural"* NOT "network"*']) {
      const rows = scores.all(match) as { a: number; b: number }[];
      expect(rows.length, match).toBeGreaterThan(0);
      expect(
        rows.filter((r) => r.a !== r.b),
        match,
      ).toEqual([]);
    }
  });

  it('uses no row length read before the library changed', () => {
    const { fast, plain } = pair();
    const [short, long] = importItems(fast.library, [
      article('Graphene sensors', 'Short', 2020, { abstract: 'Brief.' }),
      article('Graphene sensors', 'Long', 2020, { abstract: 'word '.repeat(400) }),
    ]).ids as [number, number];
    // The shorter record ranks first; the search caches both lengths.
    expect(page(fast, 'graphene')).toEqual([short, long]);
    // The lengths swap (through the write connection, as every change does).
    fast.library.updateItem(short, { ...fast.library.getItem(short)!.csl, abstract: 'word '.repeat(400) });
    fast.library.updateItem(long, { ...fast.library.getItem(long)!.csl, abstract: 'Brief.' });
    expect(page(plain, 'graphene')).toEqual([long, short]);
    expect(page(fast, 'graphene')).toEqual([long, short]);
    // A note and a deletion change lengths and the table too.
    fast.library.addNote(long, 'note '.repeat(500));
    expect(page(fast, 'graphene')).toEqual(page(plain, 'graphene'));
    expect(page(fast, 'graphene')).toEqual([short, long]);
    fast.library.deleteItems([short]);
    expect(page(fast, 'graphene')).toEqual([long]);
  });

  it('falls back to bm25 when the extension cannot be loaded, and still searches', () => {
    dir = tempDir('citewise-rank-');
    const o = openLibrary(join(dir.path, 'citewise.sqlite'), {
      now: clock(),
      rankExtension: join(dir.path, 'missing.so'),
    });
    open.push(o);
    expect(o.library.listing.searchRanking()).toMatchObject({
      fn: 'bm25',
      reason: expect.stringContaining('missing.so could not be loaded'),
    });
    const [id] = importItems(o.library, [article('Graphene sensors', 'Short', 2020)]).ids;
    expect(page(o, 'graphene')).toEqual([id]);
  });
});
