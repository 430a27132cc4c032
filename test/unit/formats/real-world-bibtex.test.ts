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

describe('2. read leniently, as Better BibTeX and pandoc do', () => {
  it('skips a % comment line inside an entry instead of dropping the entry', () => {
    const item = one(`@article{k,
  author = {Doe, Jane},
  % note = {commented out by hand},
  title = {Kept},   % a trailing remark
  %
  year = 2001
}`);
    expect(item).toMatchObject({ title: 'Kept', issued: { 'date-parts': [[2001]] }, author: [{ family: 'Doe', given: 'Jane' }] });
    expect(item.note).toBeUndefined();
  });

  it('keeps a % inside a value as text', () => {
    expect(one('@misc{k, title = {50\\% off}, note = {a % b}}')).toMatchObject({ title: '50% off', note: 'a % b' });
  });

  it('ignores unbracketed @comment lines without an error', () => {
    const r = bib('@comment jabref-meta: databaseType:biblatex;\n@Comment Last edited 2021\n@book{b, title = {T}}\n');
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.items.map((i) => i.item['citation-key'])).toEqual(['b']);
  });

  it('still reports "@article" without a body', () => {
    expect(bib('@article no body here\n@book{b, title = {T}}\n').errors).toEqual([expect.objectContaining({ line: 1, reason: expect.stringMatching(/no body/) })]);
  });
});
