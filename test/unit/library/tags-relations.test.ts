// Managing tags as a Zotero user does (rename, merge, delete, colours with their keys 1–9, toggling)
// and related items both ways: each change one undo step, undone and redone whole.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_COLORED_TAGS } from '../../../electron/core/library/items';
import { article, importItems, testLibrary, type TestLibrary } from './helpers/lib';

describe('tags', () => {
  let t: TestLibrary;
  beforeEach(() => {
    t = testLibrary();
    importItems(t.library, [
      article('One', 'Ames', 2001),
      article('Two', 'Baker', 2002),
      article('Three', 'Cole', 2003),
    ]);
    t.library.addTags([1, 2], ['to-read']);
    t.library.addTags([2, 3], ['toread']);
    t.library.addTags([3], ['ml']);
  });
  afterEach(() => t.dispose());

  const tagsOf = (id: number) => t.library.getItem(id).tags;
  const list = () => t.library.listTags().map((x) => `${x.name}:${x.count}`);

  it('renames a tag on every item that has it, trashed ones too, as one undo step', () => {
    t.library.trashItems([1]);
    expect(t.library.renameTag('to-read', 'reading')).toBe(2);
    expect(tagsOf(1)).toEqual(['reading']);
    expect(tagsOf(2)).toEqual(['reading', 'toread']);
    expect(t.library.undo()).toBe('Rename tag to-read to reading on 2 items');
    expect(tagsOf(1)).toEqual(['to-read']);
    expect(tagsOf(2)).toEqual(['to-read', 'toread']);
    t.library.redo();
    expect(tagsOf(2)).toEqual(['reading', 'toread']);
  });

  it('renaming onto an existing tag merges the two; only the case changing renames in place', () => {
    expect(t.library.renameTag('toread', 'To-Read')).toBe(2);
    expect(list()).toEqual(['ml:1', 'to-read:3']);
    expect(t.library.renameTag('ml', 'ML')).toBe(1);
    expect(list()).toEqual(['ML:1', 'to-read:3']);
    expect(t.library.renameTag('ML', 'ML')).toBe(0);
    expect(() => t.library.renameTag('nothing', 'x')).toThrow(/not in the library/);
    expect(() => t.library.renameTag('ml', '  ')).toThrow(/needs a name/);
  });

  it('merges several tags into one, and deletes tags from every item, each undoable', () => {
    expect(t.library.mergeTags(['to-read', 'toread'], 'queue')).toBe(3);
    expect(list()).toEqual(['ml:1', 'queue:3']);
    t.library.undo();
    expect(list()).toEqual(['ml:1', 'to-read:2', 'toread:2']);
    expect(() => t.library.mergeTags(['queue'], 'queue')).toThrow(/at least one other tag/);
    expect(() => t.library.mergeTags(['absent'], 'queue')).toThrow(/No item has the tag/);
    expect(t.library.deleteTags(['toread', 'ml'])).toBe(2);
    expect(list()).toEqual(['to-read:2']);
    expect(t.library.undo()).toBe('Delete tags toread, ml from 2 items');
    expect(list()).toEqual(['ml:1', 'to-read:2', 'toread:2']);
    expect(t.library.deleteTags(['absent'])).toBe(0);
  });

  it('toggles a tag on a selection: added to all when any lacks it, removed when all have it', () => {
    expect(t.library.toggleTag([1, 3], 'to-read')).toBe(true);
    expect(tagsOf(3)).toContain('to-read');
    expect(t.library.toggleTag([1, 3], 'to-read')).toBe(false);
    expect(tagsOf(1)).not.toContain('to-read');
    expect(tagsOf(2)).toContain('to-read');
  });

  it('colours up to nine tags in places 1–9, kept through renames and while no item has the tag', () => {
    expect(t.library.setTagColor('to-read', '#ff6666')).toEqual([
      { name: 'to-read', color: '#ff6666', position: 1, count: 2 },
    ]);
    t.library.setTagColor('ml', '#3366ff');
    t.library.setTagColor('unused', '#33aa33');
    expect(t.library.tagColors().map((c) => `${c.position}:${c.name}:${c.count}`)).toEqual([
      '1:to-read:2',
      '2:ml:1',
      '3:unused:0',
    ]);
    // A place already taken: the tag moves there and the others shift along.
    t.library.setTagColor('unused', '#33aa33', 1);
    expect(t.library.tagColors().map((c) => c.name)).toEqual(['unused', 'to-read', 'ml']);
    expect(() => t.library.setTagColor('ml', '#3366ff', 4)).toThrow(/1 to 3 here, not 4/);
    expect(() => t.library.setTagColor('ml', '#3366ff', 0)).toThrow(/not 0/);
    expect(() => t.library.setTagColor('ml', 'red')).toThrow(/not a colour/);
    t.library.renameTag('to-read', 'queue');
    expect(t.library.tagColors().map((c) => c.name)).toEqual(['unused', 'queue', 'ml']);
    t.library.deleteTags(['ml']);
    expect(t.library.tagColors().find((c) => c.name === 'ml')).toMatchObject({ count: 0, position: 3 });
    // Taking the colour off closes the gap.
    t.library.setTagColor('unused', null);
    expect(t.library.tagColors().map((c) => `${c.position}:${c.name}`)).toEqual(['1:queue', '2:ml']);
  });

  it('refuses a tenth coloured tag, and takes a ninth', () => {
    for (let i = 1; i < MAX_COLORED_TAGS; i++) t.library.setTagColor(`t${i}`, '#112233');
    expect(t.library.tagColors()).toHaveLength(MAX_COLORED_TAGS - 1);
    t.library.setTagColor('ninth', '#112233');
    expect(t.library.tagColors()).toHaveLength(MAX_COLORED_TAGS);
    expect(() => t.library.setTagColor('tenth', '#112233')).toThrow(/At most 9 tags/);
    // Recolouring one of the nine is not a tenth.
    expect(t.library.setTagColor('ninth', '#445566').at(-1)).toMatchObject({ name: 'ninth', color: '#445566' });
  });
});

