// Collections go to the Trash with their subcollections and come back with their items' membership;
// while trashed they file nothing (their items are Unfiled, collection: finds nothing), and emptying
// the Trash deletes them for good.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { article, importItems, testLibrary, type TestLibrary } from './helpers/lib';

describe('collections in the Trash', () => {
  let t: TestLibrary;
  let thesis: number;
  let chapter: number;
  let reading: number;
  beforeEach(() => {
    t = testLibrary();
    importItems(t.library, [
      article('One', 'Ames', 2001),
      article('Two', 'Baker', 2002),
      article('Three', 'Cole', 2003),
    ]);
    thesis = t.library.createCollection('Thesis');
    chapter = t.library.createCollection('Chapter 2', thesis);
    reading = t.library.createCollection('Reading');
    t.library.addToCollection(thesis, [1]);
    t.library.addToCollection(chapter, [2]);
    t.library.addToCollection(reading, [3]);
  });
  afterEach(() => t.dispose());

  const names = () => t.library.listCollections().map((c) => c.name);
  const ids = (query: string) => t.library.listing.idsOf({ query });

  it('go with their subcollections and come back with their items', () => {
    expect(t.library.trashCollection(thesis)).toBe(2);
    expect(names()).toEqual(['Reading']);
    expect(t.library.trashedCollections()).toEqual([
      expect.objectContaining({ id: thesis, name: 'Thesis', itemCount: 1, subcollections: 1 }),
    ]);
    expect(ids('collection:Thesis')).toEqual([]);
    expect(t.library.listing.idsOf({ unfiled: true })).toEqual([1, 2]);
    // The items themselves stay in the library.
    expect(t.library.listing.count({})).toBe(3);
    t.library.restoreCollection(thesis);
    expect(names()).toEqual(['Chapter 2', 'Reading', 'Thesis']);
    expect(ids('collection:Thesis')).toEqual([1, 2]);
    expect(t.library.listing.idsOf({ collectionId: chapter })).toEqual([2]);
    expect(t.library.listing.idsOf({ unfiled: true })).toEqual([]);
    expect(t.library.trashedCollections()).toEqual([]);
  });

  it('a subcollection trashed alone leaves its parent; restoring it alone brings a trashed parent back too', () => {
    t.library.trashCollection(chapter);
    expect(names()).toEqual(['Reading', 'Thesis']);
    expect(t.library.listing.idsOf({ collectionId: thesis })).toEqual([1]);
    t.library.trashCollection(thesis);
    expect(t.library.trashedCollections().map((c) => c.name)).toEqual(['Thesis', 'Chapter 2']);
    t.library.restoreCollection(chapter);
    expect(names()).toEqual(['Chapter 2', 'Reading', 'Thesis']);
    expect(t.library.listing.idsOf({ collectionId: thesis })).toEqual([1, 2]);
  });

  it('refuses filing into a trashed collection or reusing its name, and empties with the Trash', () => {
    t.library.trashCollection(reading);
    expect(() => t.library.addToCollection(reading, [1])).toThrow(/in the Trash: restore it first/);
    expect(() => t.library.createCollection('Reading')).toThrow(/in the Trash: restore it, or empty the Trash/);
    expect(t.library.emptyTrash()).toBe(0);
    expect(t.library.trashedCollections()).toEqual([]);
    expect(t.library.createCollection('Reading')).toBeGreaterThan(0);
    expect(t.library.getItem(3).collections).toEqual([]);
    t.library.restoreCollection(thesis); // not trashed: nothing happens
    expect(() => t.library.restoreCollection(999)).toThrow(/not in the library/);
  });

  it('trashing a nested collection is one undo step: undone, it and its subcollection come back with their items; redo trashes them again', () => {
    t.library.trashCollection(thesis);
    expect(names()).toEqual(['Reading']);
    expect(t.library.undo()).toBe('Move collection “Thesis” to the Trash');
    expect(names()).toEqual(['Chapter 2', 'Reading', 'Thesis']);
    expect(t.library.trashedCollections()).toEqual([]);
    expect(t.library.listing.idsOf({ collectionId: thesis, includeSubcollections: true })).toEqual([1, 2]);
    expect(t.library.listing.idsOf({ collectionId: chapter })).toEqual([2]);
    expect(t.library.redo()).toBe('Move collection “Thesis” to the Trash');
    expect(names()).toEqual(['Reading']);
    expect(t.library.trashedCollections().map((c) => c.name)).toEqual(['Thesis']);
    expect(t.library.getItem(2).collections).toEqual([chapter]);
  });

  it('restoring is one undo step: undone, what came back (a trashed parent too) goes back to the Trash; redo restores again', () => {
    t.library.trashCollection(chapter);
    t.library.trashCollection(thesis);
    t.library.restoreCollection(chapter);
    expect(names()).toEqual(['Chapter 2', 'Reading', 'Thesis']);
    expect(t.library.undo()).toBe('Restore collection “Chapter 2”');
    expect(names()).toEqual(['Reading']);
    expect(t.library.trashedCollections().map((c) => c.name)).toEqual(['Thesis', 'Chapter 2']);
    expect(t.library.redo()).toBe('Restore collection “Chapter 2”');
    expect(names()).toEqual(['Chapter 2', 'Reading', 'Thesis']);
    expect(t.library.listing.idsOf({ collectionId: thesis, includeSubcollections: true })).toEqual([1, 2]);
    // Further back: the two trashings, each its own step.
    expect(t.library.undo()).toBe('Restore collection “Chapter 2”');
    expect(t.library.undo()).toBe('Move collection “Thesis” to the Trash');
    expect(t.library.undo()).toBe('Move collection “Chapter 2” to the Trash');
    expect(names()).toEqual(['Chapter 2', 'Reading', 'Thesis']);
    expect(t.library.listing.idsOf({ collectionId: chapter })).toEqual([2]);
  });

  it('refuses to undo a trashing once the collection was deleted for good or restored since, and loses nothing', () => {
    t.library.trashCollection(reading);
    expect(t.library.trashCollection(reading)).toBe(0); // already there: no second step
    t.library.emptyTrash();
    expect(() => t.library.undo()).toThrow(/the collection “Reading” no longer exists/);
    expect(t.library.getItem(3).trashedAt).toBeNull();

    t.library.trashCollection(chapter);
    t.library.restoreCollection(chapter);
    t.library.undo(); // the restore: back in the Trash
    t.library.restoreCollection(chapter); // by hand, a new step
    expect(t.library.undo()).toBe('Restore collection “Chapter 2”');
    expect(names()).toEqual(['Thesis']);
    expect(t.library.listing.idsOf({ collectionId: thesis, includeSubcollections: true })).toEqual([1]);
    expect(t.library.undo()).toBe('Move collection “Chapter 2” to the Trash');
    expect(t.library.listing.idsOf({ collectionId: thesis, includeSubcollections: true })).toEqual([1, 2]);
  });
});
