// Citation keys by formula in the library: new keys (imports, items added by hand, placeholders the
// service completes) follow Settings → Citation keys; existing keys stay pinned until the user
// regenerates them; collisions get a, b… against every key and alias, case-insensitively.
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../electron/core/settings/store';
import type { CslItem } from '../../../shared/model/csl';
import { article, importItems, testLibrary, type TestLibrary } from './helpers/lib';

let t: TestLibrary;
afterEach(() => t?.dispose());

const keyOf = (id: number): string => t.library.getItem(id).citationKey;
const setFormula = (formula: string | undefined): void => {
  new SettingsStore(t.db).update({ citekeyFormula: formula } as never);
};

describe('keys made by the formula set in Settings', () => {
  it('gives imports and new items the formula key; keys already there are pinned', () => {
    t = testLibrary();
    const first = importItems(t.library, [article('Deep learning for proteins', 'Smith', 2020)]).ids[0]!;
    expect(keyOf(first)).toBe('smithDeepLearningProteins2020');
    setFormula('auth + year');
    const second = importItems(t.library, [article('Another study', 'Smith', 2020)]).ids[0]!;
    expect(keyOf(second)).toBe('Smith2020');
    const added = t.library.addItem({
      id: 'x',
      type: 'book',
      title: 'A Book',
      author: [{ family: 'Smith' }],
      issued: { 'date-parts': [[2020]] },
    });
    // Taken case-insensitively: Smith2020 is there, so the next is Smith2020a, whatever its case.
    expect(keyOf(added)).toBe('Smith2020a');
    expect(keyOf(first)).toBe('smithDeepLearningProteins2020');
    // A key the entry brings is kept, formula or not.
    const keyed = importItems(t.library, [{ ...article('Keyed', 'Doe', 2001), 'citation-key': 'mine2001' }]).ids[0]!;
    expect(keyOf(keyed)).toBe('mine2001');
  });

  it('uses the default again when the setting is removed, or holds a formula that no longer compiles', () => {
    t = testLibrary();
    setFormula('auth + year');
    setFormula(undefined);
    t.db
      .prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('citekeyFormula', ?)")
      .run(JSON.stringify('autor +'));
    const id = importItems(t.library, [article('Deep learning', 'Smith', 2020)]).ids[0]!;
    expect(keyOf(id)).toBe('smithDeepLearning2020');
  });

  it('regenerates the keys of chosen items as one undo step, with suffixes against every key and alias', () => {
    t = testLibrary();
    const ids = importItems(t.library, [
      article('One', 'Smith', 2020),
      article('Two', 'Smith', 2020),
      article('Three', 'Jones', 2021),
      { ...article('Other', 'Brown', 2019), 'citation-key': 'SMITH2020' },
    ]).ids;
    setFormula('auth.lower + year');
    const changes = t.library.regenerateCitationKeys([ids[0]!, ids[1]!, ids[2]!]);
    // "smith2020" is taken by item 4's SMITH2020 (case-insensitively): a, then b.
    expect(changes.map((c) => c.to)).toEqual(['smith2020a', 'smith2020b', 'jones2021']);
    expect(changes[0]!.from).toBe('smithOne2020');
    expect(keyOf(ids[3]!)).toBe('SMITH2020');
    // Regenerating again gives the same keys: an item keeps a key the formula gives it again.
    expect(t.library.regenerateCitationKeys([ids[0]!, ids[1]!]).map((c) => c.to)).toEqual(['smith2020a', 'smith2020b']);
    const outcome = t.library.undoStep();
    expect(outcome?.label).toBe('Regenerate citation keys of 2 items');
    const first = t.library.undoStep();
    expect(first?.label).toBe('Regenerate citation keys of 3 items');
    expect(ids.slice(0, 3).map(keyOf)).toEqual(['smithOne2020', 'smithTwo2020', 'jonesThree2021']);
    expect(() => t.library.regenerateCitationKeys([999])).toThrow(/not in the library/);
  });

  it('regenerates one key with the formula too', () => {
    t = testLibrary();
    const [id] = importItems(t.library, [article('One', 'Smith', 2020)]).ids;
    setFormula("auth.lower + '_' + year");
    expect(t.library.regenerateCitationKey(id!)).toBe('smith_2020');
  });
});

describe('duplicating an item', () => {
  it('copies the fields, creators and tags under a new key, not the notes or attachments; undo moves the copy to the Trash', () => {
    t = testLibrary();
    const csl: CslItem = {
      ...article('Deep learning', 'Smith', 2020),
      DOI: '10.1000/xyz',
      editor: [{ family: 'Doe', given: 'J.' }],
    };
    const [id] = importItems(t.library, [csl]).ids;
    t.library.addTags([id!], ['to-read', 'ml']);
    t.library.addNote(id!, 'My note');
    t.library.addAttachment(id!, { path: '/tmp/x.pdf' });
    const coll = t.library.createCollection('Thesis', null);
    const copy = t.library.duplicateItem(id!, coll);
    const d = t.library.getItem(copy);
    expect(d.csl).toMatchObject({
      title: 'Deep learning',
      DOI: '10.1000/xyz',
      editor: [{ family: 'Doe', given: 'J.' }],
    });
    expect(d.citationKey).toBe('smithDeepLearning2020a');
    expect(d.tags).toEqual(['ml', 'to-read']);
    expect(d.notes).toEqual([]);
    expect(d.attachments).toEqual([]);
    expect(d.collections).toEqual([coll]);
    // The original is untouched, and both are listed as duplicates of each other (same DOI) for the user to see.
    expect(t.library.getItem(id!).citationKey).toBe('smithDeepLearning2020');
    expect(t.library.undoTops().undo?.label).toBe('Duplicate “Deep learning”');
    t.library.undoStep();
    expect(t.library.getItem(copy).trashedAt).not.toBeNull();
    expect(() => t.library.duplicateItem(id!, 12345)).toThrow(/Collection 12345/);
    expect(() => t.library.duplicateItem(4242)).toThrow(/not in the library/);
  });
});

describe('items by PMID, PMCID and ISBN', () => {
  it('finds them however the field writes them, live items only', () => {
    t = testLibrary();
    const ids = importItems(t.library, [
      { ...article('A', 'X', 2000), PMID: '31452104', PMCID: 'pmc6704497' },
      { id: 'b', type: 'book', title: 'B', ISBN: '0-306-40615-2 (pbk.); 978-3-16-148410-0' },
      { id: 'c', type: 'book', title: 'C', ISBN: '9791090636071' },
    ]).ids;
    expect(t.library.itemsWithIdentifier('pmid', ['31452104', '1'])).toEqual([{ value: '31452104', itemId: ids[0] }]);
    expect(t.library.itemsWithIdentifier('pmcid', ['PMC6704497'])).toEqual([{ value: 'PMC6704497', itemId: ids[0] }]);
    expect(t.library.itemsWithIdentifier('isbn', ['9780306406157', '9783161484100', '9791090636071'])).toEqual([
      { value: '9780306406157', itemId: ids[1] },
      { value: '9783161484100', itemId: ids[1] },
      { value: '9791090636071', itemId: ids[2] },
    ]);
    t.library.trashItems([ids[2]!]);
    expect(t.library.itemsWithIdentifier('isbn', ['9791090636071'])).toEqual([]);
  });
});
