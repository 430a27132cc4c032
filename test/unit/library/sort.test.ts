import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SORT_COLUMNS, type LibraryRow, type SortColumn } from '../../../electron/core/library/types';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

// A small library full of ties and missing values: the hard cases for keyset paging.
function seed(t: TestLibrary): void {
  const items = Array.from({ length: 57 }, (_, i) =>
    article(i % 5 === 0 ? '' : `Title ${['b', 'a', 'c'][i % 3]}`, ['Zeta', 'Alpha', 'Émile'][i % 3]!, 2000 + (i % 4), {
      ...(i % 7 === 0 ? { issued: undefined } : {}),
      ...(i % 6 === 0 ? {} : { 'container-title': `J ${i % 2}` }),
      ...(i % 3 === 0 ? { DOI: `10.1000/${i}`, type: 'book' } : {}),
      // Zotero's columns (migration 0022): ties, missing values, page ranges and letters before numbers.
      ...(i % 4 === 0 ? {} : { publisher: ['Springer', 'Élan', 'springer'][i % 3] }),
      ...(i % 5 === 1 ? {} : { page: [`${i % 9}–${(i % 9) + 10}`, `e${100 + (i % 4)}`, `${i % 9}`][i % 3] }),
      ...(i % 4 === 2 ? { note: `Extra ${['b', 'a'][i % 2]}\nsecond line` } : {}),
    }),
  );
  importItems(t.library, items);
  // Notes, attachments and an edit, so every count column and the date modified have ties and order.
  for (let i = 1; i <= 57; i += 4) {
    t.library.addNote(i, `note of ${i}`);
    if (i % 3 === 0) t.library.addNote(i, 'another');
  }
  for (let i = 2; i <= 57; i += 5) t.library.addAttachment(i, { path: `/papers/${i}.pdf`, mime: 'application/pdf' });
  t.library.updateItem(9, { ...t.library.getItem(9).csl, title: 'Edited' });
  const found: Record<
    string,
    {
      total: number;
      supporting: number;
      contrasting: number;
      mentioning: number;
      unclassified: number;
      citingPublications?: number;
    }
  > = {};
  for (let i = 0; i < 57; i += 6)
    found[`10.1000/${i}`] = {
      total: i,
      supporting: i % 4,
      contrasting: 0,
      mentioning: i % 2,
      unclassified: 0,
      citingPublications: i % 3,
    };
  t.library.serviceCache.putTallies({ found, unknown: ['10.1000/3'] });
}

const value = (r: LibraryRow, c: SortColumn): unknown =>
  ({
    title: r.title?.toLowerCase() ?? null,
    creators: r.creators === 'Émile' ? 'emile' : (r.creators?.toLowerCase() ?? null),
    year: r.year,
    container: r.container?.toLowerCase() ?? null,
    type: r.type,
    citationKey: r.citationKey.toLowerCase(),
    dateAdded: r.dateAdded,
    dateModified: r.dateModified,
    publisher: r.publisher === 'Élan' ? 'elan' : (r.publisher?.toLowerCase() ?? null),
    pages: r.pages === null ? null : Number(/\d+/.exec(r.pages)![0]),
    extra: r.extra?.toLowerCase() ?? null,
    attachments: r.files.count,
    notes: r.notesCount,
    supporting: r.evidence.state === 'found' ? r.evidence.supporting : null,
    contrasting: r.evidence.state === 'found' ? r.evidence.contrasting : null,
    mentioning: r.evidence.state === 'found' ? r.evidence.mentioning : null,
    citing: r.evidence.state === 'found' ? r.evidence.citingPublications : null,
  })[c];

