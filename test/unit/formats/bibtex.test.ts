import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { importText } from '../../../electron/core/formats';
import { decodeLatex } from '../../../electron/core/formats/bibtex/latex-decode';
import { parseNameList } from '../../../electron/core/formats/bibtex/names';

const FIXTURES = join(import.meta.dirname, '../../fixtures/formats');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** Read with Settings → Import at "always": these tests are about the mapping, not the setting (real-world-bibtex.test.ts). */
function bib(text: string) {
  return importText(text, { format: 'bibtex', sentenceCase: 'always' });
}
function byKey(items: { item: CslItem }[], key: string): CslItem {
  const found = items.find((i) => i.item['citation-key'] === key);
  if (!found) throw new Error(`no item ${key}`);
  return found.item;
}

describe('BibTeX import: the realistic library', () => {
  const result = bib(fixture('library.bib'));

  it('imports every entry, with no errors or warnings, each with the line it starts on', () => {
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.count).toBe(13);
    expect(result.items.map((i) => [i.sourceKey, i.line])).toContainEqual(['watson1953', 10]);
    expect(result.items.map((i) => [i.sourceKey, i.line])).toContainEqual(['parenthesised', 127]);
  });

  it('maps an article: macros, month macros, pages, DOI, unknown fields kept', () => {
    const w = byKey(result.items, 'watson1953');
    expect(w).toMatchObject({
      type: 'article-journal',
      'container-title': 'Nature',
      issued: { 'date-parts': [[1953, 4]] },
      volume: '171',
      issue: '4356',
      page: '737-738',
      DOI: '10.1038/171737a0',
      keyword: 'DNA, double helix',
      author: [
        { family: 'Watson', given: 'J. D.' },
        { family: 'Crick', given: 'F. H. C.' },
      ],
    });
    // An English Title Case title is stored in sentence case; the field as written is kept for export.
    const title = 'Molecular Structure of Nucleic Acids: A Structure for Deoxyribose Nucleic Acid';
    expect(w.title).toBe('Molecular structure of nucleic acids: A structure for deoxyribose nucleic acid');
    expect(w.custom).toEqual({
      bibtex: {
        type: 'article',
        fields: { owner: 'lab', timestamp: '2021.03.04' },
        kept: { title: { as: w.title, fields: { title }, written: title } },
      },
    });
  });

  it('decodes accents and keeps case-protected words as CSL nocase spans', () => {
    const g = byKey(result.items, 'Goedel1931');
    expect(g.title).toBe(
      'Über formal unentscheidbare Sätze der <span class="nocase">Principia Mathematica</span> und verwandter Systeme <span class="nocase">I</span>',
    );
    expect(g['container-title']).toBe('Monatshefte für Mathematik und Physik');
    expect(g.author).toEqual([{ family: 'Gödel', given: 'Kurt' }]);
  });

  it('reads names with particles, suffixes, corporate authors and "others"', () => {
    const b = byKey(result.items, 'beethoven');
    expect(b.author).toEqual([
      { given: 'Ludwig', 'non-dropping-particle': 'van', family: 'Beethoven' },
      { 'non-dropping-particle': 'de la', family: 'Fontaine', given: 'Jean' },
      { family: 'King', suffix: 'Jr.', given: 'Martin Luther' },
      { literal: 'World Health Organization' },
    ]);
    expect(b.publisher).toBe('Springer Verlag'); // @string concatenated with #
    // \emph{Collected} keeps its case, as BibTeX's own styles keep it (issue 42).
    expect(b.title).toBe('The <i>Collected</i> works and letters');
    const d = byKey(result.items, 'draft2024');
    expect(d.author).toHaveLength(2);
    expect((d.custom as { bibtex: { others: string[] } }).bibtex.others).toEqual(['author']);
  });

  it('resolves crossref: the parent proceedings give the chapter its booktitle, editors, publisher and year', () => {
    const c = byKey(result.items, 'chapter1');
    expect(c).toMatchObject({
      type: 'chapter',
      // Cased as the proceedings' own entry is (this file is read with sentence case "always").
      'container-title': 'Advances in neural information processing systems 14',
      publisher: 'MIT Press',
      issued: { 'date-parts': [[2002]] },
      editor: [{ family: 'Dietterich' }, { family: 'Becker' }, { family: 'Ghahramani' }],
    });
    expect(c.title).toBe('On discriminative vs. generative classifiers');
  });

  it('maps thesis and report types, keeping the source type for export', () => {
    expect(byKey(result.items, 'curie1903')).toMatchObject({
      type: 'thesis',
      genre: 'PhD thesis',
      publisher: 'Faculté des sciences de Paris',
    });
    expect(byKey(result.items, 'shannon1940')).toMatchObject({ type: 'thesis', genre: 'MSc thesis' });
    expect(byKey(result.items, 'cern2012')).toMatchObject({
      type: 'report',
      number: 'CMS-HIG-12-028',
      author: [{ literal: 'The CMS Collaboration' }],
      note: 'Submitted to Phys.\u00a0Lett.\u00a0B',
    });
  });

  it('decodes minimal math, percent signs, \\ss and dashes', () => {
    expect(byKey(result.items, 'draft2024').title).toBe('The α-helix in H<sub>2</sub>O: 10% faster folding at 37°C');
    expect(byKey(result.items, 'einstein1905').abstract).toMatch(
      /^Es ist bekannt, daß die Elektrodynamik Maxwells – wie/,
    );
  });

  it('reads entries delimited by parentheses and quoted values with braced quotes', () => {
    const p = byKey(result.items, 'parenthesised');
    expect(p.title).toBe('An entry in parentheses with a "quoted" word');
    expect(p.author).toEqual([
      { family: 'Dvořák', given: 'Antonín' },
      { family: 'Erdős', given: 'Paul' },
    ]);
  });
});

