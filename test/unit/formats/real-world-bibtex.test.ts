// Issue 17, the BibTeX side: a user's references come out as they went in. Each block is one point of
// the issue; the fixtures under test/fixtures/real-world/ are shaped like what JabRef, Zotero/Better
// BibTeX, biblatex users, Google Scholar, Mendeley and hand-written theses produce.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { citationKeyProblem } from '../../../shared/model/citekey';
import { importText, toBibtex } from '../../../electron/core/formats';
import { testLibrary, type TestLibrary } from '../library/helpers/lib';


function bib(text: string) {
  return importText(text, { format: 'bibtex' });
}
function items(text: string): CslItem[] {
  const r = bib(text);
  expect(r.errors).toEqual([]);
  return r.items.map((i) => i.item);
}
function one(text: string): CslItem {
  const all = items(text);
  expect(all).toHaveLength(1);
  return all[0]!;
}

describe('1. keys are the user’s', () => {
  let t: TestLibrary;
  beforeEach(() => (t = testLibrary()));
  afterEach(() => t.dispose());

  it('keeps a key BibTeX and biber accept (an apostrophe) through import, library and export', () => {
    expect(citationKeyProblem("O'Hara_1999")).toBeNull();
    const item = one("@article{O'Hara_1999, author = {O'Hara, Maureen}, title = {Tides}, year = 1999}");
    expect(item['citation-key']).toBe("O'Hara_1999");
    const r = t.library.importItems([item]);
    expect(r.warnings).toEqual([]);
    expect(t.library.getItem(r.ids[0]!).citationKey).toBe("O'Hara_1999");
    expect(toBibtex([t.library.getItem(r.ids[0]!).csl])).toMatch(/^@article\{O'Hara_1999,/);
  });

  it('still refuses what cannot work, and the report says old → new', () => {
    for (const bad of ['a b', 'a,b', 'a{b', 'a}b', 'a(b', 'a)b', 'a"b', 'a#b', 'a%b', 'a~b', 'a=b', 'a\\b']) expect(citationKeyProblem(bad), bad).not.toBeNull();
    const item = one('@article{smith~2020, author = {Smith, Ann}, title = {Quick Brown Fox}, year = 2020}');
    const r = t.library.importItems([item]);
    const key = t.library.getItem(r.ids[0]!).citationKey;
    expect(key).toBe('smithQuickBrownFox2020');
    expect(r.warnings).toEqual([{ index: 0, message: expect.stringContaining('"smith~2020" → "smithQuickBrownFox2020"') }]);
  });
});
