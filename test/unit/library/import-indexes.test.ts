import { afterEach, describe, expect, it } from 'vitest';
import { generateItems } from './helpers/generate-items';
import { testLibrary, type TestLibrary } from './helpers/lib';

const indexes = (l: TestLibrary): { name: string; sql: string }[] =>
  l.db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'items' AND sql IS NOT NULL ORDER BY name").all() as { name: string; sql: string }[];

describe('bulk import into an empty library (sort indexes built at commit)', () => {
  let lib: TestLibrary;
  afterEach(() => lib.dispose());

  it('leaves the same indexes after a commit, and they serve sorted lists', () => {
    lib = testLibrary();
    const before = indexes(lib);
    const s = lib.library.beginImport();
    s.add(generateItems(300, 3));
    // Mid-import the reader still sees the committed schema with every index.
    expect(lib.library.list({ sort: { column: 'title', direction: 'asc' }, limit: 5 }).rows).toHaveLength(0);
    s.commit();
    expect(indexes(lib)).toEqual(before);
    expect(lib.db.pragma('integrity_check', { simple: true })).toBe('ok');
    const page = lib.library.list({ sort: { column: 'year', direction: 'desc' }, limit: 300 });
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
    expect(lib.library.count()).toBe(0);
    lib.library.importItems(generateItems(20, 5));
    const second = lib.library.beginImport();
    expect(indexes(lib)).toEqual(before);
    second.add(generateItems(20, 6, 100));
    second.commit();
    expect(indexes(lib)).toEqual(before);
    expect(lib.library.count()).toBe(40);
  });
});