describe('sorting and keyset paging', () => {
  let t: TestLibrary;
  beforeEach(() => {
    t = testLibrary();
    seed(t);
  });
  afterEach(() => t.dispose());

  for (const column of SORT_COLUMNS) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`pages through every item exactly once by ${column} ${direction}, values in order, missing values last`, () => {
        const seen: LibraryRow[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = t.library.listing.list({ sort: { column, direction }, limit: 7, cursor });
          seen.push(...page.rows);
          cursor = page.nextCursor;
          expect(++pages).toBeLessThan(20);
        } while (cursor);
        expect(seen.map((r) => r.id).sort((a, b) => a - b)).toEqual(
          [...new Set(seen.map((r) => r.id))].sort((a, b) => a - b),
        );
        expect(seen).toHaveLength(57);
        const values = seen.map((r) => value(r, column));
        const firstNull = values.indexOf(null);
        if (firstNull >= 0) expect(values.slice(firstNull).every((v) => v === null)).toBe(true);
        const present = values.filter((v) => v !== null) as (string | number)[];
        const sorted = [...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(present).toEqual(direction === 'asc' ? sorted : sorted.reverse());
        // Ties are broken by id in the sort direction.
        for (let i = 1; i < seen.length; i++) {
          if (values[i] === values[i - 1])
            expect(direction === 'asc' ? seen[i]!.id > seen[i - 1]!.id : seen[i]!.id < seen[i - 1]!.id).toBe(true);
        }
      });
    }
  }

  it('shows the three evidence states apart: not fetched, unknown to the service, and counts (0 included)', () => {
    const rows = t.library.listing.list({ limit: 100 }).rows;
    const byDoi = new Map(rows.map((r) => [r.doi, r.evidence]));
    expect(byDoi.get('10.1000/0')).toMatchObject({ state: 'found', supporting: 0, total: 0, citingPublications: 0 });
    expect(byDoi.get('10.1000/3')).toMatchObject({ state: 'unknown', fetchedAt: expect.any(Number) });
    expect(byDoi.get('10.1000/9')).toEqual({ state: 'not-fetched' });
    expect(byDoi.get(null)).toEqual({ state: 'not-fetched' });
  });

  it('pages a filtered list identically whether its page is found inside the sort-index window or past it', () => {
    const collect = (lib: TestLibrary, query: string, column: SortColumn, direction: 'asc' | 'desc'): number[] => {
      const ids: number[] = [];
      let cursor: string | null = null;
      do {
        const page = lib.library.listing.list({ query, sort: { column, direction }, limit: 4, cursor });
        ids.push(...page.rows.map((r) => r.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    };
    const variants = [testLibrary({ paging: { window: 5 } }), testLibrary({ paging: { window: 1000 } })];
    try {
      for (const v of variants) seed(v);
      for (const query of ['type:book', 'year:>2001', 'title', 'supporting:>0', 'NOT type:book']) {
        for (const column of ['title', 'year', 'supporting', 'citationKey'] as const) {
          for (const direction of ['asc', 'desc'] as const) {
            const expected = collect(t, query, column, direction);
            expect(expected.length).toBe(t.library.listing.count({ query }));
            for (const v of variants) expect(collect(v, query, column, direction)).toEqual(expected);
          }
        }
      }
    } finally {
      for (const v of variants) v.dispose();
    }
  });

  it('sorts search results and a collection by a column, keyset-paged', () => {
    const page = t.library.listing.list({ query: 'type:book', sort: { column: 'year', direction: 'desc' }, limit: 5 });
    expect(page.rows.every((r) => r.type === 'book')).toBe(true);
    const next = t.library.listing.list({
      query: 'type:book',
      sort: { column: 'year', direction: 'desc' },
      limit: 50,
      cursor: page.nextCursor,
    });
    expect(page.rows.length + next.rows.length).toBe(19);
    expect(() =>
      t.library.listing.list({ sort: { column: 'title', direction: 'asc' }, cursor: page.nextCursor }),
    ).toThrow(/another sort order/);
    expect(() => t.library.listing.list({ cursor: 'garbage' })).toThrow(/not valid/);
  });

  it('starts a page at any offset, in the keyset order, and pages on from there (a jump far down the table)', () => {
    const all = (options: {
      query?: string;
      sort: { column: SortColumn | 'relevance'; direction: 'asc' | 'desc' };
    }): number[] => {
      const ids: number[] = [];
      let cursor: string | null = null;
      do {
        const page = t.library.listing.list({ ...options, limit: 1000, cursor });
        ids.push(...page.rows.map((r) => r.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    };
    const cases = [
      ...SORT_COLUMNS.flatMap((column) =>
        (['asc', 'desc'] as const).map((direction) => ({ sort: { column, direction } })),
      ),
      { query: 'type:book', sort: { column: 'year' as const, direction: 'desc' as const } },
      { query: 'title', sort: { column: 'container' as const, direction: 'asc' as const } },
      { query: 'title', sort: { column: 'relevance' as const, direction: 'desc' as const } },
    ];
    for (const options of cases) {
      const expected = all(options);
      // Every offset: in the rows with a value, at the first without one, among those, at and past the end.
      for (let offset = 0; offset <= expected.length + 2; offset++) {
        const page = t.library.listing.list({ ...options, limit: 5, offset });
        expect(
          page.rows.map((r) => r.id),
          `${JSON.stringify(options)} at ${offset}`,
        ).toEqual(expected.slice(offset, offset + 5));
        expect(page.nextCursor === null, `${JSON.stringify(options)} at ${offset}`).toBe(offset + 5 >= expected.length);
        if (offset % 9 === 4 && page.nextCursor) {
          const rest = t.library.listing.list({ ...options, limit: 1000, cursor: page.nextCursor });
          expect(rest.rows.map((r) => r.id)).toEqual(expected.slice(offset + 5));
        }
      }
    }
    expect(() =>
      t.library.listing.list({ offset: 3, cursor: t.library.listing.list({ limit: 2 }).nextCursor }),
    ).toThrow(/cursor or at an offset/);
  });

  it('pages by relevance with an offset cursor', () => {
    const first = t.library.listing.list({ query: 'title', limit: 20 });
    const second = t.library.listing.list({ query: 'title', limit: 100, cursor: first.nextCursor });
    expect(first.rows.length + second.rows.length).toBe(t.library.listing.count({ query: 'title' }));
    expect(second.nextCursor).toBeNull();
  });
});
