// Citations in LaTeX: the citation commands of LaTeX, natbib and biblatex in the .tex (with their
// optional arguments, starred forms, several keys, and biblatex's multicite `\cites`), and what BibTeX
// and biber read from the .aux (`\citation{a,b}`, `\abx@aux@cite{…}{key}`), which also holds the
// citations of \input and \include files and of macros. Comments and verbatim text cite nothing.
import type { FoundCitation } from '../../../shared/model/manuscript';
import type { ParsedCitations } from './markdown';
import { lineFinder } from './lines';
import { appendAll } from '../../../shared/model/arrays';

/** Commands whose mandatory argument is a list of keys. */
const COMMANDS = new Set([
  'cite',
  'Cite',
  'nocite',
  'citep',
  'citet',
  'Citep',
  'Citet',
  'citealp',
  'citealt',
  'Citealp',
  'Citealt',
  'citeauthor',
  'Citeauthor',
  'citeyear',
  'citeyearpar',
  'citenum',
  'citetitle',
  'citedate',
  'citeurl',
  'parencite',
  'Parencite',
  'textcite',
  'Textcite',
  'autocite',
  'Autocite',
  'footcite',
  'footcitetext',
  'smartcite',
  'Smartcite',
  'supercite',
  'fullcite',
  'footfullcite',
  'nptextcite',
  // biblatex's multicite commands: (pre)(post) for the whole list, then [pre][post]{keys} per part.
  'cites',
  'Cites',
  'parencites',
  'Parencites',
  'textcites',
  'Textcites',
  'autocites',
  'Autocites',
  'footcites',
  'smartcites',
  'supercites',
]);

/** Environments whose body is not LaTeX (the name repeated by \end, so nesting others cannot end them). */
const VERBATIM = /\\begin\{((?:verbatim|Verbatim|lstlisting|minted|comment|filecontents)\*?)\}[\s\S]*?\\end\{\1\}/g;

/** Blanks comments (`%` not escaped) and verbatim text, keeping every line and offset. */
function prose(text: string): string {
  let out = text.replace(
    /(?<!\\)((?:\\\\)*)%[^\n]*/g,
    (m, slashes: string) => slashes + ' '.repeat(m.length - slashes.length),
  );
  out = out.replace(VERBATIM, (m) => m.replace(/[^\n]/g, ' '));
  return out.replace(/\\verb\*?([^A-Za-z\s])[^\n]*?\1/g, (m) => ' '.repeat(m.length));
}

/** The index after a balanced group opened at `i` by `open`, or -1 when it never closes. */
function skipGroup(s: string, i: number, open: string, close: string): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return j + 1;
  }
  return -1;
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && /\s/.test(s[i]!)) i++;
  return i;
}

export function parseLatex(text: string): ParsedCitations {
  const s = prose(text);
  const lineOf = lineFinder(s);
  const citations: FoundCitation[] = [];
  let citesAll = false;
  for (const m of s.matchAll(/\\([A-Za-z]+)/g)) {
    const name = m[1]!;
    if (!COMMANDS.has(name)) continue;
    const multi = name.endsWith('cites');
    let i = m.index + m[0].length;
    if (s[i] === '*') i++;
    if (multi) {
      for (let k = 0; k < 2; k++) {
        const j = skipSpace(s, i);
        if (s[j] !== '(') break;
        const end = skipGroup(s, j, '(', ')');
        if (end < 0) break;
        i = end;
      }
    }
    for (;;) {
      let j = skipSpace(s, i);
      let optionals = 0;
      while (s[j] === '[' && optionals < 2) {
        const end = skipGroup(s, j, '[', ']');
        if (end < 0) break;
        j = skipSpace(s, end);
        optionals++;
      }
      if (s[j] !== '{') break;
      const end = skipGroup(s, j, '{', '}');
      if (end < 0) break;
      let offset = j + 1;
      for (const part of s.slice(j + 1, end - 1).split(',')) {
        const key = part.trim();
        const at = offset + part.length - part.trimStart().length;
        offset += part.length + 1;
        if (key === '') continue;
        if (key === '*') citesAll = true;
        else citations.push({ key, line: lineOf(at) });
      }
      i = end;
      if (!multi) break;
    }
  }
  return { citations, citesAll };
}

/** The keys an .aux file cites, in order, without repeats (BibTeX's \citation, biblatex's \abx@aux@cite). */
export function auxKeys(text: string): string[] {
  const keys: string[] = [];
  for (const m of text.matchAll(/\\citation\{([^}]*)\}/g)) appendAll(keys, m[1]!.split(','));
  for (const m of text.matchAll(/\\abx@aux@cite\{(?:[^}]*)\}\{([^}]*)\}|\\abx@aux@cite\{([^}{]*)\}(?!\{)/g))
    keys.push((m[1] ?? m[2])!);
  return [...new Set(keys.map((k) => k.trim()).filter((k) => k !== ''))];
}

/** The .aux as citations: `*` (from \nocite{*}) means every entry. */
export function parseAux(text: string): ParsedCitations {
  const keys = auxKeys(text);
  return {
    citations: keys.filter((k) => k !== '*').map((key) => ({ key, part: '.aux' })),
    citesAll: keys.includes('*'),
  };
}
