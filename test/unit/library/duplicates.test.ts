import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../electron/core/library/open';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

describe('duplicates and merge', () => {
  let t: TestLibrary;
  beforeEach(() => (t = testLibrary()));
  afterEach(() => t.dispose());

  it('detects same DOI, and same normalised title + a shared creator + year within one', () => {
    const r = importItems(t.library, [
      article('Deep Learning', 'Smith', 2020, { DOI: '10.1000/x' }),
      article('Deep learning.', 'Smith', 2021), // same work, no DOI
      article('DEEP LEARNING', 'Jones', 2020), // no shared creator
      article('Deep learning', 'Smith', 2015), // years too far apart
      article('Another paper', 'Lee', 2001, { DOI: '10.1000/y' }),
    ]);
    const dupDoi = t.library.addItem(article('Totally different title', 'Lee', 2001, { DOI: '10.1000/Y' }));
    const [a, b] = r.ids as [number, number];
    expect(t.library.findDuplicates()).toEqual([
      { ids: [r.ids[4], dupDoi], reason: 'doi' },
      { ids: [a, b], reason: 'title-creator-year' },
    ]);
  });

  it('stops offering a group marked "Not duplicates", after a reopen too, and offers it again when unmarked', () => {
    const r = importItems(t.library, [
      article('Deep Learning', 'Smith', 2020, { DOI: '10.1000/x' }),
      article('Deep learning.', 'Smith', 2021),
      article('Other work', 'Lee', 2001, { DOI: '10.1000/y' }),
      article('Other work, again', 'Lee', 2001, { DOI: '10.1000/y' }),
    ]);
    const [a, b, c, d] = r.ids as [number, number, number, number];
    expect(t.library.findDuplicates()).toEqual([
      { ids: [c, d], reason: 'doi' },
      { ids: [a, b], reason: 'title-creator-year' },
    ]);
    t.library.markNotDuplicates([a, b]);
    expect(t.library.findDuplicates()).toEqual([{ ids: [c, d], reason: 'doi' }]);
    t.library.markNotDuplicates([d, c]);
    expect(t.library.findDuplicates()).toEqual([]);
    // Kept in the library file, not in memory.
    t.close();
    const again = openLibrary(t.file, { durability: 'off' });
    try {
      expect(again.library.findDuplicates()).toEqual([]);
      again.library.markNotDuplicates([a, b], false);
      expect(again.library.findDuplicates()).toEqual([{ ids: [a, b], reason: 'title-creator-year' }]);
    } finally {
      again.close();
      t.dispose();
    }
    t = testLibrary();
  });

  it('keeps the rest of a group together when one pair of it is marked "Not duplicates"', () => {
    const r = importItems(t.library, [
      article('Same paper', 'Smith', 2020, { DOI: '10.1000/z' }),
      article('Same paper (copy)', 'Smith', 2020, { DOI: '10.1000/z' }),
      article('Same paper (third)', 'Smith', 2020, { DOI: '10.1000/z' }),
    ]);
    const [a, b, c] = r.ids as [number, number, number];
    t.library.markNotDuplicates([a, b]);
    // a–c and b–c still join all three.
    expect(t.library.findDuplicates()).toEqual([{ ids: [a, b, c], reason: 'doi' }]);
    t.library.markNotDuplicates([a, c]);
    expect(t.library.findDuplicates()).toEqual([{ ids: [b, c], reason: 'doi' }]);
  });

  it('refuses fewer than two items, and an item that is not in the library, writing nothing', () => {
    const r = importItems(t.library, [
      article('One', 'Smith', 2020, { DOI: '10.1000/q' }),
      article('Two', 'Smith', 2020, { DOI: '10.1000/q' }),
    ]);
    const [a, b] = r.ids as [number, number];
    expect(() => t.library.markNotDuplicates([a])).toThrow(/at least two items/);
    expect(() => t.library.markNotDuplicates([a, 999_999])).toThrow(/Item 999999 is not in the library/);
    expect(t.library.findDuplicates()).toEqual([{ ids: [a, b], reason: 'doi' }]);
  });

  it('recognises a preprint and its published version as related, not duplicates', () => {
    const r = importItems(t.library, [
      article('Same study', 'Smith', 2020, { DOI: '10.1101/2020.01.01.1', type: 'article', genre: 'preprint' }),
      article('Same study', 'Smith', 2021, { DOI: '10.1000/pub' }),
    ]);
    const [pre, pub] = r.ids as [number, number];
    t.library.serviceCache.putPapers({
      found: { '10.1000/pub': { preprintLinks: [{ preprintDoi: '10.1101/2020.01.01.1' }], publicationLinks: [] } },
    });
    expect(t.library.findDuplicates()).toEqual([]);
    expect(t.library.relatedItems(pub)).toEqual([{ id: pre, relation: 'preprint' }]);
    expect(t.library.relatedItems(pre)).toEqual([{ id: pub, relation: 'publication' }]);
  });

  it('merges keeping every tag, note, collection membership, attachment and key of both', () => {
    const r = importItems(t.library, [
      article('Deep Learning', 'Smith', 2020, { DOI: '10.1000/x', keyword: 'ml' }),
      article('Deep learning', 'Smith', 2020, { abstract: 'Only here.', keyword: 'review', volume: '3' }),
    ]);
    const [keep, other] = r.ids as [number, number];
    const otherKey = t.library.getItem(other).citationKey;
    const c1 = t.library.createCollection('One');
    const c2 = t.library.createCollection('Two');
    t.library.addToCollection(c1, [keep]);
    t.library.addToCollection(c2, [other]);
    t.library.addNote(keep, 'note A');
    t.library.addNote(other, 'note B');
    t.library.addAttachment(other, { path: '/b.pdf', sha256: 'f'.repeat(64) });
    t.library.mergeItems(keep, [other]);

    const d = t.library.getItem(keep);
    expect(d.tags).toEqual(['ml', 'review']);
    expect(d.notes.map((n) => n.text)).toEqual(['note A', 'note B']);
    expect(d.collections).toEqual([c1, c2]);
    expect(d.attachments.map((a) => a.path)).toEqual(['/b.pdf']);
    expect(d.csl).toMatchObject({ DOI: '10.1000/x', abstract: 'Only here.', volume: '3' });
    expect(d.keyAliases).toEqual([otherKey]);
    expect(t.library.findByCitationKey(otherKey)).toBe(keep);
    expect(t.library.listing.list({ query: `key:${otherKey}` }).rows.map((x) => x.id)).toEqual([keep]);
    expect(() => t.library.getItem(other)).toThrow(/not in the library/);
    expect(t.library.findDuplicates()).toEqual([]);
    // The merged-away key stays reserved: a new item never takes it.
    expect(
      t.library.addItem(article('Deep learning', 'Smith', 2020, { 'citation-key': otherKey, DOI: '10.1000/z' })),
    ).toBeGreaterThan(0);
    expect(t.library.listing.list({ query: 'doi:10.1000/z' }).rows[0]!.citationKey).toBe(`${otherKey}a`);

    // Undo brings both back as they were.
    t.library.undo(); // the add
    expect(t.library.undo()).toBe('Merge 2 items into “Deep Learning”');
    const back = t.library.getItem(other);
    expect(back.citationKey).toBe(otherKey);
    expect(back.notes.map((n) => n.text)).toEqual(['note B']);
    expect(back.attachments.map((a) => a.path)).toEqual(['/b.pdf']);
    expect(back.collections).toEqual([c2]);
    expect(t.library.getItem(keep).notes.map((n) => n.text)).toEqual(['note A']);
    expect(t.library.getItem(keep).keyAliases).toEqual([]);
    expect(t.library.findByCitationKey(otherKey)).toBe(other);
  });
  it('applies the fields the user chose in the same undo step as the merge, and remembers them as edits', () => {
    const r = importItems(t.library, [
      article('Deep Learning', 'Smith', 2020, { DOI: '10.1000/x', volume: '3', keyword: 'ml' }),
      article('Deep learning: a review', 'Smith', 2020, { volume: '4', page: '1-9', keyword: 'review' }),
    ]);
    const [keep, other] = r.ids as [number, number];
    const before = t.library.getItem(keep).csl;
    const chosen = { ...before, title: 'Deep learning: a review', volume: '3', page: '1-9' };
    t.library.mergeItems(keep, [other], chosen);
    const merged = t.library.getItem(keep);
    expect(merged.csl).toMatchObject({ title: 'Deep learning: a review', volume: '3', page: '1-9', DOI: '10.1000/x' });
    expect(merged.citationKey).toBe(t.library.getItem(keep).citationKey);
    expect(merged.tags).toEqual(['ml', 'review']);
    // One undo: both items as they were, the kept one's own title back.
    expect(t.library.undo()).toBe('Merge 2 items into “Deep Learning”');
    expect(t.library.getItem(keep).csl.title).toBe('Deep Learning');
    expect(t.library.getItem(other).csl).toMatchObject({ title: 'Deep learning: a review', volume: '4' });
  });
});
