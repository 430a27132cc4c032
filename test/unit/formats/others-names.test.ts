// Issue 42 point 10: "and others" survives every format. The library keeps the names a list has and
// the role in custom.bibtex.others; BibTeX writes `and others` back, CSL-JSON a last
// {"literal": "others"} (as pandoc writes it, and prints it "et al."), and both read it back as the
// marker, never as an author called "others".
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { importText, toBibtex, toCslJson, toRis } from '../../../electron/core/formats';
import { parseBibtex } from '../../../electron/core/formats/bibtex/parser';
import { DEFAULT_LIMITS } from '../../../electron/core/formats';

// As JabRef and Better BibTeX write a cut author list.
const BIB = String.raw`@article{kim_2019,
  author = {Kim, Ana and Lee, Bo and others},
  editor = {Ng, Di and others},
  title = {A paper},
  journal = {Journal of Tests},
  year = {2019}
}
@article{ng_2022,
  author = {Ng, Di and Wu, Ed},
  title = {Two authors},
  journal = {Journal of Tests},
  year = {2022}
}
`;

const read = (text: string, format: 'bibtex' | 'csljson' | 'ris'): CslItem[] => {
  const r = importText(text, { format });
  expect(r.errors).toEqual([]);
  return r.items.map((i) => i.item);
};
const othersOf = (item: CslItem) => (item.custom as { bibtex?: { others?: string[] } }).bibtex?.others;

describe('"and others" through the formats', () => {
  it('BibTeX → library → BibTeX writes "and others" again', () => {
    const [kim, ng] = read(BIB, 'bibtex');
    expect(kim!.author).toEqual([
      { family: 'Kim', given: 'Ana' },
      { family: 'Lee', given: 'Bo' },
    ]);
    expect(othersOf(kim!)).toEqual(['author', 'editor']);
    const out = toBibtex([kim!, ng!]);
    const fields = parseBibtex(out, DEFAULT_LIMITS).entries.map((e) => Object.fromEntries(e.fields));
    expect(fields[0]!['author']).toBe('Kim, Ana and Lee, Bo and others');
    expect(fields[0]!['editor']).toBe('Ng, Di and others');
    expect(fields[1]!['author']).toBe('Ng, Di and Wu, Ed');
  });

  it('CSL-JSON export ends the list with {"literal": "others"}, as pandoc writes it', () => {
    const items = read(BIB, 'bibtex');
    const json = JSON.parse(toCslJson(items)) as CslItem[];
    expect(json[0]!.author).toEqual([
      { family: 'Kim', given: 'Ana' },
      { family: 'Lee', given: 'Bo' },
      { literal: 'others' },
    ]);
    expect(json[0]!.editor).toEqual([{ family: 'Ng', given: 'Di' }, { literal: 'others' }]);
    expect(json[1]!.author).toHaveLength(2);
    // Without custom too: the marker is all a reader has then.
    const bare = JSON.parse(toCslJson(items, { withoutCustom: true })) as CslItem[];
    expect(bare[0]!.author?.at(-1)).toEqual({ literal: 'others' });
    // pandoc reads the same .bib to the same names.
    const pandoc = JSON.parse(
      execFileSync('pandoc', ['-f', 'bibtex', '-t', 'csljson'], { input: BIB }).toString(),
    ) as CslItem[];
    expect(pandoc[0]!.author).toEqual(json[0]!.author);
    expect(pandoc[0]!.editor).toEqual(json[0]!.editor);
  });

  it('CSL-JSON → library takes the marker off, and the round trip is the identity', () => {
    const items = read(BIB, 'bibtex');
    const again = read(toCslJson(items), 'csljson');
    expect(again).toEqual(items);
    // pandoc's CSL-JSON, without custom: the library stores two authors and "and others".
    const pandoc = execFileSync('pandoc', ['-f', 'bibtex', '-t', 'csljson'], { input: BIB }).toString();
    const [kim] = read(pandoc, 'csljson');
    expect(kim!.author).toHaveLength(2);
    expect(othersOf(kim!)).toEqual(['author', 'editor']);
    expect(toBibtex([kim!])).toContain('author = {Kim, Ana and Lee, Bo and others}');
  });

  it('a lone "others", or one not last, is a name as written', () => {
    const json = JSON.stringify([
      { id: 'a', type: 'book', author: [{ literal: 'others' }] },
      { id: 'b', type: 'book', author: [{ literal: 'others' }, { family: 'Kim', given: 'Ana' }] },
    ]);
    const [a, b] = read(json, 'csljson');
    expect(a!.author).toEqual([{ literal: 'others' }]);
    expect(b!.author).toHaveLength(2);
    expect(a!.custom).toBeUndefined();
  });

  it('RIS: a last author "et al." is "and others", written back only to RIS it came from', () => {
    const ris = 'TY  - JOUR\nAU  - Kim, Ana\nAU  - Lee, Bo\nAU  - et al.\nTI  - A paper\nPY  - 2019\nER  - \n';
    const [item] = read(ris, 'ris');
    expect(item!.author).toHaveLength(2);
    expect(othersOf(item!)).toEqual(['author']);
    expect(toRis([item!])).toContain('AU  - Lee, Bo\nAU  - et al.\n');
    expect(read(toRis([item!]), 'ris')).toEqual([item]);
    expect(toBibtex([item!])).toContain('author = {Kim, Ana and Lee, Bo and others}');
    // From BibTeX: RIS readers (EndNote, Zotero) would take "et al." for a person, so none is written.
    const [kim] = read(BIB, 'bibtex');
    expect(toRis([kim!])).not.toMatch(/et al|others/);
  });
});
