// Citations in LaTeX: the citation commands of LaTeX, natbib and biblatex in the .tex (with their
// optional arguments, starred forms, several keys, and biblatex's multicite `\cites`), and what BibTeX
// and biber read from the .aux (`\citation{a,b}`, `\abx@aux@cite{…}{key}`), which also holds the
// citations of \input and \include files and of macros. Comments and verbatim text cite nothing.
import type { FoundCitation } from '../../../shared/model/manuscript';
import type { ParsedCitations } from './markdown';
import { lineFinder } from './lines';

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
const VERBATIM_BEGIN = /\\begin\{((?:verbatim|Verbatim|lstlisting|minted|comment|filecontents)\*?)\}/g;

const blankText = (m: string): string => m.replace(/[^\n]/g, ' ');

/**
 * Blanks verbatim environments. By hand, not with one lazy regex: `\begin{verbatim}` repeated with no
 * `\end` made every opening scan to the end of the file (quadratic). Once an environment is found
 * never to end, later openings of it are not looked at again.
 */
function blankVerbatim(text: string): string {
  const unended = new Set<string>();
  let out = '';
  let copied = 0;
  VERBATIM_BEGIN.lastIndex = 0;
  for (let m = VERBATIM_BEGIN.exec(text); m !== null; m = VERBATIM_BEGIN.exec(text)) {
    const name = m[1]!;
    if (unended.has(name)) continue;
    const end = text.indexOf(`\\end{${name}}`, m.index + m[0].length);
    if (end < 0) {
      unended.add(name);
      continue;
    }
    const stop = end + `\\end{${name}}`.length;
    out += text.slice(copied, m.index) + blankText(text.slice(m.index, stop));
    copied = stop;
    VERBATIM_BEGIN.lastIndex = stop;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Blanks comments (`%` not escaped) and verbatim text, keeping every line and offset. */
function prose(text: string): string {
  const out = text.replace(
    /(?<!\\)((?:\\\\)*)%[^\n]*/g,
    (m, slashes: string) => slashes + ' '.repeat(m.length - slashes.length),
  );
  return blankVerbatim(out).replace(/\\verb\*?([^A-Za-z\s])[^\n]*?\1/g, (m) => ' '.repeat(m.length));
}

/**
 * For each `{`, `[` and `(` in `s`, the index after its balanced closing one (-1 when it never closes),
 * in one pass: a group that never closes (`\cite{a,` repeated) cost a scan to the end of the file for
 * each command, which was quadratic. Each kind nests on its own, and a backslash escapes the
 * character after it. Indexes that open nothing hold 0.
 */
function groupEnds(s: string): Int32Array {
  const ends = new Int32Array(s.length);
  // One stack per kind ({ [ (), as typed arrays: no garbage for the collector however deep.
  const stacks = [new Int32Array(s.length), new Int32Array(s.length), new Int32Array(s.length)];
  const tops = [0, 0, 0];
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x5c /* \ */) {
      j++;
      continue;
    }
    const open = c === 0x7b ? 0 : c === 0x5b ? 1 : c === 0x28 ? 2 : -1;
    if (open >= 0) {
      stacks[open]![tops[open]!++] = j;
      ends[j] = -1;
      continue;
    }
    const close = c === 0x7d ? 0 : c === 0x5d ? 1 : c === 0x29 ? 2 : -1;
    if (close >= 0 && tops[close]! > 0) ends[stacks[close]![--tops[close]!]!] = j + 1;
  }
  return ends;
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && /\s/.test(s[i]!)) i++;
  return i;
}

export function parseLatex(text: string): ParsedCitations {
  const s = prose(text);
  const lineOf = lineFinder(s);
  const ends = groupEnds(s);
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
        const end = ends[j] || -1;
        if (end < 0) break;
        i = end;
      }
    }
    for (;;) {
      let j = skipSpace(s, i);
      let optionals = 0;
      while (s[j] === '[' && optionals < 2) {
        const end = ends[j] || -1;
        if (end < 0) break;
        j = skipSpace(s, end);
        optionals++;
      }
      if (s[j] !== '{') break;
      const end = ends[j] || -1;
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

/**
 * Calls `found` with the `{…}` arguments after each `command` in `text`: the text up to the next `}`
 * each (no nesting, as BibTeX writes them), `count` of them at most, fewer when no brace follows.
 * By hand and linear: once no `}` is left, nothing after can close (a lazy regex rescanned to the end
 * of the file for each occurrence).
 */
function eachArguments(text: string, command: string, count: 1 | 2, found: (a?: string, b?: string) => void): void {
  for (let at = text.indexOf(command); at >= 0; at = text.indexOf(command, at + command.length)) {
    let i = at + command.length;
    let a: string | undefined;
    let b: string | undefined;
    for (let n = 0; n < count && text.charCodeAt(i) === 0x7b; n++) {
      const close = text.indexOf('}', i + 1);
      if (close < 0) return;
      if (n === 0) a = text.slice(i + 1, close);
      else b = text.slice(i + 1, close);
      i = close + 1;
    }
    found(a, b);
  }
}

/** The keys an .aux file cites, in order, without repeats (BibTeX's \citation, biblatex's \abx@aux@cite). */
export function auxKeys(text: string): string[] {
  const keys = new Set<string>();
  const add = (key: string) => {
    const k = key.trim();
    if (k !== '') keys.add(k);
  };
  eachArguments(text, '\\citation', 1, (a) => {
    if (a !== undefined) for (const k of a.split(',')) add(k);
  });
  // \abx@aux@cite{refsection}{key} (biber 2.x), or \abx@aux@cite{key} (older).
  eachArguments(text, '\\abx@aux@cite', 2, (a, b) => {
    if (b !== undefined) add(b);
    else if (a !== undefined && !a.includes('{')) add(a);
  });
  return [...keys];
}

/** The .aux as citations: `*` (from \nocite{*}) means every entry. */
export function parseAux(text: string): ParsedCitations {
  const keys = auxKeys(text);
  return {
    citations: keys.filter((k) => k !== '*').map((key) => ({ key, part: '.aux' })),
    citesAll: keys.includes('*'),
  };
}
