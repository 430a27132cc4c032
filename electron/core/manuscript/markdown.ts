// Pandoc citations in Markdown, Quarto and R Markdown: `[@key; see @other, p. 3]`, `@key` in text,
// `-@key`, `@{key with braces}`, and the `nocite:` field of the YAML front matter. Pandoc's rule for a
// key: it starts with a letter, digit or `_`, and may hold `:.#$%&-+?<>~/` between word characters
// (so the full stop after "@smith2020." ends the sentence, not the key). What is not a citation is
// skipped first: fenced and indented code, inline code, HTML comments, URLs and e-mail addresses
// (an `@` with a word character before it), and Quarto's and pandoc-crossref's cross-references
// (`@fig-plot`, `@tbl:results`).
import type { FoundCitation } from '../../../shared/model/manuscript';

export interface ParsedCitations {
  citations: FoundCitation[];
  citesAll: boolean;
}

const KEY = String.raw`[\p{L}\p{N}_](?:[\p{L}\p{N}_]|[:.#$%&\-+?<>~/](?=[\p{L}\p{N}_]))*`;
/** `@key`, `-@key` or `@{key}`, not after a word character, a backslash or another `@`. */
const CITE = new RegExp(String.raw`(?<![\p{L}\p{N}_\\@.])-?@(?:\{([^{}\n]+)\}|(${KEY}))`, 'gu');
/** Quarto's cross-reference prefixes (`@fig-x`), and pandoc-crossref's (`@fig:x`). */
const CROSSREF =
  /^(?:fig|tbl|lst|tip|nte|wrn|imp|cau|thm|lem|cor|prp|cnj|def|exm|exr|sol|rem|eq|sec)-|^(?:fig|tbl|lst|eq|sec):/;
/** URLs and autolinks: an `@` inside is a path or a user name, never a citation. */
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>)\]]*|<[^>\s]+@[^>\s]+>|\bmailto:[^\s)\]]+/gi;

/** Keeps the lines but blanks what is not prose: code, comments, URLs. Offsets stay where they were. */
function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}

export function parseMarkdown(text: string): ParsedCitations {
  const lines = text.split(/\r\n|\r|\n/);
  const citations: FoundCitation[] = [];
  let citesAll = false;
  let start = 0;

  // YAML front matter: only its nocite field cites (author e-mails and the like do not).
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
    if (end > 0) {
      let inNocite = false;
      for (let i = 1; i < end; i++) {
        const line = lines[i]!;
        const field = /^([A-Za-z_-]+):(.*)$/.exec(line);
        if (field) inNocite = field[1] === 'nocite';
        if (!inNocite) continue;
        const value = field ? field[2]! : line;
        if (/(?<![\p{L}\p{N}_])@\*/u.test(value)) citesAll = true;
        for (const m of value.replace(URL, blank).matchAll(CITE)) {
          const key = m[1] ?? m[2]!;
          citations.push({ key, line: i + 1, part: 'front matter' });
        }
      }
      start = end + 1;
    }
  }

  let fence: string | null = null;
  let inComment = false;
  let prevBlank = true;
  for (let i = start; i < lines.length; i++) {
    let line = lines[i]!;
    if (fence !== null) {
      if (new RegExp(`^\\s{0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) fence = null;
      continue;
    }
    const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (open) {
      fence = open[1]!;
      continue;
    }
    // An indented code block starts after a blank line (indented text inside a list item is prose,
    // but a list continuation right after its item has no blank line before it).
    if (prevBlank && /^(?: {4}|\t)/.test(line) && !/^\s*(?:[-*+]|\d+[.)])\s/.test(line)) {
      prevBlank = line.trim() === '';
      continue;
    }
    prevBlank = line.trim() === '';
    // HTML comments, possibly over several lines.
    if (inComment) {
      const close = line.indexOf('-->');
      if (close < 0) continue;
      line = blank(line.slice(0, close + 3)) + line.slice(close + 3);
      inComment = false;
    }
    // Comments that open and close on the line, then one left open. By hand: a lazy regex rescanned
    // the rest of the line for every "<!--" that never closed (quadratic on a long line).
    for (let opened = line.indexOf('<!--'); opened >= 0; opened = line.indexOf('<!--', opened)) {
      const close = line.indexOf('-->', opened + 4);
      if (close < 0) {
        line = line.slice(0, opened);
        inComment = true;
        break;
      }
      line = line.slice(0, opened) + blank(line.slice(opened, close + 3)) + line.slice(close + 3);
      opened = close + 3;
    }
    line = line.replace(/(`+)[^`]*?\1/g, blank).replace(URL, blank);
    for (const m of line.matchAll(CITE)) {
      const key = m[1]?.trim() ?? m[2]!;
      if (m[2] !== undefined && CROSSREF.test(key)) continue;
      citations.push({ key, line: i + 1 });
    }
  }
  return { citations, citesAll };
}