describe('BibLaTeX import', () => {
  const result = bib(fixture('biblatex.bib'));

  it('imports every entry (xdata entries are not items)', () => {
    expect(result.errors).toEqual([]);
    expect(result.items.map((i) => i.sourceKey)).toEqual([
      'lecun2015',
      'wikipedia-bibtex',
      'numpy',
      'gbif2020',
      'nyt2020',
      'patent1',
      'ipcc2021',
      'thesis-bl',
      'inbook1',
    ]);
  });

  it('reads ISO dates, ranges and circa, urldate, journaltitle, location', () => {
    expect(byKey(result.items, 'lecun2015')).toMatchObject({
      issued: { 'date-parts': [[2015, 5, 28]] },
      'container-title': 'Nature',
      'container-title-short': 'Nature',
    });
    expect(byKey(result.items, 'wikipedia-bibtex')).toMatchObject({
      type: 'webpage',
      accessed: { 'date-parts': [[2024, 1, 15]] },
    });
    expect(byKey(result.items, 'ipcc2021').issued).toEqual({ 'date-parts': [[2021], [2022]] });
    expect(byKey(result.items, 'thesis-bl').issued).toEqual({ 'date-parts': [[1855]], circa: true });
  });

  it('maps the BibLaTeX types: software, dataset, newspaper articles, patents, inbook', () => {
    expect(byKey(result.items, 'numpy')).toMatchObject({
      type: 'software',
      version: '1.26.4',
      publisher: 'ACM',
      'publisher-place': 'New York, NY, USA',
    });
    expect(byKey(result.items, 'gbif2020')).toMatchObject({ type: 'dataset', DOI: '10.15468/dl.abcd12' });
    expect(byKey(result.items, 'nyt2020')).toMatchObject({
      type: 'article-newspaper',
      'container-title': 'The New York Times',
    });
    expect(byKey(result.items, 'patent1')).toMatchObject({ type: 'patent', number: 'US 9,876,543 B2' });
    expect(byKey(result.items, 'inbook1')).toMatchObject({
      type: 'chapter',
      author: [{ family: 'Gogh', given: 'Vincent', 'non-dropping-particle': 'van' }],
      'container-author': [{ family: 'Jansen', given: 'Leo' }],
      'chapter-number': '3',
      publisher: 'Thames & Hudson',
    });
  });
});

