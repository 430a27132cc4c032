// Issue 42 point 9: words in bold and italic keep their case through a BibTeX export. BibTeX keeps
// `\textit{In vivo}` but lowers `{\textit{In vivo}}`; pandoc keeps only the latter; so the export
// writes `{{\textit{In vivo}}}`, which both keep. Checked with the real bibtex (plain.bst sentence-cases
// titles) and with pandoc --citeproc and an APA style, as well as with our own import.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import { importText, toBibtex } from '../../../electron/core/formats';
import { encodeRich } from '../../../electron/core/formats/bibtex/latex-encode';
import { toSentenceCase } from '../../../electron/core/formats/bibtex/sentence-case';

const APA = '/usr/share/citation-style-language/styles/apa.csl';
const dir = mkdtempSync(join(tmpdir(), 'citewise-case-spans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// As Better BibTeX and JabRef write markup in a title.
const BBT = String.raw`@article{kim_2020,
  title = {Repair of \textbf{DNA} Damage in \emph{In Vivo} Models of \textit{E. Coli}},
  author = {Kim, Ana and Lee, Bo},
  journal = {Journal of Repair},
  year = {2020}
}
`;

// As our rich-text title model stores a title (from CSL-JSON, the Connector, or an edit).
const RICH: CslItem = {
  id: 'park_2021',
  type: 'article-journal',
  'citation-key': 'park_2021',
  title: 'Tracking <b>CRISPR</b> edits <i>In vivo</i> in <i>E. coli</i> and <b>Hela</b> cells',
  author: [{ family: 'Park', given: 'Chris' }],
  'container-title': 'Genome Letters',
  issued: { 'date-parts': [[2021]] },
};

function titles(text: string, sentenceCase: 'always' | 'protected' | 'off' = 'always'): string[] {
  const r = importText(text, { format: 'bibtex', sentenceCase });
  expect(r.errors).toEqual([]);
  return r.items.map((i) => String(i.item.title));
}

/** What BibTeX's plain.bst prints: it sentence-cases every title with change.case$. */
function bibtexPrints(bib: string): string {
  writeFileSync(join(dir, 'refs.bib'), bib);
  writeFileSync(join(dir, 'doc.aux'), '\\relax\n\\citation{*}\n\\bibstyle{plain}\n\\bibdata{refs}\n');
  execFileSync('bibtex', ['doc'], { cwd: dir, stdio: 'pipe' });
  return readFileSync(join(dir, 'doc.bbl'), 'utf8').replace(/\s+/g, ' ');
}

/** What pandoc --citeproc prints with APA, which stores titles in sentence case (pandoc lowers them). */
function pandocPrints(bib: string): string {
  writeFileSync(join(dir, 'refs.bib'), bib);
  const md = '---\nnocite: "@*"\n---\n';
  return execFileSync(
    'pandoc',
    [
      '--citeproc',
      '--bibliography',
      join(dir, 'refs.bib'),
      '--csl',
      APA,
      '-f',
      'markdown',
      '-t',
      'plain',
      '--wrap=none',
    ],
    { input: md },
  ).toString();
}

/** The item as if it had come from anywhere but a .bib file: what the export writes is its own. */
function withoutSource(item: CslItem): CslItem {
  const { custom: _custom, ...rest } = item;
  return rest as CslItem;
}

describe('bold and italic spans keep their case', () => {
  it('a BBT/JabRef title: our import sentence-cases the rest and leaves the spans as written', () => {
    expect(titles(BBT)).toEqual(['Repair of <b>DNA</b> damage in <i>In Vivo</i> models of <i>E. Coli</i>']);
    // The sentence caser itself: markup protects, the words around it are lowered.
    expect(toSentenceCase('The <i>Drosophila</i> Genome Project')).toBe('The <i>Drosophila</i> genome project');
    expect(toSentenceCase('The <sup>Heavy</sup> Elements')).toBe('The <sup>heavy</sup> elements');
  });

  it('the rich model → BibTeX → our import (sentence case on) gives the title back unchanged', () => {
    for (const biblatex of [false, true]) {
      const bib = toBibtex([RICH], { biblatex });
      expect(bib).toContain('{{\\textbf{CRISPR}}}');
      expect(bib).toContain('{{\\textit{In vivo}}}');
      for (const mode of ['always', 'protected', 'off'] as const) expect(titles(bib, mode)).toEqual([RICH.title]);
    }
  });

  it('a BBT title, edited in the library (so written from the model), survives a second round trip', () => {
    const first = importText(BBT, { format: 'bibtex', sentenceCase: 'always' }).items.map((i) => withoutSource(i.item));
    const again = importText(toBibtex(first), { format: 'bibtex', sentenceCase: 'always' }).items.map((i) =>
      withoutSource(i.item),
    );
    expect(again.map((i) => i.title)).toEqual(first.map((i) => i.title));
  });

  it('bibtex (plain.bst) keeps the spans of our export, and lowers the words around them', () => {
    const out = bibtexPrints(toBibtex([RICH]));
    expect(out).toContain('Tracking {{\\textbf{CRISPR}}} edits {{\\textit{In vivo}}} in {{\\textit{E. coli}}}');
    expect(out).toContain('{{\\textbf{Hela}}} cells');
  });

  it('pandoc --citeproc with APA keeps them too, from BibTeX and from BibLaTeX', () => {
    for (const biblatex of [false, true]) {
      const out = pandocPrints(toBibtex([RICH], { biblatex }));
      expect(out).toContain('Tracking CRISPR edits In vivo in E. coli and Hela cells');
    }
    // Before: \textit{In vivo} as the export wrote it, which pandoc lowers ("in vivo", "e. Coli").
    const before = pandocPrints(BBT);
    expect(before).toContain('in vivo models of e. Coli');
  });

  it('adds the braces only where a span has letters and nothing protects it yet', () => {
    // No letters: nothing to protect.
    expect(encodeRich('CO<sub>2</sub> and <i>2</i>')).toBe('CO\\textsubscript{2} and \\textit{2}');
    // One letter is enough.
    expect(encodeRich('The <i>p</i> value')).toBe('The {{\\textit{p}}} value');
    // Inside a nocase span or another span: the outer braces protect it.
    expect(encodeRich('<span class="nocase">A <i>B</i></span>')).toBe('{A \\textit{B}}');
    expect(encodeRich('<i>A <b>B</b></i>')).toBe('{{\\textit{A \\textbf{B}}}}');
    // A nocase span that starts with a command would be a "special character" to BibTeX: braced twice.
    expect(encodeRich('<span class="nocase"><i>In</i> Vivo</span>')).toBe('{{\\textit{In} Vivo}}');
    for (const text of ['<span class="nocase">A <i>B</i></span>', '<span class="nocase"><i>In</i> Vivo</span>'])
      expect(titles(toBibtex([{ ...RICH, title: text }]), 'off')).toEqual([text]);
  });
});
