import { afterEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { generateItems } from './helpers/generate-items';
import { testLibrary, type TestLibrary, importItems } from './helpers/lib';

const indexes = (l: TestLibrary): { name: string; sql: string }[] =>
  l.db
    .prepare(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL ORDER BY name",
    )
    .all() as { name: string; sql: string }[];

describe('bulk import into an empty library (sort indexes built at commit)', () => {
  let lib: TestLibrary;
  afterEach(() => lib.dispose());

  it('leaves the same indexes after a commit, and they serve sorted lists', () => {
    lib = testLibrary();
    const before = indexes(lib);
    const s = lib.library.beginImport();
    s.add(generateItems(300, 3));
    // Mid-import the reader still sees the committed schema with every index.
    expect(lib.library.listing.list({ sort: { column: 'title', direction: 'asc' }, limit: 5 }).rows).toHaveLength(0);
    s.commit();
    expect(indexes(lib)).toEqual(before);
    expect(lib.db.pragma('integrity_check', { simple: true })).toBe('ok');
    const page = lib.library.listing.list({ sort: { column: 'year', direction: 'desc' }, limit: 300 });
    expect(page.rows).toHaveLength(300);
    const years = page.rows.map((r) => r.year ?? -1);
    expect(years).toEqual([...years].sort((a, b) => b - a));
  });

  it('restores the indexes when the import is rolled back, and keeps them for an import into a non-empty library', () => {
    lib = testLibrary();
    const before = indexes(lib);
    const s = lib.library.beginImport();
    s.add(generateItems(50, 4));
    s.rollback();
    expect(indexes(lib)).toEqual(before);
    expect(lib.library.listing.count()).toBe(0);
    importItems(lib.library, generateItems(20, 5));
    const second = lib.library.beginImport();
    expect(indexes(lib)).toEqual(before);
    second.add(generateItems(20, 6, 100));
    second.commit();
    expect(indexes(lib)).toEqual(before);
    expect(lib.library.listing.count()).toBe(40);
  });
});

describe('an import into an empty library stores what an import into a non-empty one does', () => {
  const libs: TestLibrary[] = [];
  afterEach(() => libs.splice(0).forEach((l) => l.dispose()));

  // Generated items, then entries that meet every rule on the way in: a repeated DOI, the same key and
  // title again, a key taken by an earlier entry, an unusable key, an invalid DOI, no type at all.
  const items = (): CslItem[] => {
    const gen = generateItems(400, 9);
    return [
      ...gen,
      { ...gen[3]!, id: 'again-doi' },
      { ...gen[5]!, id: 'again-key', DOI: undefined, 'citation-key': 'same-key' },
      { ...gen[6]!, id: 'same-key-first', DOI: undefined, 'citation-key': 'same-key' },
      { ...gen[5]!, id: 'same-key-dup', DOI: undefined, 'citation-key': 'same-key' },
      { ...gen[7]!, id: 'taken', DOI: undefined, title: 'Other title', 'citation-key': 'same-key' },
      { ...gen[8]!, id: 'bad-key', DOI: undefined, 'citation-key': 'has space' },
      { ...gen[9]!, id: 'bad-doi', DOI: 'not a doi', keyword: 'review; methods' },
      { title: 'No type' } as CslItem,
    ];
  };

  /** Everything an import stores, by citation key (ids differ: the non-empty library has one item more). */
  function content(l: TestLibrary, skipKey: string) {
    const db = l.db;
    const keyOf = new Map(
      (db.prepare('SELECT id, citation_key FROM items').all() as { id: number; citation_key: string }[]).map((r) => [
        r.id,
        r.citation_key,
      ]),
    );
    const rows = db.prepare('SELECT * FROM items WHERE citation_key != ? ORDER BY citation_key').all(skipKey) as Record<
      string,
      unknown
    >[];
    return {
      keyOf,
      items: rows.map(({ id: _id, ...rest }) => rest),
      creators: db
        .prepare(
          'SELECT i.citation_key, c.role, c.position, c.family, c.given, c.literal, c.family_norm FROM creators c JOIN items i ON i.id = c.item_id ORDER BY 1, 2, 3',
        )
        .all(),
      tags: db
        .prepare(
          'SELECT i.citation_key, t.name FROM item_tags it JOIN items i ON i.id = it.item_id JOIN tags t ON t.id = it.tag_id ORDER BY 1, 2',
        )
        .all(),
      fts: ['learning', 'protein OR climate', 'müller', 'review', 'same*'].map((q) =>
        (db.prepare('SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid').pluck().all(q) as number[])
          .map((id) => keyOf.get(id))
          .filter((k) => k !== skipKey),
      ),
      lists: ['title', 'creators', 'year', 'container', 'type', 'citationKey'].map((column) =>
        l.library.listing
          .list({ sort: { column: column as 'title', direction: 'asc' }, limit: 1000 })
          .rows.map((r) => r.citationKey)
          .filter((k) => k !== skipKey),
      ),
      search: ['learning', 'author:müller', 'tag:review', 'title:protein year:>2000'].map((query) =>
        l.library.listing
          .list({ query, limit: 1000 })
          .rows.map((r) => r.citationKey)
          .filter((k) => k !== skipKey),
      ),
      indexes: indexes(l),
      integrity: l.db.pragma('integrity_check', { simple: true }),
    };
  }

  it('rows, creators, tags, full-text index, sort indexes and the import report are the same', () => {
    const now = () => Date.UTC(2025, 0, 1);
    const empty = testLibrary({ now });
    const used = testLibrary({ now });
    libs.push(empty, used);
    importItems(used.library, [
      { id: 'placeholder', type: 'book', title: 'Placeholder zzz', 'citation-key': 'zz-placeholder' },
    ]);
    const a = importItems(empty.library, items(), { source: 'refs.bib' });
    const b = importItems(used.library, items(), { source: 'refs.bib' });
    const ca = content(empty, 'zz-placeholder');
    const cb = content(used, 'zz-placeholder');
    const report = (r: typeof a, keyOf: Map<number, string>) => ({
      added: r.added,
      keys: r.ids.map((id) => keyOf.get(id)),
      duplicates: r.duplicates.map((d) => ({ ...d, existingId: keyOf.get(d.existingId) })),
      errors: r.errors,
      warnings: r.warnings,
    });
    expect(report(a, ca.keyOf)).toEqual(report(b, cb.keyOf));
    // The repeated DOI without a key of its own arrives (every entry of a file does); the same key and title is a repeat.
    expect(a.duplicates.map((d) => d.reason)).toEqual(['key-title']);
    expect(a.errors).toHaveLength(1);
    const { keyOf: _a, ...restA } = ca;
    const { keyOf: _b, ...restB } = cb;
    expect(restA).toEqual(restB);
    expect(restA.items).toHaveLength(a.added);
    expect(restA.integrity).toBe('ok');
    expect(restA.fts.every((keys) => keys.length > 0)).toBe(true);
  });
});
