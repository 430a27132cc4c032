// Issue 42, points 3–5, 7 and 10: URLs with LaTeX escapes, @article with journal and booktitle,
// Embase/Ovid RIS names, keys with parentheses, and what RIS export keeps (thesis type, annote, PMID,
// numeric keys). Inputs are shaped as JabRef, Google Scholar, Embase/Ovid and EndNote write them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { importText, toBibtex, toRis, type ImportFormat } from '../../../electron/core/formats';
import { importItems, testLibrary, type TestLibrary } from '../library/helpers/lib';

const REAL_WORLD = join(import.meta.dirname, '../../fixtures/real-world');

function items(text: string, format: ImportFormat): CslItem[] {
  const r = importText(text, { format });
  expect(r.errors).toEqual([]);
  return r.items.map((i) => i.item);
}

describe('URLs written with LaTeX escapes (point 3)', () => {
  it('reads the link without the escapes, from url and from howpublished', () => {
    const bib = String.raw`@misc{a, title = {A}, url = {https://example.org/data\_set\%202019\#part\&x=1}}
@misc{b, title = {B}, url = {http://www.cs.example.edu/\~{}kim/paper.pdf}}
@misc{c, title = {C}, url = {http://www.cs.example.edu/\textasciitilde{}kim/p\textunderscore{}1.pdf}}
@misc{d, title = {D}, howpublished = {\url{https://example.org/a\_b}}}
@misc{e, title = {E}, url = {https://example.org/plain_path?q=1#frag}}`;
    expect(items(bib, 'bibtex').map((i) => i.URL)).toEqual([
      'https://example.org/data_set%202019#part&x=1',
      'http://www.cs.example.edu/~kim/paper.pdf',
      'http://www.cs.example.edu/~kim/p_1.pdf',
      'https://example.org/a_b',
      'https://example.org/plain_path?q=1#frag',
    ]);
  });

  it('writes the link back without %5C, and it reads back the same', () => {
    const list = items(String.raw`@misc{a, title = {A}, url = {https://example.org/data\_set\#part}}`, 'bibtex');
    const out = toBibtex(list);
    expect(out).not.toContain('%5C');
    expect(items(out, 'bibtex')[0]!.URL).toBe('https://example.org/data_set#part');
  });
});

describe('@article with both journal and booktitle (point 4)', () => {
  it('keeps the journal as the container and the booktitle as a field', () => {
    const bib = String.raw`@article{a, title = {T}, journal = {IEEE Transactions on Robotics}, booktitle = {Proc. ICRA}, year = {2019}}
@inproceedings{b, title = {T}, journal = {LNCS}, booktitle = {Proc. ECCV}, year = {2019}}
@article{c, title = {T}, booktitle = {Only a booktitle}, year = {2019}}`;
    const [a, b, c] = items(bib, 'bibtex');
    expect(a!['container-title']).toBe('IEEE Transactions on Robotics');
    expect((a!.custom?.['bibtex'] as { fields?: Record<string, string> }).fields?.['booktitle']).toBe('Proc. ICRA');
    // A paper in proceedings is in the book, whatever journal (series) it names.
    expect(b!['container-title']).toBe('Proc. ECCV');
    expect(c!['container-title']).toBe('Only a booktitle');
    // Both come back on export.
    expect(toBibtex([a!])).toMatch(/journal = \{IEEE Transactions on Robotics\}[\s\S]*booktitle = \{Proc. ICRA\}/);
  });
});

