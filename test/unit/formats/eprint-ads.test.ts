// Issue 42 point 2 and issue 32 (arXiv eprint reaching the CSL, NASA ADS journal macros), issue 42
// point 6 (howpublished text). The entries are shaped as arXiv's own BibTeX, NASA ADS, Mendeley and
// biblatex users write them; the links are the ones pandoc makes from eprint/eprinttype.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { importText, toBibtex, toCslJson, toRis } from '../../../electron/core/formats';
import { createCiteFormatter, directoryAssets } from '../../../electron/core/formats/cite';
import { buildCslDir } from './cite/helpers';

const REAL_WORLD = join(import.meta.dirname, '../../fixtures/real-world');

function items(text: string): CslItem[] {
  const r = importText(text, { format: 'bibtex' });
  expect(r.errors).toEqual([]);
  return r.items.map((i) => i.item);
}

const EPRINTS = String.raw`@online{arxiv, author = {Doe, Jane}, title = {A preprint}, eprint = {2101.00001}, eprinttype = {arXiv}, eprintclass = {cs.LG}, year = 2021}
@article{old, author = {Doe, Jane}, title = {Old-style}, journal = {Phys. Lett. B}, eprint = {hep-th/9901001}, archiveprefix = {arXiv}, primaryclass = {hep-th}, year = 1999}
@article{pubmed, author = {Doe, Jane}, title = {Indexed}, journal = {Lancet}, eprint = {12345678}, eprinttype = {pubmed}, year = 2021}
@book{gb, author = {Doe, Jane}, title = {A book}, eprint = {abcDEF12}, eprinttype = {googlebooks}, year = 1999}
@article{jstor, author = {Doe, Jane}, title = {In JSTOR}, journal = {J}, eprint = {1234567}, eprinttype = {jstor}, year = 1999}
@report{hdl, author = {Doe, Jane}, title = {A handle}, institution = {MIT}, eprint = {1721.1/12345}, eprinttype = {hdl}, year = 1999}
@article{both, author = {Doe, Jane}, title = {Has a URL}, journal = {J}, url = {https://example.org/paper}, eprint = {2101.00002}, eprinttype = {arxiv}, year = 2021}
@article{unknown, author = {Doe, Jane}, title = {Unknown archive}, journal = {J}, eprint = {xyz}, eprinttype = {somewhere}, year = 2021}
@misc{noType, author = {Doe, Jane}, title = {No type}, eprint = {2101.00003}, year = 2021}`;

