// The library side of an export (export-scope.ts): the ids a scope covers read in one statement, in
// the order the paged list gives them; the items' CSL-JSON as one JSON text that parses to exactly
// what cslOf gives (values and key order: the formatter's cache key hashes both); a kept bibliography
// read as its stored text.
import { afterEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { libraryBibliographyStore } from '../../../electron/core/library/cite-cache';
import { cslOfIds, exportLocale, idsInScope } from '../../../electron/core/library/export-scope';
import { Library } from '../../../electron/core/library/library';
import { readHandle, writeHandle, type ReadDb } from '../../../electron/core/library/sql';
import type { ListOptions } from '../../../shared/model/library';
import { generateItems } from './helpers/generate-items';
import { clock, testLibrary, type TestLibrary, importItems } from './helpers/lib';

let lib: TestLibrary;
afterEach(() => lib.dispose());

/** A Library over the test library's connection whose reads are counted. */
function counted(t: TestLibrary): { library: Library; reads: () => number } {
  const inner = readHandle(t.db);
  let n = 0;
  const read: ReadDb = {
    mode: 'read',
    raw: inner.raw,
    all: (q) => (n++, inner.all(q)),
    get: (q) => (n++, inner.get(q)),
    pluck: (q) => (n++, inner.pluck(q)),
  };
  return { library: new Library({ write: writeHandle(t.db), read, now: clock(Date.UTC(2030, 0, 1)) }), reads: () => n };
}

/** What idsOf gave by walking list's pages (1,000 rows each), the reference order. */
function pagedIds(library: Library, options: Omit<ListOptions, 'sort' | 'cursor' | 'limit'>): number[] {
  const ids: number[] = [];
  let cursor: string | null = null;
  do {
    const page = library.listing.list({
      ...options,
      sort: { column: 'dateAdded', direction: 'asc' },
      limit: 1000,
      cursor,
    });
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

describe('export path', () => {
  it('lists the ids of a scope in one statement, in the paged list order, for 2,500 items', () => {
    lib = testLibrary();
    const { ids } = importItems(lib.library, generateItems(2_500, 7));
    const c = lib.library.createCollection('Half');
    lib.library.addToCollection(
      c,
      ids.filter((_, i) => i % 2 === 0),
    );
    lib.library.trashItems(ids.slice(0, 40));
    const { library, reads } = counted(lib);
    for (const scope of [
      {},
      { collectionId: c },
      { query: 'type:article-journal' },
      { query: 'learning' },
      { trash: true },
      { unfiled: true },
      { collectionId: c, query: 'learning' },
    ]) {
      const expected = pagedIds(library, scope);
      const before = reads();
      const got = library.listing.idsOf(scope);
      expect(reads() - before, JSON.stringify(scope)).toBe(1);
      expect(got, JSON.stringify(scope)).toEqual(expected);
    }
    expect(library.listing.idsOf({}).length).toBe(2_460);
    expect(library.listing.idsOf({ trash: true })).toEqual(ids.slice(0, 40));
  });

  it("gives the items' CSL-JSON as one text that parses to cslOf's items, key order included", () => {
    lib = testLibrary();
    const odd: CslItem[] = [
      // An id the record carries keeps its place; the key replaces its value.
      {
        id: 'given-id',
        type: 'book',
        title: 'First “quoted” \u2028 line\\sep',
        author: [{ family: 'Ñandú', given: 'Ä' }],
        issued: { 'date-parts': [[2020, 1, 2]] },
      },
      {
        type: 'article-journal',
        title: 'No id, a number 1.5e3 and 12345678901234567890',
        volume: '1.50',
        note: 'tab\there "q" </script>',
        custom: { nested: [1, 2.25, null, true] },
      } as unknown as CslItem,
      {
        id: 'third',
        'citation-key': 'chosenKey2001',
        type: 'report',
        title: '😀 emoji',
        issued: { 'date-parts': [[2001]] },
      },
    ];
    const { ids } = importItems(lib.library, [...odd, ...generateItems(30, 3)]);
    const { library, reads } = counted(lib);
    // Out of order, a repeat and an id that does not exist: as cslOf, in the order given, the missing one left out.
    const asked = [ids[2]!, ids[0]!, 999_999, ...ids.slice(3), ids[1]!, ids[0]!];
    const before = reads();
    const text = library.cslJsonOf(asked);
    expect(reads() - before).toBe(1);
    const reference = library.cslOf(asked);
    expect(reference).toHaveLength(asked.length - 1);
    expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(reference));
    expect(JSON.parse(text)).toEqual(reference);
    expect(library.cslJsonOf([])).toBe('[]');
  });

  it('reads a scope whole through export-scope in chunks of JSON text, as the app and the command line do', async () => {
    lib = testLibrary();
    importItems(lib.library, generateItems(120, 5));
    const direct = {
      idsOf: async (o: Parameters<Library['listing']['idsOf']>[0]) => lib.library.listing.idsOf(o),
      cslJsonOf: async (ids: readonly number[]) => lib.library.cslJsonOf(ids),
    };
    const ids = await idsInScope(direct, { kind: 'library' });
    expect(ids).toHaveLength(120);
    expect(await cslOfIds(direct, ids)).toEqual(lib.library.cslOf(ids));
  });

  it('serves a kept bibliography from its stored text, and null for an unknown key', async () => {
    lib = testLibrary();
    const key = 'k'.repeat(43);
    const entries = [
      { id: 'b', value: 'B “entry”' },
      { id: 'a', value: 'A\u2028entry' },
    ];
    lib.library.citeCache.put(key, { style: 'apa', format: 'text' }, entries);
    expect(JSON.parse(lib.library.citeCache.getText(key)!)).toEqual([
      ['b', 'B “entry”'],
      ['a', 'A\u2028entry'],
    ]);
    const store = libraryBibliographyStore(lib.library.citeCache);
    expect(await store.get(key)).toEqual(entries);
    expect(await store.get('z'.repeat(43))).toBeNull();
    expect(lib.library.citeCache.getText('z'.repeat(43))).toBeNull();
  });

  it('hands the formatter a locale only when forcing it changes what the style would take', () => {
    const styles = [
      { id: 'apa', kind: 'csl' as const },
      { id: 'german', kind: 'csl' as const, defaultLocale: 'de-DE' },
      { id: 'bibtex', kind: 'bibtex' as const },
    ];
    // No default-locale: en-US is taken anyway; another locale must be passed.
    expect(exportLocale(styles, 'apa', 'en-US')).toBeUndefined();
    expect(exportLocale(styles, 'apa', 'fr-FR')).toBe('fr-FR');
    // A default-locale: that one is taken anyway; en-US must be forced.
    expect(exportLocale(styles, 'german', 'de-DE')).toBeUndefined();
    expect(exportLocale(styles, 'german', 'en-US')).toBe('en-US');
    // Nothing asked, not a CSL style, an unknown style: as given.
    expect(exportLocale(styles, 'apa', undefined)).toBeUndefined();
    expect(exportLocale(styles, 'bibtex', 'en-US')).toBe('en-US');
    expect(exportLocale(styles, 'nope', 'en-US')).toBe('en-US');
  });
});
