import { describe, expect, it } from 'vitest';
import { auxKeys, parseAux, parseLatex } from '../../../electron/core/manuscript/latex';

const keys = (text: string) => parseLatex(text).citations.map((c) => [c.key, c.line]);

describe('parseLatex', () => {
  it('reads natbib and biblatex commands with optional arguments, stars and several keys', () => {
    const tex = String.raw`\documentclass{article}
\usepackage[natbib]{biblatex}
\begin{document}
Prior work \cite{knuth1984} and \citep[see][p.~3]{lamport1994,   mittelbach2004}.
\citet*{goossens1997} disagreed; \parencite[ch.~2]{knuth1984}.
\textcite{oetiker}, \autocite[12]{kopka2004} and \Textcite{kopka2004}.
% \cite{commented}
A 100\% sure claim \cite{escaped}.
\begin{verbatim}
\cite{inverbatim}
\end{verbatim}
\verb|\cite{inverb}| and \nocite{extra1,extra2}
\autocites(see)(and more)[3]{multi1}[4]{multi2} and
\cite
  [p. 4]
  {spread}
\end{document}`;
    expect(keys(tex)).toEqual([
      ['knuth1984', 4],
      ['lamport1994', 4],
      ['mittelbach2004', 4],
      ['goossens1997', 5],
      ['knuth1984', 5],
      ['oetiker', 6],
      ['kopka2004', 6],
      ['kopka2004', 6],
      ['escaped', 8],
      ['extra1', 12],
      ['extra2', 12],
      ['multi1', 13],
      ['multi2', 13],
      ['spread', 16],
    ]);
    expect(parseLatex(tex).citesAll).toBe(false);
  });

  it('sees \\nocite{*}', () => {
    const r = parseLatex('\\nocite{*}\\cite{a}');
    expect(r.citesAll).toBe(true);
    expect(r.citations.map((c) => c.key)).toEqual(['a']);
  });

  it('does not take commands that merely start like a citation command', () => {
    expect(keys('\\citestyle{x} \\citation{y} \\cite{z}')).toEqual([['z', 1]]);
  });
});

describe('the .aux', () => {
  it("reads BibTeX's \\citation and biber's \\abx@aux@cite, and \\nocite{*}", () => {
    const aux = String.raw`\relax
\citation{knuth1984,lamport1994}
\citation{knuth1984}
\citation{*}
\abx@aux@cite{0}{biber1}
\abx@aux@cite{biber2}
\bibdata{refs}`;
    expect(auxKeys(aux)).toEqual(['knuth1984', 'lamport1994', '*', 'biber1', 'biber2']);
    const r = parseAux(aux);
    expect(r.citesAll).toBe(true);
    expect(r.citations.map((c) => [c.key, c.part])).toEqual([
      ['knuth1984', '.aux'],
      ['lamport1994', '.aux'],
      ['biber1', '.aux'],
      ['biber2', '.aux'],
    ]);
  });
});