describe('eprint with eprinttype or archiveprefix (42.2)', () => {
  it('gives the link pandoc gives, the PMID, and an unpublished arXiv paper its number', () => {
    const list = items(EPRINTS);
    const got = Object.fromEntries(list.map((i) => [i.id, [i.URL ?? null, i.PMID ?? null, i.number ?? null]]));
    expect(got).toEqual({
      arxiv: ['https://arxiv.org/abs/2101.00001', null, 'arXiv:2101.00001'],
      old: ['https://arxiv.org/abs/hep-th/9901001', null, null],
      pubmed: ['https://www.ncbi.nlm.nih.gov/pubmed/12345678', '12345678', null],
      gb: ['https://books.google.com?id=abcDEF12', null, null],
      jstor: ['https://www.jstor.org/stable/1234567', null, null],
      hdl: ['https://hdl.handle.net/1721.1/12345', null, null],
      // A url the entry gives wins, as in pandoc.
      both: ['https://example.org/paper', null, null],
      unknown: [null, null, null],
      noType: [null, null, null],
    });
  });

  it('agrees with pandoc on every link pandoc makes', () => {
    const pandoc = JSON.parse(
      execFileSync('pandoc', ['-f', 'biblatex', '-t', 'csljson'], { input: EPRINTS }).toString(),
    ) as CslItem[];
    const ours = Object.fromEntries(items(EPRINTS).map((i) => [i.id, i.URL]));
    for (const p of pandoc) if (p.URL !== undefined) expect(ours[p.id], p.id).toBe(p.URL);
  });

  it('reaches CSL-JSON, RIS and the styles, and BibTeX export gives the eprint fields back', async () => {
    const list = items(EPRINTS);
    const json = JSON.parse(toCslJson(list)) as CslItem[];
    expect(json.find((i) => i.id === 'pubmed')).toMatchObject({
      URL: 'https://www.ncbi.nlm.nih.gov/pubmed/12345678',
      PMID: '12345678',
    });
    const ris = toRis(list);
    expect(ris).toContain('UR  - https://arxiv.org/abs/2101.00001');
    expect(ris).toContain('AN  - 12345678');
    const bib = toBibtex(list);
    expect(bib).toContain('eprint = {2101.00001}');
    expect(bib).toContain('eprinttype = {arXiv}');
    expect(bib).toContain('archiveprefix = {arXiv}');
    expect(toBibtex(list, { biblatex: true })).not.toContain('arxiv.org');
    expect(items(bib).map((i) => i.URL)).toEqual(list.map((i) => i.URL));

    const f = createCiteFormatter({ assets: directoryAssets(buildCslDir()), workers: 0 });
    try {
      for (const style of ['apa', 'chicago', 'ieee', 'vancouver'] as const) {
        const out = await f.formatBibliography(list, { style, format: 'text' });
        const text = (id: string) => out.entries.find((e) => e.id === id)!.value;
        expect(text('arxiv'), style).toContain('arxiv.org/abs/2101.00001');
        expect(text('jstor'), style).toContain('jstor.org/stable/1234567');
      }
    } finally {
      await f.close();
    }
  }, 180_000);

  it('reads the Mendeley shape (archivePrefix + arxivId + eprint)', () => {
    const mendeley = items(readFileSync(join(REAL_WORLD, 'mendeley-export.bib'), 'utf8'));
    expect(mendeley.find((i) => i['citation-key'] === 'Vaswani2017')!.URL).toBe('https://arxiv.org/abs/1706.03762');
  });
});

describe('NASA ADS journal macros (issue 32)', () => {
  it('expands \\apj, \\mnras, \\aap to the journal, with the abbreviation, and writes the macro back', () => {
    const r = importText(readFileSync(join(REAL_WORLD, 'nasa-ads.bib'), 'utf8'), { format: 'bibtex' });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    const list = r.items.map((i) => i.item);
    expect(list.map((i) => [i['container-title'], i['container-title-short'] ?? null])).toEqual([
      ['The Astrophysical Journal', 'ApJ'],
      ['Monthly Notices of the Royal Astronomical Society', 'MNRAS'],
      ['Astronomy and Astrophysics', 'A&A'],
      ['arXiv e-prints', null],
    ]);
    expect(list.map((i) => i.URL)).toEqual([
      'https://arxiv.org/abs/1512.01234',
      'https://arxiv.org/abs/1810.05678',
      'https://arxiv.org/abs/1807.06209',
      'https://arxiv.org/abs/2301.01234',
    ]);
    const bib = toBibtex(list);
    expect(bib).toContain('journal = {\\apj}');
    expect(bib).not.toContain('shortjournal');
    // An unknown macro is still reported, not guessed.
    const odd = importText('@article{k, title = {T}, journal = {\\notajournal}, year = 2020}', { format: 'bibtex' });
    expect(odd.warnings.map((w) => w.reason).join(' ')).toContain('\\notajournal');
  });
});

describe('howpublished text (42.6)', () => {
  it('is the publisher, as pandoc reads it, and goes back to howpublished', () => {
    const [z] = items('@misc{z, author = {Kim, Ana}, title = {Survey data}, howpublished = {Zenodo}, year = 2019}');
    expect(z!.publisher).toBe('Zenodo');
    expect(toBibtex([z!])).toContain('howpublished = {Zenodo}');
    // A link in howpublished stays the URL; a publisher the entry gives stays the publisher.
    const [u, p] = items(String.raw`@misc{u, title = {Page}, howpublished = {\url{https://example.org}}}
@misc{p, title = {Report}, publisher = {CERN}, howpublished = {Technical note}}`);
    expect([u!.URL, u!.publisher]).toEqual(['https://example.org', undefined]);
    expect(p!.publisher).toBe('CERN');
    expect(toBibtex([p!])).toContain('howpublished = {Technical note}');
  });
});
