// The CAYW text per format, as Better BibTeX writes it (its documented examples and its formatter's
// rules: natbib merges plain keys, biblatex's starred and multicite forms, pandoc's locator labels).
import { describe, expect, it } from 'vitest';
import { formatPicks, isTextFormat, scannableCite, type Pick } from '../../../electron/api/cayw-format';

const a: Pick = { citationKey: 'adams2001' };
const b: Pick = { citationKey: 'brigge2002' };
const located: Pick = { citationKey: 'adams2001', locator: '12-14', label: 'page', prefix: 'see', suffix: 'for more' };

describe('CAYW formats', () => {
  it('answers nothing for an empty pick, in every format', () => {
    for (const f of ['pandoc', 'latex', 'biblatex', 'mmd', 'typst', 'asciidoctor-bibtex'] as const)
      expect(formatPicks(f, [])).toBe('');
  });

  it('mmd: the documented [#adams2001][][#brigge2002][]', () => {
    expect(formatPicks('mmd', [a, b])).toBe('[#adams2001][][#brigge2002][]');
    expect(formatPicks('mmd', [{ ...a, prefix: 'see' }])).toBe('[see][#adams2001]');
  });

  it('pandoc: keys joined by "; ", brackets only when asked, locator with its abbreviation', () => {
    expect(formatPicks('pandoc', [a, b])).toBe('@adams2001; @brigge2002');
    expect(formatPicks('pandoc', [a, b], { brackets: true })).toBe('[@adams2001; @brigge2002]');
    expect(formatPicks('pandoc', [located], { brackets: true })).toBe('[see @adams2001, p. 12-14 for more]');
    expect(formatPicks('pandoc', [{ ...a, suppressAuthor: true }])).toBe('-@adams2001');
    expect(formatPicks('pandoc', [{ ...a, locator: '3', label: 'chapter' }])).toBe('@adams2001, ch. 3');
    // A locator without a label is a page.
    expect(formatPicks('pandoc', [{ ...a, locator: '7' }])).toBe('@adams2001, p. 7');
    // ?page= in the query drops the page label; ?chapter=chap. renames one.
    expect(formatPicks('pandoc', [{ ...a, locator: '7' }], { labels: { page: '' } })).toBe('@adams2001, 7');
    expect(formatPicks('pandoc', [{ ...a, locator: '3', label: 'chapter' }], { labels: { chapter: 'chap.' } })).toBe(
      '@adams2001, chap. 3',
    );
  });

  it('latex (natbib): one command for plain keys, one per key as soon as one has notes', () => {
    expect(formatPicks('latex', [a, b])).toBe('\\cite{adams2001,brigge2002}');
    expect(formatPicks('cite', [a])).toBe('\\cite{adams2001}');
    expect(formatPicks('latex', [a, b], { command: 'citep' })).toBe('\\citep{adams2001,brigge2002}');
    expect(formatPicks('citep', [a, b])).toBe('\\citep{adams2001,brigge2002}');
    expect(formatPicks('citet', [a])).toBe('\\citet{adams2001}');
    expect(
      formatPicks('natbib', [
        { ...a, suppressAuthor: true },
        { ...b, suppressAuthor: true },
      ]),
    ).toBe('\\citeyear{adams2001,brigge2002}');
    // Suppressing one author only: each key on its own.
    expect(formatPicks('latex', [{ ...a, suppressAuthor: true }, b])).toBe('\\citeyear{adams2001}\\cite{brigge2002}');
    // A page needs no "p." in LaTeX; other labels keep their abbreviation.
    expect(formatPicks('latex', [located, b])).toBe('\\cite[see][12-14, for more]{adams2001}\\cite{brigge2002}');
    expect(formatPicks('latex', [{ ...a, locator: '2', label: 'chapter' }])).toBe('\\cite[ch. 2]{adams2001}');
    expect(formatPicks('latex', [{ ...a, prefix: 'see' }])).toBe('\\cite[see][]{adams2001}');
    expect(formatPicks('latex', [{ ...a, suffix: 'and passim' }])).toBe('\\cite[and passim]{adams2001}');
  });

  it('biblatex: autocite by default, the starred form to hide the author, the s-form for notes on several keys', () => {
    expect(formatPicks('biblatex', [a])).toBe('\\autocite{adams2001}');
    expect(formatPicks('biblatex', [a, b])).toBe('\\autocite{adams2001,brigge2002}');
    expect(formatPicks('biblatex', [{ ...a, suppressAuthor: true }])).toBe('\\autocite*{adams2001}');
    expect(formatPicks('biblatex', [{ ...a, suppressAuthor: true }], { command: 'parencite' })).toBe(
      '\\parencite*{adams2001}',
    );
    // textcite has no starred form that hides the author.
    expect(formatPicks('biblatex', [{ ...a, suppressAuthor: true }], { command: 'textcite' })).toBe(
      '\\textcite{adams2001}',
    );
    expect(formatPicks('biblatex', [located, b])).toBe('\\autocites[see][12-14, for more]{adams2001}{brigge2002}');
    expect(formatPicks('biblatex', [located, b], { command: 'parencites' })).toBe(
      '\\parencites[see][12-14, for more]{adams2001}{brigge2002}',
    );
  });

  it('asciidoctor-bibtex and typst', () => {
    expect(formatPicks('asciidoctor-bibtex', [{ ...a, locator: '12' }, b])).toBe('cite:[adams2001(12), brigge2002]');
    expect(formatPicks('asciidoctor-bibtex', [a], { cite: 'citenp' })).toBe('citenp:[adams2001]');
    // The answer Better BibTeX 9 gives (vscode-zotero's recorded fixture).
    expect(formatPicks('typst', [{ citationKey: 'Author:2026-test' }])).toBe('#cite(<Author:2026-test>)');
    expect(formatPicks('typst', [located, { ...b, suppressAuthor: true }])).toBe(
      '#cite(<adams2001>, supplement: [p. 12\\-14, for more]) #cite(<brigge2002>, form: "year")',
    );
    expect(formatPicks('typst', [{ citationKey: 'DBLP:books/lib/Knuth86a' }])).toBe(
      '#cite(label("DBLP:books/lib/Knuth86a"))',
    );
  });

  it('scannable cite', () => {
    expect(scannableCite([located, b], ['Adams, 2001', 'Brigge, 2002'], ['zu:0:A1', 'zu:0:B2'])).toBe(
      '{ see | Adams, 2001 | p. 12-14 | for more | zu:0:A1 }{ | Brigge, 2002 | | | zu:0:B2 }',
    );
  });

  it('knows which formats it writes', () => {
    expect(isTextFormat('pandoc')).toBe(true);
    expect(isTextFormat('formatted-citation')).toBe(false);
    expect(isTextFormat('constructor')).toBe(false);
  });
});
