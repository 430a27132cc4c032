// Issue 40: a collection an editor's scanAUX (or autoexport.add) creates is part of the undo step
// that fills it: Undo removes it with the membership, Redo puts it back with the same id. The API
// route is tested in test/integration/api/files.test.ts; here the library's edges.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { article, importItems, testLibrary, type TestLibrary } from './helpers/lib';

describe('fillCollectionAt', () => {
  let t: TestLibrary;
  beforeEach(() => {
    t = testLibrary();
    importItems(t.library, [article('One', 'Ames', 2001), article('Two', 'Baker', 2002)]);
  });
  afterEach(() => t.dispose());

  const names = () => t.library.listCollections().map((c) => c.name);
  const members = (id: number) => t.library.listing.idsOf({ collectionId: id, includeSubcollections: false });

  it('an existing path is found in any case and filled as setCollectionItems fills it', () => {
    const thesis = t.library.createCollection('Thesis');
    const r = t.library.fillCollectionAt(['thesis'], [1, 2], 'main.aux');
    expect(r).toMatchObject({ id: thesis, created: 0, added: 2 });
    expect(t.library.undoHistory().undo[0]!.label).toBe('Set “Thesis” to what main.aux cites (2 items)');
    // Nothing to create and nothing to fill: no step.
    const steps = t.library.undoHistory().undo.length;
    expect(t.library.fillCollectionAt(['Thesis'])).toMatchObject({ id: thesis, created: 0 });
    expect(t.library.undoHistory().undo.length).toBe(steps);
  });

  it('a new empty collection (autoexport.add) is a step of its own', () => {
    const r = t.library.fillCollectionAt(['Exports']);
    expect(r.created).toBe(1);
    expect(t.library.undoHistory().undo[0]).toMatchObject({ label: 'Create collection “Exports”' });
    expect(t.library.undo()).toBe('Create collection “Exports”');
    expect(names()).toEqual([]);
    expect(t.library.redo()).toBe('Create collection “Exports”');
    expect(t.library.listCollections()).toEqual([expect.objectContaining({ id: r.id, name: 'Exports' })]);
  });

  it('redo is refused, and changes nothing, when another collection took the name since', () => {
    const r = t.library.fillCollectionAt(['Thesis', 'Cited'], [1]);
    t.library.undo();
    expect(names()).toEqual([]);
    const other = t.library.createCollection('Thesis');
    t.library.createCollection('Cited', other);
    expect(() => t.library.redo()).toThrow(/another collection has taken the place of “Thesis” since/);
    expect(names().sort()).toEqual(['Cited', 'Thesis']);
    // The new collections (which may have been given the old ids) get none of the step's items.
    for (const c of t.library.listCollections()) expect(members(c.id)).toEqual([]);
    expect(r.created).toBe(2);
    // The refused step is dropped, as a redo whose items changed is.
    expect(t.library.undoHistory().redo).toEqual([]);
  });

  it('a name at each level, and a trashed namesake, are refused before anything is created', () => {
    expect(() => t.library.fillCollectionAt(['Thesis', ' '], [1])).toThrow(/needs a name at each level/);
    const old = t.library.createCollection('Old');
    t.library.trashCollection(old);
    expect(() => t.library.fillCollectionAt(['Old'], [1])).toThrow(/in the Trash/);
    expect(names()).toEqual([]);
  });
});