describe('BibTeX syntax', () => {
  it('reports each broken entry with its line and reason, and keeps the entries around it', () => {
    const text = [
      '@article{good1, title = {One}, year = 2001}',
      '',
      '@article{bad1, title = {Unclosed,',
      '  year = 2002',
      '}',
      '',
      '@book{good2, title = {Two}}',
      '@misc{bad2, title = "x" year = 3}',
      '@misc{good3, title = {Three}}',
      '@misc{cut, title = {The end',
    ].join('\n');
    const r = bib(text);
    expect(r.items.map((i) => i.sourceKey)).toEqual(['good1', 'good2', 'good3']);
    expect(r.errors.map((e) => e.line)).toEqual([3, 8, 10]);
    expect(r.errors[0]!.reason).toMatch(/not closed before the next entry/);
    expect(r.errors[1]!.reason).toMatch(/Expected "," or "}" after the field "title"/);
    expect(r.errors[2]!.reason).toMatch(/never closed: the file ends inside it/);
    // Each excerpt is the entry's own first line, not the lines after it.
    expect(r.errors.map((e) => e.excerpt)).toEqual([
      '@article{bad1, title = {Unclosed,',
      '@misc{bad2, title = "x" year = 3}',
      '@misc{cut, title = {The end',
    ]);
  });

  it('treats @comment, free text and stray @ as comments, and keeps @preamble', () => {
    const r = bib(
      'Some notes, mail me @ home.\n@comment{ignored = {x}}\n@preamble{"\\def\\x{y}"}\n@misc{a, title={T}}',
    );
    expect(r.errors).toEqual([]);
    expect(r.count).toBe(1);
    expect(r.preambles).toEqual(['\\def\\x{y}']);
  });

  it('warns about undefined macros, duplicate fields and duplicate keys, with lines', () => {
    const r = bib('@misc{a,\n title = {T},\n journal = undefinedmacro,\n title = {Again}\n}\n@misc{a, title={Second}}');
    expect(r.items).toHaveLength(2);
    expect(r.items[1]!.item.id).toBe('a#2');
    expect(r.warnings.map((w) => [w.line, w.reason.slice(0, 30)])).toEqual([
      [3, 'The macro "undefinedmacro" in '],
      [4, 'The field "title" appears twic'],
      [6, 'The citation key "a" is used b'],
    ]);
  });

  it('imports an entry without a key with a warning; unknown types become documents', () => {
    const r = bib('@misc{title = {No key}}\n@weirdtype{k, title = {W}}');
    expect(r.items.map((i) => i.item.type)).toEqual(['document', 'document']);
    expect(r.items[0]!.item.id).toBe('entry-line-1');
    expect(r.warnings.map((w) => w.reason)).toEqual([
      expect.stringMatching(/no citation key/),
      expect.stringMatching(/@weirdtype is not a BibTeX or BibLaTeX type/),
    ]);
  });

  it('reads month as macro, number, abbreviation or name; a non-numeric year is a literal date', () => {
    const r = bib(
      '@misc{a, year=2020, month=sep}\n@misc{b, year=2020, month={9}}\n@misc{c, year=2020, month={Sept.}}\n@misc{d, year={in press}}',
    );
    expect(r.items.map((i) => i.item.issued)).toEqual([
      { 'date-parts': [[2020, 9]] },
      { 'date-parts': [[2020, 9]] },
      { 'date-parts': [[2020, 9]] },
      { literal: 'in press' },
    ]);
  });
});

