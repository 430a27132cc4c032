// Creating, renaming and moving a collection are undo steps (docs/undo.md): Ctrl+Z reverts them with
// a label saying what, redo re-applies them, and nothing filed since is lost. A Zotero data-folder
// import's one step removes the collections it created, and only those.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleZoteroLibrary, writeZoteroFolder } from '../../helpers/zotero-db';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

describe('collection changes as undo steps', () => {
  let t: TestLibrary;
  let a: number;
  let b: number;
  const names = () => namesOf(t);
  beforeEach(() => {
    t = testLibrary();
    [a, b] = importItems(t.library, [article('Alpha paper', 'Smith', 2000), article('Beta paper', 'Jones', 2001)])
      .ids as [number, number];
  });
  afterEach(() => t.dispose());

  it('undoes creating a collection, and redo brings it back with its id', () => {
    const c = t.library.createCollection('Reading');
    expect(t.library.undoTops().undo).toMatchObject({ label: 'Create collection “Reading”', itemCount: 0 });
    expect(t.library.undoTops().undo!.cannotUndo).toBeUndefined();
    expect(t.library.undoStep()).toEqual({ label: 'Create collection “Reading”', itemIds: [], trashed: [] });
    expect(names()).toEqual([]);
    expect(t.library.redo()).toBe('Create collection “Reading”');
    expect(t.library.listCollections()).toMatchObject([{ id: c, name: 'Reading', parentId: null }]);
  });

  it('takes two steps for a collection made in the picker and filled: the filing, then the collection', () => {
    const c = t.library.createCollection('To read');
    t.library.addToCollection(c, [a, b]);
    expect(t.library.undo()).toBe('Add 2 items to “To read”');
    expect(t.library.getItem(a).collections).toEqual([]);
    expect(names()).toEqual(['To read']);
    expect(t.library.undo()).toBe('Create collection “To read”');
    expect(names()).toEqual([]);
    // Redo both: the collection with its id, then the filing into it.
    t.library.redo();
    t.library.redo();
    expect(t.library.getItem(a).collections).toEqual([c]);
    expect(t.library.getItem(b).collections).toEqual([c]);
  });

  it('keeps a created collection that is used in a way undo did not reach, says so, and loses nothing', () => {
    // Empty: removed (below the limit of one member).
    t.library.createCollection('Empty');
    expect(t.library.undoStep()!.kept).toBeUndefined();
    expect(names()).toEqual([]);
    // One item filed there outside the undo stack (a sync pull, an older app): kept, and named.
    const c = t.library.createCollection('Shared');
    t.db.prepare('INSERT INTO collection_items (collection_id, item_id, added_at) VALUES (?, ?, 1)').run(c, a);
    expect(t.library.undoStep()).toEqual({
      label: 'Create collection “Shared”',
      itemIds: [],
      trashed: [],
      kept: ['“Shared” (1 item was filed there since)'],
    });
    expect(t.library.getItem(a).collections).toEqual([c]);
    // Two items: the count is said. A subcollection made there keeps it too.
    const d = t.library.createCollection('Two');
    t.db
      .prepare('INSERT INTO collection_items (collection_id, item_id, added_at) VALUES (?, ?, 1), (?, ?, 1)')
      .run(d, a, d, b);
    expect(t.library.undoStep()!.kept).toEqual(['“Two” (2 items were filed there since)']);
    const e = t.library.createCollection('Parent');
    t.db.prepare("INSERT INTO collections (parent_id, name, created_at) VALUES (?, 'Child', 1)").run(e);
    expect(t.library.undoStep()!.kept).toEqual(['“Parent” (it has a subcollection now)']);
    expect(names()).toEqual(['Parent', 'Parent/Child', 'Shared', 'Two']);
  });

  it('undoes and redoes a rename', () => {
    const c = t.library.createCollection('Reading');
    t.library.addToCollection(c, [a]);
    t.library.renameCollection(c, 'To read');
    expect(t.library.undoTops().undo!.label).toBe('Rename collection “Reading” to “To read”');
    expect(t.library.undo()).toBe('Rename collection “Reading” to “To read”');
    expect(names()).toEqual(['Reading']);
    expect(t.library.getItem(a).collections).toEqual([c]);
    expect(t.library.redo()).toBe('Rename collection “Reading” to “To read”');
    expect(names()).toEqual(['To read']);
    // Renaming to the same name is no change and no step.
    const top = t.library.undoTops().undo!.id;
    t.library.renameCollection(c, 'To read');
    expect(t.library.undoTops().undo!.id).toBe(top);
  });

  it('undoes and redoes a move, and refuses a move back when the old place is gone or taken', () => {
    const thesis = t.library.createCollection('Thesis');
    const ch = t.library.createCollection('Chapter 1');
    t.library.moveCollection(ch, thesis);
    expect(t.library.undoTops().undo!.label).toBe('Move collection “Chapter 1” to “Thesis”');
    expect(names()).toEqual(['Thesis', 'Thesis/Chapter 1']);
    expect(t.library.undo()).toBe('Move collection “Chapter 1” to “Thesis”');
    expect(names()).toEqual(['Chapter 1', 'Thesis']);
    expect(t.library.redo()).toBe('Move collection “Chapter 1” to “Thesis”');
    expect(names()).toEqual(['Thesis', 'Thesis/Chapter 1']);
    // Back to the top is refused when another top-level collection has taken the name since
    // (made outside the undo stack, so the move is still the last step).
    t.db.prepare("INSERT INTO collections (parent_id, name, created_at) VALUES (NULL, 'chapter 1', 1)").run();
    expect(() => t.library.undo()).toThrow(
      'Cannot undo Move collection “Chapter 1” to “Thesis”: another collection is named “chapter 1” there now. The step was dropped.',
    );
    expect(names()).toEqual(['Thesis', 'Thesis/Chapter 1', 'chapter 1']);
    expect(t.library.undoTops().undo!.label).toBe('Create collection “Chapter 1”');
  });

  it('refuses to undo a rename of a collection deleted since, and reaches the step beneath by its id', () => {
    const c = t.library.createCollection('Reading');
    t.library.renameCollection(c, 'To read');
    const rename = t.library.undoTops().undo!;
    t.library.deleteCollection(c);
    // Deleting for good is still a barrier, which names the rename beneath it.
    expect(t.library.undoTops().undo).toMatchObject({ cannotUndo: { before: { id: rename.id } } });
    expect(() => t.library.undo(rename.id)).toThrow(
      'Cannot undo Rename collection “Reading” to “To read”: the collection “To read” no longer exists. The step was dropped.',
    );
  });

  it('drops nothing else: a redo of items stays after a collection step', () => {
    t.library.addTags([a], ['x']);
    t.library.undo();
    t.library.createCollection('Other');
    expect(t.library.undoHistory().redo.map((e) => e.label)).toEqual(['Add tag x to “Alpha paper”']);
  });
});