describe('RIS names as Embase and Ovid write them (point 5)', () => {
  it('reads "Fanning E." as family Fanning, given E.', () => {
    const list = items(readFileSync(join(REAL_WORLD, 'embase-ovid.ris'), 'utf8'), 'ris');
    expect(list[0]!.author).toEqual([
      { family: 'Fanning', given: 'E.' },
      { family: 'Mackenzie-Ross', given: 'S.J.' },
      { family: "O'Brien", given: 'K.L.' },
      { family: 'de Souza', given: 'R.-M.' },
    ]);
    // PubMed's own form still reads, and a given-first name stays given-first.
    const ris = 'TY  - JOUR\nAU  - Watson JD\nAU  - Catarina Barata\nTI  - T\nER  - \n';
    expect(items(ris, 'ris')[0]!.author).toEqual([
      { family: 'Watson', given: 'JD' },
      { family: 'Barata', given: 'Catarina' },
    ]);
  });
});

describe('keys with parentheses (point 7)', () => {
  let t: TestLibrary;
  beforeEach(() => {
    t = testLibrary();
  });
  afterEach(() => t.dispose());

  it('imports the entry and replaces the key, as docs/formats.md says', () => {
    const bib = String.raw`@article{Smith(2020),
  author = {Smith, John},
  title = {Parenthesised keys},
  journal = {J},
  year = {2020}
}
@article(paren, title = {Entry in parentheses}, year = {2021})`;
    const r = importText(bib, { format: 'bibtex' });
    expect(r.errors).toEqual([]);
    expect(r.items.map((i) => i.item.title)).toEqual(['Parenthesised keys', 'Entry in parentheses']);
    const stored = importItems(
      t.library,
      r.items.map((i) => i.item),
    );
    const keys = t.library.cslOf(stored.ids).map((i) => i['citation-key']);
    expect(keys[1]).toBe('paren');
    expect(keys[0]).not.toMatch(/[()]/);
  });
});

describe('RIS export keeps thesis type, annote, PMID and numeric keys (point 10)', () => {
  const source: CslItem[] = [
    {
      id: 'a',
      type: 'thesis',
      title: 'A thesis',
      genre: 'PhD thesis',
      publisher: 'MIT',
      annote: 'Read for chapter 2',
      'citation-key': 'a',
    },
    { id: 'b', type: 'article-journal', title: 'A PubMed paper', PMID: '31645228', 'citation-key': '2019' },
    {
      id: 'c',
      type: 'article-journal',
      title: 'A second',
      PMID: '13054692',
      PMCID: 'PMC1234567',
      'citation-key': '42',
    },
  ];

  it('writes them as EndNote and Ovid do, and reads them back', () => {
    const ris = toRis(source);
    expect(ris).toContain('M3  - PhD thesis');
    expect(ris).toContain('RN  - Read for chapter 2');
    expect(ris).toContain('AN  - 31645228');
    expect(ris).toContain('C2  - PMC1234567');
    const back = items(ris, 'ris');
    expect(back.map((i) => [i.genre ?? null, i.annote ?? null, i.PMID ?? null, i['citation-key'] ?? null])).toEqual([
      ['PhD thesis', 'Read for chapter 2', null, 'a'],
      [null, null, '31645228', '2019'],
      [null, null, '13054692', '42'],
    ]);
    expect(back[2]!.PMCID).toBe('PMC1234567');
  });

  it('reads the PubMed id from an Ovid MEDLINE accession number and from PubMed U1', () => {
    const ris =
      'TY  - JOUR\nDB  - Ovid MEDLINE(R)\nAN  - 31645228\nTI  - T\nER  - \n\nTY  - JOUR\nU1  - 13054692[pmid]\nTI  - U\nER  - \n\nTY  - JOUR\nDB  - Embase\nAN  - 633052108\nTI  - V\nER  - \n';
    const list = items(ris, 'ris');
    expect(list.map((i) => i.PMID ?? null)).toEqual(['31645228', '13054692', null]);
    // Embase's accession number is not a PubMed id.
    expect(list[2]!['archive_location']).toBe('633052108');
  });

  it('still treats a numeric ID without the matching LB as a record number', () => {
    const r = importText('TY  - JOUR\nID  - 17\nTI  - T\nER  - \n', { format: 'ris' });
    expect(r.items[0]!.item['citation-key']).toBeUndefined();
  });
});