describe('LaTeX decoding', () => {
  const rich = (s: string) => decodeLatex(s, { rich: true });
  const plain = (s: string) => decodeLatex(s, { rich: false });

  it.each([
    ["\\'e", 'é'],
    ["{\\'e}", 'é'],
    ["\\'{e}", 'é'],
    ['{\\"o}', 'ö'],
    ['\\"{\\i}', 'ï'],
    ['\\c{c}', 'ç'],
    ['\\v{s}', 'š'],
    ['\\H{o}', 'ő'],
    ['\\k{a}', 'ą'],
    ['\\~n', 'ñ'],
    ['\\^o', 'ô'],
    ['\\ss', 'ß'],
    ['\\aa', 'å'],
    ['\\AA', 'Å'],
    ['\\o', 'ø'],
    ['\\O', 'Ø'],
    ['\\ae', 'æ'],
    ['\\l', 'ł'],
    ['Stra{\\ss}e', 'Straße'],
    ['\\&', '&'],
    ['10\\%', '10%'],
    ['a~b', 'a\u00a0b'],
    ['1--2', '1–2'],
    ['a---b', 'a—b'],
    ["``quoted''", '\u201cquoted\u201d'],
    ['\\textendash', '–'],
    ['$\\alpha$ and $\\beta$', 'α and β'],
    ['\\url{http://x.org/a_b}', 'http://x.org/a_b'],
  ])('%s → %s', (source, expected) => {
    expect(plain(source)).toBe(expected);
  });

  it('turns formatting into CSL markup in rich fields and drops it in plain ones', () => {
    expect(rich('A \\textit{B} \\textbf{C} \\emph{D} \\textsc{E} x\\textsuperscript{2} H\\textsubscript{2}O')).toBe(
      'A <i>B</i> <b>C</b> <i>D</i> <span style="font-variant:small-caps;">E</span> x<sup>2</sup> H<sub>2</sub>O',
    );
    expect(rich('{\\em emphasised words} after')).toBe('<i>emphasised words</i> after');
    expect(plain('A \\textit{B}')).toBe('A B');
  });

  it('protects case with top-level braces only, not for special characters or nested groups', () => {
    expect(rich('The {RNA} world')).toBe('The <span class="nocase">RNA</span> world');
    expect(rich('{{Nested {Group}}}')).toBe('<span class="nocase">Nested Group</span>');
    expect(rich('{\\"O}sterreich')).toBe('Österreich');
  });

  it('collects unknown commands, keeping their argument', () => {
    const unknown = new Set<string>();
    expect(decodeLatex('a \\weird{text} b', { rich: false, unknown })).toBe('a text b');
    expect([...unknown]).toEqual(['weird']);
  });
});

describe('BibTeX names', () => {
  const names = (s: string) => parseNameList(s, {}).names;
  it.each([
    ['Donald E. Knuth', { given: 'Donald E.', family: 'Knuth' }],
    ['Knuth, Donald E.', { family: 'Knuth', given: 'Donald E.' }],
    ['Ludwig van Beethoven', { given: 'Ludwig', 'non-dropping-particle': 'van', family: 'Beethoven' }],
    ['van Beethoven, Ludwig', { 'non-dropping-particle': 'van', family: 'Beethoven', given: 'Ludwig' }],
    [
      "Charles Louis Xavier Joseph de la Vall{\\'e}e Poussin",
      { given: 'Charles Louis Xavier Joseph', 'non-dropping-particle': 'de la', family: 'Vallée Poussin' },
    ],
    ['Ford, Jr., Henry', { family: 'Ford', suffix: 'Jr.', given: 'Henry' }],
    ['{Barnes and Noble, Inc.}', { literal: 'Barnes and Noble, Inc.' }],
    ['{\\"U}nal, Ay{\\c s}e', { family: 'Ünal', given: 'Ayşe' }],
    ['Brinch Hansen, Per', { family: 'Brinch Hansen', given: 'Per' }],
    ['family=Gogh, given=Vincent, prefix=van', { family: 'Gogh', given: 'Vincent', 'non-dropping-particle': 'van' }],
    ['Plato', { family: 'Plato' }],
  ])('%s', (source, expected) => {
    expect(names(source)).toEqual([expected]);
  });

  it('splits on "and" at brace level 0 only, in any case, and notes "and others"', () => {
    expect(parseNameList('A, B and {C and D} AND E, F and others', {})).toEqual({
      names: [{ family: 'A', given: 'B' }, { literal: 'C and D' }, { family: 'E', given: 'F' }],
      others: true,
    });
  });
});
