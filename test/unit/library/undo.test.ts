import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

describe('undo and redo', () => {
  let t: TestLibrary;
  let a: number;
  let b: number;
  beforeEach(() => {
    t = testLibrary();
    [a, b] = importItems(t.library, [article('Alpha paper', 'Smith', 2000), article('Beta paper', 'Jones', 2001)])
      .ids as [number, number];
  });
  afterEach(() => t.dispose());

  it('undoes and redoes an edit, including the search index', () => {
    const csl = t.library.getItem(a).csl;
    t.library.updateItem(a, { ...csl, title: 'Gamma paper' });
    expect(t.library.listing.list({ query: 'gamma' }).rows.map((r) => r.id)).toEqual([a]);
    expect(t.library.undoHistory().undo[0]!.label).toBe('Edit title of “Alpha paper”');
    expect(t.library.undo()).toBe('Edit title of “Alpha paper”');
    expect(t.library.getItem(a).title).toBe('Alpha paper');
    expect(t.library.listing.list({ query: 'gamma' }).rows).toEqual([]);
    expect(t.library.listing.list({ query: 'alpha' }).rows.map((r) => r.id)).toEqual([a]);
    expect(t.library.redo()).toBe('Edit title of “Alpha paper”');
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
    expect(back.notes).toEqual([expect.objectContaining({ id: note, body: '<p>keep me</p>', text: 'keep me' })]);
    expect(back.tags).toEqual(['z']);
    expect(t.library.listing.list({ query: 'beta' }).rows.map((r) => r.id)).toEqual([b]);
  });

  it('undoes adding an item by moving it to the Trash; a change to it clears its redo; nothing to undo gives null', () => {
    const id = t.library.addItem(article('Added', 'Z', 2020));
    expect(t.library.undoStep()).toEqual({ label: 'Add item “Added”', itemIds: [id], trashed: [id] });
    expect(t.library.getItem(id).trashedAt).not.toBeNull();
    expect(t.library.listing.list({ trash: true }).rows.map((r) => r.id)).toEqual([id]);
    expect(t.library.undoHistory().redo).toHaveLength(1);
    t.library.addTags([id], ['y']);
    expect(t.library.undoHistory().redo).toHaveLength(0);
    t.library.undo();
    t.library.undo();
    expect(t.library.undo()).toBeNull();
  });

  // Issue 32: Ctrl+Z after deleting a collection (not an undo step) silently undid an older change.
  it('stops at a change it cannot undo, says so and names the change before it, which stays undoable by id', () => {
    const c = t.library.createCollection('Reading');
    t.library.renameCollection(c, 'To read');
    t.library.addTags([a], ['older']);
    const older = t.library.undoTops().undo!;
    t.library.deleteCollection(c);
    expect(t.library.undoTops().undo).toMatchObject({
      label: 'Delete collection “To read”',
      cannotUndo: { before: { id: older.id, label: 'Add tag older to “Alpha paper”' } },
    });
    expect(() => t.library.undo()).toThrow(
      'Nothing was undone: Delete collection “To read” cannot be undone. The change before it can still be undone: Add tag older to “Alpha paper”.',
    );
    expect(t.library.getItem(a).tags).toEqual(['older']);
    // Offered by its id (the message's button), the older change is undone past the barriers.
    expect(t.library.undo(older.id)).toBe('Add tag older to “Alpha paper”');
    expect(t.library.getItem(a).tags).toEqual([]);
    // An id that is not the one beneath the barriers is refused.
    t.library.addTags([b], ['x']);
    const x = t.library.undoTops().undo!;
    t.library.deleteCollection(t.library.createCollection('Other'));
    expect(() => t.library.undo(x.id + 1000)).toThrow();
    expect(t.library.getItem(b).tags).toEqual(['x']);
  });

  it('keeps the undo log bounded', () => {
    for (let i = 0; i < 210; i++) t.library.addTags([a], [`t${i}`]);
    expect(t.db.prepare("SELECT count(*) FROM undo_log WHERE stack = 'undo'").pluck().get()).toBe(200);
  });

  describe('never loses data (issue 17)', () => {
    it('moves an item added minutes before, then edited elsewhere, to the Trash on undo; redo takes it out with its data', () => {
      const id = t.library.addItem(article('Deep learning for protein structure prediction at scale', 'Lee', 2021));
      t.library.addNote(id, 'read this');
      t.library.addTags([a], ['other']); // something else, in between
      t.library.undo(); // the tag
      t.library.undo(); // the note
      const outcome = t.library.undoStep();
      expect(outcome).toEqual({
        label: 'Add item “Deep learning for protein structure …”',
        itemIds: [id],
        trashed: [id],
      });
      const trashed = t.library.getItem(id);
      expect(trashed.trashedAt).not.toBeNull();
      expect(trashed.title).toBe('Deep learning for protein structure prediction at scale');
      expect(t.library.listing.list({}).rows.map((r) => r.id)).not.toContain(id);
      // The user can still restore it, or empty the trash.
      expect(t.library.redo()).toBe('Add item “Deep learning for protein structure …”');
      expect(t.library.getItem(id).trashedAt).toBeNull();
      t.library.undo();
      expect(t.library.emptyTrash()).toBe(1);
      expect(() => t.library.getItem(id)).toThrow();
    });

    it('leaves an item that is already in the Trash there, and reports nothing trashed', () => {
      const id = t.library.addItem(article('Added', 'Z', 2020));
      t.db.prepare('UPDATE items SET trashed_at = 5 WHERE id = ?').run(id);
      expect(t.library.undoStep()).toEqual({ label: 'Add item “Added”', itemIds: [id], trashed: [] });
      expect(t.library.getItem(id).trashedAt).toBe(5);
    });

    it('names what each step reverts and on which items', () => {
      const csl = t.library.getItem(a).csl;
      t.library.updateItem(a, { ...csl, 'container-title': 'Nature', page: '1-2' });
      t.library.updateItem(a, { ...t.library.getItem(a).csl, volume: '3', issue: '4', page: '5' });
      t.library.updateItem(a, { ...t.library.getItem(a).csl, author: [{ family: 'Other' }] });
      t.library.addTags([a, b], ['x', 'y']);
      t.library.trashItems([b]);
      const c = t.library.createCollection('Reading');
      t.library.addToCollection(c, [a, b]);
      const labels = t.library.undoHistory().undo.map((e) => e.label);
      expect(labels).toEqual([
        'Add 2 items to “Reading”',
        'Create collection “Reading”',
        'Move “Beta paper” to the Trash',
        'Add tags x, y to 2 items',
        'Edit creators of “Alpha paper”',
        'Edit 3 fields of “Alpha paper”',
        'Edit journal and pages of “Alpha paper”',
      ]);
      expect(t.library.undoTops().undo).toMatchObject({
        label: 'Add 2 items to “Reading”',
        itemIds: [a, b],
        itemCount: 2,
      });
      t.library.mergeItems(a, [b]);
      expect(t.library.undo()).toBe('Merge 2 items into “Alpha paper”');
    });

    it('quotes an untitled item by its citation key', () => {
      const id = t.library.addItem({
        id: 'x',
        type: 'book',
        author: [{ family: 'Nobody' }],
        issued: { 'date-parts': [[1999]] },
      });
      expect(t.library.undo()).toBe(
        `Add item “${t.db.prepare('SELECT citation_key FROM items WHERE id = ?').pluck().get(id) as string}”`,
      );
    });
  });

  describe('undo offers for one step', () => {
    it('undoes the step it names while it is the last one, and refuses once another change came after it', () => {
      t.library.addTags([a], ['one']);
      const offered = t.library.undoTops().undo!;
      t.library.addTags([b], ['two']);
      expect(() => t.library.undoStep(offered.id)).toThrow(/no longer the last change/);
      expect(t.library.getItem(a).tags).toEqual(['one']);
      expect(t.library.getItem(b).tags).toEqual(['two']);
      const last = t.library.undoTops().undo!;
      expect(t.library.undoStep(last.id)?.label).toBe('Add tag two to “Beta paper”');
      // Undone now: the same offer cannot undo anything else.
      expect(() => t.library.undoStep(last.id)).toThrow(/already undone/);
      expect(t.library.undoStep(offered.id)?.label).toBe('Add tag one to “Alpha paper”');
    });
  });

  describe('redo after unrelated changes', () => {
    it('keeps a redo step while other items change, and drops it when one of its items changes', () => {
      t.library.addTags([a], ['x']);
      t.library.undo();
      t.library.addTags([b], ['unrelated']);
      expect(t.library.undoHistory().redo.map((e) => e.label)).toEqual(['Add tag x to “Alpha paper”']);
      expect(t.library.redo()).toBe('Add tag x to “Alpha paper”');
      expect(t.library.getItem(a).tags).toEqual(['x']);
      expect(t.library.getItem(b).tags).toEqual(['unrelated']);

      t.library.undo();
      t.library.addNote(a, 'changes a');
      expect(t.library.undoHistory().redo).toEqual([]);
      expect(t.library.redo()).toBeNull();
      expect(t.library.getItem(a).tags).toEqual([]);
    });

    it('refuses a redo whose item changed another way since (enrichment), and drops it', () => {
      t.library.addTags([a], ['x']);
      t.library.undo();
      t.library.writeServiceFill(a, { ...t.library.getItem(a).csl, volume: '12' });
      expect(() => t.library.redo()).toThrow(/changed since it was undone/);
      expect(t.library.getItem(a)).toMatchObject({ tags: [], csl: expect.objectContaining({ volume: '12' }) });
      expect(t.library.undoHistory().redo).toEqual([]);
    });

    it('still redoes when only the cached tallies of its item changed', () => {
      t.db.prepare("UPDATE items SET doi = '10.1000/x' WHERE id = ?").run(a);
      t.library.addTags([a], ['x']);
      t.library.undo();
      t.library.serviceCache.putTallies({
        found: { '10.1000/x': { total: 3, supporting: 1, contrasting: 0, mentioning: 2, unclassified: 0 } },
      });
      expect(t.library.redo()).toBe('Add tag x to “Alpha paper”');
    });

    it('keeps the redo stack bounded too', () => {
      const ids = importItems(
        t.library,
        Array.from({ length: 205 }, (_, i) => article(`Paper ${i}`, 'X', 2000)),
      ).ids;
      for (const id of ids) {
        t.library.addTags([id], ['x']);
        t.library.undo();
      }
      expect(t.db.prepare("SELECT count(*) FROM undo_log WHERE stack = 'redo'").pluck().get()).toBe(200);
      expect(t.library.redo()).toBe('Add tag x to “Paper 204”');
    });
  });
});
