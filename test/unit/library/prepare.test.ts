import { afterEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { cslText, prepareItem, withKey as stored, type PreparedItem } from '../../../electron/core/library/derive';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

const withKey = (p: PreparedItem, key: string): string => cslText(stored(p, key));

describe('items prepared for the store (in the parser thread)', () => {
  it('stores the item exactly as given when it keeps the key it asked for', () => {
    const item = article('Deep learning', 'Müller', 2020, {
      'citation-key': 'muller2020',
      keyword: 'review; methods, review',
    });
    const p = prepareItem(item);
    expect(p.tags).toEqual(['review', 'methods']);
    expect(p.keyBase).toBeNull();
    expect(p.creators).toEqual(['author', 0, 'Müller', 'A.', null, 'muller']);
    expect(withKey(p, 'muller2020')).toBe(JSON.stringify(item));
    expect(JSON.parse(withKey(p, 'muller2020a'))).toEqual({ ...item, 'citation-key': 'muller2020a' });
  });

  it('adds the key to an item without one, and makes one from the formula', () => {
    const item = article('Deep learning of proteins', 'Smith', 2020);
    const p = prepareItem(item);
    expect(p.keyBase).toMatch(/^smith.*2020$/);
    expect(JSON.parse(withKey(p, 'smith2020'))).toEqual({ ...item, 'citation-key': 'smith2020' });
    expect(JSON.parse(withKey(prepareItem({ type: 'book' } as CslItem), 'k'))).toEqual({
      type: 'book',
      'citation-key': 'k',
    });
  });

  it('trims a padded key, and replaces an unusable one', () => {
    const padded = prepareItem(article('A', 'B', 2000, { 'citation-key': ' key1 ' }));
    expect(padded.requestedKey).toBe('key1');
    expect(JSON.parse(withKey(padded, 'key1'))['citation-key']).toBe('key1');
    const bad = prepareItem(article('A title here', 'B', 2000, { 'citation-key': 'has space' }));
    expect(bad.keyProblem).toMatch(/spaces/);
    expect(bad.keyBase).not.toBeNull();
  });

  it('marks an entry without a type for rejection', () => {
    expect(prepareItem({} as CslItem).type).toBeNull();
  });
});

describe('import into an empty library (duplicates found in memory)', () => {
  let lib: TestLibrary;
  afterEach(() => lib.dispose());

  it('finds repeats within the import by key and title (not by DOI alone), and keeps keys unique case-insensitively', () => {
    lib = testLibrary();
    const r = importItems(lib.library, [
      article('One', 'A', 2000, { DOI: '10.1000/x', 'citation-key': 'Key' }),
      article('Two', 'B', 2001, { DOI: 'https://doi.org/10.1000/X' }),
      article('One', 'C', 2002, { 'citation-key': 'key' }),
      article('Three', 'D', 2003, { 'citation-key': 'KEY' }),
    ]);
    expect(r.added).toBe(3);
    expect(r.duplicates.map((d) => [d.index, d.reason])).toEqual([[2, 'key-title']]);
    expect(lib.library.getItem(r.ids[2]!).citationKey).toBe('KEYa');
    // The same first item again, now through the queries of a non-empty library: a duplicate.
    const again = importItems(lib.library, [
      article('One', 'A', 2000, { DOI: '10.1000/x', 'citation-key': 'Key' }),
      article('One', 'A', 2000, { 'citation-key': 'KEY' }),
    ]);
    expect(again.added).toBe(0);
    expect(again.duplicates.map((d) => d.reason)).toEqual(['key-title', 'key-title']);
  });
});
