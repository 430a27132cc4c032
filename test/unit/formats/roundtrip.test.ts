import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainCslText, type CslItem, type CslName } from '../../../shared/model/csl';
import { importText, toBibtex, toCslJson, toRis, DEFAULT_LIMITS } from '../../../electron/core/formats';
import { decodeLatex } from '../../../electron/core/formats/bibtex/latex-decode';
import { encodeRich, encodeText } from '../../../electron/core/formats/bibtex/latex-encode';
import { formatName, parseNameList } from '../../../electron/core/formats/bibtex/names';
import { parseBibtex } from '../../../electron/core/formats/bibtex/parser';
import { BIBTEX_TYPES } from '../../../electron/core/formats/bibtex/mapping';
import { generateBibtex } from './corpus';

const FIXTURES = join(import.meta.dirname, '../../fixtures/formats');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const items = (text: string, format: 'bibtex' | 'ris' | 'csljson') =>
  importText(text, { format }).items.map((i) => i.item);

/** Field names per entry key, as the raw parser sees them. */
function fieldNames(text: string): Map<string, Set<string>> {
  return new Map(parseBibtex(text, DEFAULT_LIMITS).entries.map((e) => [e.key, new Set(e.fields.keys())]));
}

describe('BibTeX → library → BibTeX keeps every field', () => {
  it.each([
    ['library.bib', false],
    ['biblatex.bib', true],
  ])('%s', (file, biblatex) => {
    const source = fixture(file);
    const first = importText(source, { format: 'bibtex' });
    expect(first.errors).toEqual([]);
    const exported = toBibtex(
      first.items.map((i) => i.item),
      { biblatex },
    );
    const second = importText(exported, { format: 'bibtex' });
    expect(second.errors).toEqual([]);
    expect(second.items.map((i) => i.item)).toEqual(first.items.map((i) => i.item));
    // Every field of every entry is written back under its own name (crossref children gain the inherited ones).
    const before = fieldNames(source);
    const after = fieldNames(exported);
    for (const [key, names] of before) {
      if (!after.has(key)) continue; // xdata entries are data, not items
      for (const name of names) expect(after.get(key), `${key}.${name}`).toContain(name);
    }
    // Entry types come back as they were.
    const types = (t: string) => new Map(parseBibtex(t, DEFAULT_LIMITS).entries.map((e) => [e.key, e.type]));
    for (const [key, type] of types(exported)) expect(types(source).get(key)).toBe(type);
  });

  it('a generated library of 300 entries of every kind', () => {
    const source = generateBibtex({ entries: 300, seed: 7 });
    const first = items(source, 'bibtex');
    // Entries of classic BibTeX's types come back whole from BibTeX export; biblatex's (@online,
    // @dataset, @software…) become classic ones there (issue 32), so only what a reader sees stays.
    const classic = (i: CslItem) => BIBTEX_TYPES.has(String((i.custom?.['bibtex'] as { type?: string }).type));
    const again = items(toBibtex(first), 'bibtex');
    expect(again.filter((_, n) => classic(first[n]!))).toEqual(first.filter(classic));
    const seen = (i: CslItem) => [i['citation-key'], i.title, i.author, i.editor, i.issued, i.DOI, i.URL, i.page];
    expect(again.map(seen)).toEqual(first.map(seen));
  });

  it('writes BibLaTeX names for BibTeX sources and back (journal ↔ journaltitle, address ↔ location, year/month ↔ date)', () => {
    const [item] = items(
      '@article{k, author={A, B}, title={T}, journal={J}, address={P}, year=2020, month=may}',
      'bibtex',
    );
    const bl = toBibtex([item!], { biblatex: true });
    expect(bl).toContain('journaltitle = {J}');
    expect(bl).toContain('location = {P}');
    expect(bl).toContain('date = {2020-05}');
    expect(items(bl, 'bibtex')[0]).toMatchObject({
      'container-title': 'J',
      'publisher-place': 'P',
      issued: { 'date-parts': [[2020, 5]] },
    });
    expect(toBibtex(items(bl, 'bibtex'), { biblatex: true })).toContain('journaltitle = {J}');
    // BibTeX export is classic BibTeX whatever names the item came with (issue 32).
    const bt = toBibtex(items(bl, 'bibtex'));
    expect(bt).toContain('journal = {J}');
    expect(bt).toContain('month = may');
  });
});