describe('related items', () => {
  let t: TestLibrary;
  beforeEach(() => {
    t = testLibrary();
    importItems(t.library, [
      article('One', 'Ames', 2001),
      article('Two', 'Baker', 2002),
      article('Three', 'Cole', 2003),
    ]);
  });
  afterEach(() => t.dispose());

  const related = (id: number) => t.library.relatedTo(id).map((r) => r.id);

  it('relates both ways, once per pair, and undoes it whole', () => {
    t.library.relateItems(1, [2, 3, 2]);
    expect(related(1)).toEqual([3, 2]);
    expect(related(2)).toEqual([1]);
    expect(related(3)).toEqual([1]);
    t.library.relateItems(2, [1]);
    expect(related(2)).toEqual([1]);
    t.library.undo();
    t.library.undo();
    expect(related(1)).toEqual([]);
    expect(related(2)).toEqual([]);
    t.library.redo();
    expect(related(1)).toEqual([3, 2]);
    expect(() => t.library.relateItems(1, [1])).toThrow(/cannot be related to itself/);
    expect(() => t.library.relateItems(1, [99])).toThrow(/not in the library/);
  });

  it('unrelates both ways; trashing keeps a relation, deleting for good removes it, and a merge carries it over', () => {
    t.library.relateItems(1, [2]);
    t.library.unrelateItems(2, 1);
    expect(related(1)).toEqual([]);
    expect(() => t.library.unrelateItems(2, 1)).toThrow(/not in the library/);
    t.library.undo();
    expect(related(2)).toEqual([1]);
    t.library.trashItems([2]);
    expect(t.library.relatedTo(1)).toEqual([expect.objectContaining({ id: 2, trashed: true })]);
    t.library.restoreItems([2]);
    t.library.mergeItems(3, [2]);
    expect(related(3)).toEqual([1]);
    expect(related(1)).toEqual([3]);
    t.library.undo();
    expect(related(1)).toEqual([2]);
    t.library.deleteItems([2]);
    expect(related(1)).toEqual([]);
  });
});
