// `citewise stats`'s counts (counts.ts), counted in SQL from indexes, against the same counts taken the
// old way: every row of the library read and counted in JavaScript.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryRow } from '../../../shared/model/library';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

const TALLY = { total: 1, supporting: 1, contrasting: 0, mentioning: 0, unclassified: 0 };

function rowsOf(t: TestLibrary): LibraryRow[] {
  const rows: LibraryRow[] = [];
  let cursor: string | null = null;
  do {
    const page = t.library.listing.list({ sort: { column: 'dateAdded', direction: 'asc' }, limit: 1000, cursor });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

describe('library counts', () => {
  let t: TestLibrary;
  beforeEach(() => (t = testLibrary()));
  afterEach(() => t.dispose());

  it('counts the items outside the trash by type, with a DOI, with tallies and retracted, as their rows say', () => {
    const ids = importItems(t.library, [
      article('A', 'A', 2000, { DOI: '10.1000/a' }),
      article('B', 'B', 2001, { DOI: '10.1000/b' }),
      // Two items with one DOI: each counts, as each is a row.
      article('B again', 'B', 2001, { DOI: '10.1000/b' }),
      article('C', 'C', 2002),
      { id: 'book', type: 'book', title: 'Book', DOI: '10.1000/book' },
      { id: 'chapter', type: 'chapter', title: 'Chapter' },
      // In the trash, with a DOI, tallies and a retraction: counted nowhere.
      { id: 'gone', type: 'book', title: 'Gone', DOI: '10.1000/gone' },
      { id: 'report', type: 'report', title: 'Only one, then trashed' },
    ]).ids;
    t.library.trashItems([ids[6]!, ids[7]!]);
    t.library.serviceCache.putTallies({
      found: { '10.1000/b': TALLY, '10.1000/gone': TALLY, '10.1000/nowhere': TALLY },
      unknown: ['10.1000/a'],
    });
    t.library.serviceCache.putNotices('10.1000/b', [{ status: 'Retracted' }], true);
    t.library.serviceCache.putNotices('10.1000/book', [{ status: 'Has correction' }], false);
    t.library.serviceCache.putNotices('10.1000/gone', [{ status: 'Retracted' }], true);

    const counts = t.library.counts();
    expect(counts).toEqual({
      items: 6,
      byType: { 'article-journal': 4, book: 1, chapter: 1 },
      withDoi: 4,
      withTallies: 2,
      retracted: 2,
    });
    // The order of byType: most first, then by name.
    expect(Object.keys(counts.byType)).toEqual(['article-journal', 'book', 'chapter']);

    const rows = rowsOf(t);
    expect(counts.items).toBe(rows.length);
    expect(counts.withDoi).toBe(rows.filter((r) => r.doi !== null).length);
    expect(counts.withTallies).toBe(rows.filter((r) => r.evidence.state === 'found').length);
    expect(counts.retracted).toBe(rows.filter((r) => r.retracted === true).length);
  });

  it('counts an empty library as nothing', () => {
    expect(t.library.counts()).toEqual({ items: 0, byType: {}, withDoi: 0, withTallies: 0, retracted: 0 });
  });
});