describe('BibTeX export from items of any source', () => {
  it('escapes special characters, protects case and keeps markup', () => {
    const item: CslItem = {
      id: 'x',
      type: 'article-journal',
      'citation-key': 'smith 2020,{bad}',
      title: 'Cost of 5% & $10 in <i>E. coli</i> with <span class="nocase">DNA</span> -- {braces} #1 _x_ ~ ^',
      author: [
        { family: 'de la Fontaine', given: 'Jean' },
        { literal: 'Barnes and Noble' },
        { family: 'Van Gogh', 'non-dropping-particle': 'Van', given: 'V.' } as CslName,
      ],
      page: '10–20',
      URL: 'https://example.org/a_b?c=1&d=%20',
      issued: { 'date-parts': [[2020, 5, 17]] },
      archive: 'Some archive',
    };
    const text = toBibtex([item]);
    expect(text).toMatch(/^@article\{smith_2020__bad_,/);
    expect(text).toContain(
      'title = {Cost of 5\\% \\& \\$10 in {{\\textit{E. coli}}} with {DNA} -{}- \\{braces\\} \\#1 \\_x\\_ \\textasciitilde{} \\textasciicircum{}}',
    );
    expect(text).toContain('author = {{de la Fontaine}, Jean and {Barnes and Noble} and {Van Van Gogh}, V.}');
    expect(text).toContain('pages = {10--20}');
    expect(text).toContain('url = {https://example.org/a_b?c=1&d=%20}');
    expect(text).toContain('archive = {Some archive}');
    const [back] = items(text, 'bibtex');
    expect(back).toMatchObject({
      title: item.title,
      page: '10-20',
      URL: item.URL,
      issued: item.issued,
      archive: 'Some archive',
    });
    expect(back!.author).toEqual([
      { family: 'de la Fontaine', given: 'Jean' },
      { literal: 'Barnes and Noble' },
      { family: 'Van Van Gogh', given: 'V.' },
    ]);
  });

  it('writes ASCII-only BibTeX on request', () => {
    const text = toBibtex(
      [
        {
          id: 'a',
          type: 'book',
          title: 'Ångström, Gödel, Dvořák, Straße, Łódź',
          author: [{ family: 'Müller', given: 'Zoë' }],
        },
      ],
      { ascii: true },
    );
    expect(text).toContain('{\\AA}ngstr{\\"o}m');
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    expect(items(text, 'bibtex')[0]).toMatchObject({
      title: 'Ångström, Gödel, Dvořák, Straße, Łódź',
      author: [{ family: 'Müller', given: 'Zoë' }],
    });
  });

  it('writes @preamble back', () => {
    const r = importText('@preamble{"\\newcommand{\\noopsort}[1]{}"}\n@misc{a, title={{\\noopsort{b}}Title}}', {
      format: 'bibtex',
    });
    const text = toBibtex(
      r.items.map((i) => i.item),
      { preambles: r.preambles ?? [] },
    );
    expect(text.startsWith('@preamble{{\\newcommand{\\noopsort}[1]{}}}\n')).toBe(true);
    expect(importText(text, { format: 'bibtex' }).preambles).toEqual(r.preambles);
  });

  it('gives every entry a unique key', () => {
    const text = toBibtex([
      { id: '1', type: 'book', 'citation-key': 'same' },
      { id: '2', type: 'book', 'citation-key': 'same' },
    ]);
    expect(parseBibtex(text, DEFAULT_LIMITS).entries.map((e) => e.key)).toEqual(['same', 'same_2']);
  });

  it('property: any text survives encodeText → decodeLatex', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const expected = text.replace(/[ \t\n\r\f]+/g, ' ').replace(/^ | $/g, '');
        expect(decodeLatex(encodeText(text), { rich: false })).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: rich text (markup and nocase) survives encodeRich → decodeLatex', () => {
    const word = fc.stringMatching(/^[A-Za-zé]{1,8}$/);
    const piece = fc.oneof(
      word,
      word.map((w) => `<i>${w}</i>`),
      word.map((w) => `<b>${w}</b>`),
      word.map((w) => `<span class="nocase">${w}</span>`),
      fc.constantFrom('&', '%', '$', '#', '_', '{', '}', '--'),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), (pieces) => {
        const text = pieces.join(' ');
        expect(decodeLatex(encodeRich(text), { rich: true })).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('property: names survive formatName → parseNameList', () => {
    const word = fc.stringMatching(/^[A-ZÄÖÜÉ][a-zäöüéß]{1,8}$/);
    const lower = fc.constantFrom('van', 'de la', 'von', 'di', 'van der');
    const name = fc.record(
      {
        family: fc.array(word, { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')),
        given: fc.array(word, { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')),
        'non-dropping-particle': lower,
        suffix: fc.constantFrom('Jr.', 'III'),
      },
      { requiredKeys: ['family'] },
    );
    fc.assert(
      fc.property(name, (n) => {
        const parsed = parseNameList(formatName(n), {});
        expect(parsed.names).toEqual([n]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('RIS and CSL-JSON round trips', () => {
  it('RIS → library → RIS keeps every tag', () => {
    const first = importText(fixture('sample.ris'), { format: 'ris' });
    expect(first.errors).toEqual([]);
    const again = importText(toRis(first.items.map((i) => i.item)), { format: 'ris' });
    const withoutId = (list: { item: CslItem }[]) => list.map(({ item: { id: _id, ...rest } }) => rest);
    expect(withoutId(again.items)).toEqual(withoutId(first.items));
  });

  it('CSL-JSON → library → CSL-JSON is the identity on valid items', () => {
    const first = items(fixture('sample.json'), 'csljson');
    expect(items(toCslJson(first), 'csljson')).toEqual(first);
  });

  it('BibTeX → CSL-JSON → RIS → CSL keeps the core of every item', () => {
    const fromBib = items(fixture('library.bib'), 'bibtex');
    const viaRis = items(toRis(items(toCslJson(fromBib), 'csljson')), 'ris');
    expect(viaRis).toHaveLength(fromBib.length);
    viaRis.forEach((it, i) => {
      const orig = fromBib[i]!;
      expect(it.type).toBe(orig.type);
      // RIS is plain text: the title's CSL markup (nocase, italics) does not go through it.
      expect(it.title).toBe(orig.title === undefined ? undefined : plainCslText(orig.title));
      expect(it.issued).toEqual(orig.issued);
      // BibTeX keeps a DOI's case (issue 17); the RIS and CSL-JSON importers still lower-case it.
      expect(it.DOI?.toLowerCase()).toBe(orig.DOI?.toLowerCase());
      expect(it.page).toBe(orig.page);
      expect((it.author ?? []).length).toBe((orig.author ?? []).length);
    });
  });
});