describe('undoing a Zotero data-folder import (issue 35)', () => {
  let t: TestLibrary;
  afterEach(() => t.dispose());

  it('removes the collections it created, keeps the ones that were there, and redo brings them back', async () => {
    t = testLibrary();
    const [mine] = importItems(t.library, [article('My own paper', 'Own', 2020)]).ids as [number];
    // "Thesis" was there before: the import files into it and must leave it (and its item) alone.
    const thesis = t.library.createCollection('Thesis');
    t.library.addToCollection(thesis, [mine]);
    const folder = join(t.dir, 'Zotero');
    writeZoteroFolder(folder, await sampleZoteroLibrary());
    const report = t.library.importZoteroFolder(folder, { storeDir: join(t.dir, 'files'), mode: 'copy' });
    expect(report.collections).toBe(4);
    const imported = namesOf(t);
    expect(imported).toEqual(['Lab group', 'Lab group/Shared', 'Thesis', 'Thesis/Chapter 1', 'Thesis/Chapter 1 (2)']);
    const inThesis = t.library.listing.list({ collectionId: thesis, limit: 50 }).rows.length;
    expect(inThesis).toBeGreaterThan(1);

    const outcome = t.library.undoStep()!;
    expect(outcome.label).toBe('Import 9 items from Zotero');
    expect(outcome.kept).toBeUndefined();
    expect(namesOf(t)).toEqual(['Thesis']);
    expect(t.library.getItem(mine).collections).toEqual([thesis]);
    expect(t.library.listing.list({ collectionId: thesis, limit: 50 }).rows.map((r) => r.id)).toEqual([mine]);
    expect(t.library.undoTops().undo!.label).toBe('Add “My own paper” to “Thesis”');

    expect(t.library.redo()).toBe('Import 9 items from Zotero');
    expect(namesOf(t)).toEqual(imported);
    expect(t.library.listing.list({ collectionId: thesis, limit: 50 }).rows.length).toBe(inThesis);
  });

  it('keeps a collection it created when something else was filed there since', async () => {
    t = testLibrary();
    const [mine] = importItems(t.library, [article('My own paper', 'Own', 2020)]).ids as [number];
    const folder = join(t.dir, 'Zotero');
    writeZoteroFolder(folder, await sampleZoteroLibrary());
    t.library.importZoteroFolder(folder, { storeDir: join(t.dir, 'files'), mode: 'copy' });
    const shared = t.library.listCollections().find((c) => c.name === 'Shared')!;
    t.db
      .prepare('INSERT INTO collection_items (collection_id, item_id, added_at) VALUES (?, ?, 1)')
      .run(shared.id, mine);
    expect(t.library.undoStep()!.kept).toEqual([
      '“Shared” (1 item was filed there since)',
      '“Lab group” (it has a subcollection now)',
    ]);
    expect(namesOf(t)).toEqual(['Lab group', 'Lab group/Shared']);
    expect(t.library.getItem(mine).collections).toEqual([shared.id]);
  });
});

function namesOf(t: TestLibrary): string[] {
  const all = t.library.listCollections();
  return all
    .map((c) => `${c.parentId === null ? '' : `${all.find((p) => p.id === c.parentId)!.name}/`}${c.name}`)
    .sort();
}
