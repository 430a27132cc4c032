// Issue 32, sentence case: "use the title as written" for an item and for a selection, in one undo
// step, for titles a BibTeX import stored in sentence case (Settings → Import).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importText, toBibtex } from '../../../electron/core/formats';
import { importParsed, testLibrary, type TestLibrary } from './helpers/lib';

// As Better BibTeX and JabRef users write them: the proper nouns braced, the rest in Title Case.
const FILE = `@article{drake2019,
  title = {{Keira Drake}'s Apology for the Book and the Reaction of {Twitter}},
  author = {Doe, Jane},
  year = {2019}
}
@article{nyt2020,
  title = {In {America}: The Rise of the {New York Times} Reporting},
  author = {Roe, Rick},
  year = {2020}
}
@article{plain2021,
  title = {A title in sentence case already},
  year = {2021}
}
`;

describe('use the title as written', () => {
  let t: TestLibrary;
  let ids: number[];
  beforeEach(() => {
    t = testLibrary();
    ids = importParsed(t.library, importText(FILE).items).ids;
  });
  afterEach(() => t.dispose());

  it('says which items have a title in sentence case, and what the file wrote', () => {
    const [drake, nyt, plain] = ids.map((id) => t.library.getItem(id));
    expect(drake!.title).toBe(
      '<span class="nocase">Keira Drake</span>\'s apology for the book and the reaction of <span class="nocase">Twitter</span>',
    );
    expect(drake!.titleAsWritten).toBe(
      '<span class="nocase">Keira Drake</span>\'s Apology for the Book and the Reaction of <span class="nocase">Twitter</span>',
    );
    expect(nyt!.titleAsWritten).toBe(
      'In <span class="nocase">America</span>: The Rise of the <span class="nocase">New York Times</span> Reporting',
    );
    expect(plain!.titleAsWritten).toBeUndefined();
  });

  it('for a selection, in one undo step that undo reverts; export still writes the field as the file had it', () => {
    const label = t.library.undoTops().undo?.label;
    expect(t.library.useTitlesAsWritten(ids)).toEqual([ids[0], ids[1]]);
    const after = ids.map((id) => t.library.getItem(id));
    expect(after[0]!.title).toBe(
      '<span class="nocase">Keira Drake</span>\'s Apology for the Book and the Reaction of <span class="nocase">Twitter</span>',
    );
    expect(after.map((d) => d.titleAsWritten)).toEqual([undefined, undefined, undefined]);
    expect(t.library.undoTops().undo?.label).toBe('Use the title as written for 2 items');
    expect(toBibtex([after[1]!.csl])).toContain('title = {In {America}: The Rise of the {New York Times} Reporting}');
    // Nothing more to do: no second undo step.
    expect(t.library.useTitlesAsWritten(ids)).toEqual([]);
    expect(t.library.undoTops().undo?.label).toBe('Use the title as written for 2 items');
    t.library.undo();
    expect(t.library.getItem(ids[0]!).titleAsWritten).toBeDefined();
    expect(t.library.undoTops().undo?.label).toBe(label);
  });

  it('for one item; not once the user edited the title', () => {
    expect(t.library.useTitlesAsWritten([ids[1]!])).toEqual([ids[1]]);
    const drake = t.library.getItem(ids[0]!);
    t.library.updateItem(ids[0]!, { ...drake.csl, title: "Keira Drake's apology" });
    expect(t.library.getItem(ids[0]!).titleAsWritten).toBeUndefined();
    expect(t.library.useTitlesAsWritten([ids[0]!])).toEqual([]);
  });
});
