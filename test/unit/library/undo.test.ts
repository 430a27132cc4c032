import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { article, testLibrary, type TestLibrary } from './helpers/lib';

describe('undo and redo', () => {
  let t: TestLibrary;
  let a: number;
  let b: number;
  beforeEach(() => {
    t = testLibrary();
    [a, b] = t.library.importItems([article('Alpha paper', 'Smith', 2000), article('Beta paper', 'Jones', 2001)]).ids as [number, number];
  });
  afterEach(() => t.dispose());

  it('undoes and redoes an edit, including the search index', () => {
    const csl = t.library.getItem(a).csl;
    t.library.updateItem(a, { ...csl, title: 'Gamma paper' });
    expect(t.library.list({ query: 'gamma' }).rows.map((r) => r.id)).toEqual([a]);
    expect(t.library.undoHistory().undo[0]!.label).toBe('Edit item');
    expect(t.library.undo()).toBe('Edit item');
    expect(t.library.getItem(a).title).toBe('Alpha paper');
    expect(t.library.list({ query: 'gamma' }).rows).toEqual([]);
    expect(t.library.list({ query: 'alpha' }).rows.map((r) => r.id)).toEqual([a]);
    expect(t.library.redo()).toBe('Edit item');
    expect(t.library.getItem(a).title).toBe('Gamma paper');
  });

  it('undoes tag changes, moves between collections, trash and permanent deletion', () => {
    t.library.addTags([a, b], ['x']);
    t.library.removeTags([b], ['x']);
    expect(t.library.undo()).toMatch(/Remove tag/);
    expect(t.library.getItem(b).tags).toEqual(['x']);
    expect(t.library.undo()).toMatch(/Add tag/);
    expect(t.library.getItem(a).tags).toEqual([]);

    const c1 = t.library.createCollection('One');
    const c2 = t.library.createCollection('Two');
    t.library.addToCollection(c1, [a]);
    t.library.moveToCollection([a], c1, c2);
    t.library.undo();
    expect(t.library.getItem(a).collections).toEqual([c1]);

    t.library.trashItems([a]);
    t.library.undo();
    expect(t.library.getItem(a).trashedAt).toBeNull();

    t.library.addTags([b], ['z']);
    const note = t.library.addNote(b, 'keep me');
    t.library.deleteItems([b]);
    expect(() => t.library.getItem(b)).toThrow();
    t.library.undo();
    const back = t.library.getItem(b);
    expect(back.notes).toEqual([expect.objectContaining({ id: note, body: 'keep me' })]);
    expect(back.tags).toEqual(['z']);
    expect(t.library.list({ query: 'beta' }).rows.map((r) => r.id)).toEqual([b]);
  });

  it('undoes adding an item; a new change clears redo; nothing to undo gives null', () => {
    const id = t.library.addItem(article('Added', 'Z', 2020));
    t.library.undo();
    expect(() => t.library.getItem(id)).toThrow();
    expect(t.library.undoHistory().redo).toHaveLength(1);
    t.library.addTags([a], ['y']);
    expect(t.library.undoHistory().redo).toHaveLength(0);
    t.library.undo();
    expect(t.library.undo()).toBeNull();
  });

  it('keeps the undo log bounded', () => {
    for (let i = 0; i < 210; i++) t.library.addTags([a], [`t${i}`]);
    expect(t.db.prepare("SELECT count(*) FROM undo_log WHERE stack = 'undo'").pluck().get()).toBe(200);
  });
});
