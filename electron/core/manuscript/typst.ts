// Citations in Typst: `@key` in markup (with an optional `[supplement]`), `#cite(<key>)` and
// `#cite(label("key"))`. In Typst `@name` refers to a label in the document when there is one
// (`<intro>` after a heading or figure), and to a bibliography entry otherwise, so references to the
// document's own labels are left out. Comments, raw text and strings cite nothing; an `@` after a word
// character (an e-mail address) or inside a URL is not a reference.
import type { FoundCitation } from '../../../shared/model/manuscript';
import type { ParsedCitations } from './markdown';
import { lineFinder } from './lines';

/** Typst's label names: letters, digits, `_`, `-`, `.` and `:`, not ending in `.` or `:`. */
const NAME = String.raw`[\p{L}\p{N}_](?:[\p{L}\p{N}_\-]|[.:](?=[\p{L}\p{N}_\-]))*`;

function blankOut(m: string): string {
  return m.replace(/[^\n]/g, ' ');
}

/**
 * Blanks block comments (slash-star to star-slash) and line comments, left to right (a `//` inside a
 * block comment is part of it). By hand: a lazy regex rescanned to the end of the file for every block
 * comment that never closed.
 */
function blankComments(text: string): string {
  const opening = /\/\*|(?<!:)\/\//g;
  let blockCloses = true;
  let out = '';
  let copied = 0;
  for (let m = opening.exec(text); m !== null; m = opening.exec(text)) {
    let stop: number;
    if (m[0] === '//') {
      const eol = text.indexOf('\n', m.index);
      stop = eol < 0 ? text.length : eol;
    } else {
      // Once one block comment is found never to close, no later one can.
      const close = blockCloses ? text.indexOf('*/', m.index + 2) : -1;
      if (close < 0) {
        blockCloses = false;
        continue;
      }
      stop = close + 2;
    }
    out += text.slice(copied, m.index) + blankOut(text.slice(m.index, stop));
    copied = stop;
    opening.lastIndex = stop;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

export function parseTypst(text: string): ParsedCitations {
  // Order matters: raw blocks first (they may hold // or "), then comments, then URLs.
  const s = blankComments(text.replace(/(`{3,})[\s\S]*?\1|`[^`\n]*`/g, blankOut)).replace(
    /\b[a-z][a-z0-9+.-]*:\/\/[^\s)\]"]*/gi,
    blankOut,
  );
  const labels = new Set<string>();
  for (const m of s.matchAll(new RegExp(String.raw`<(${NAME})>`, 'gu'))) {
    // `#cite(<key>)` names a bibliography entry, not a label of the document.
    const before = s.slice(Math.max(0, m.index - 6), m.index);
    if (!/cite\(\s*$/.test(before)) labels.add(m[1]!);
  }
  const lineOf = lineFinder(s);
  const found: { key: string; at: number }[] = [];
  for (const m of s.matchAll(new RegExp(String.raw`#cite\(\s*(?:<(${NAME})>|label\(\s*"([^"\n]+)"\s*\))`, 'gu')))
    found.push({ key: (m[1] ?? m[2])!, at: m.index });
  // Strings in code ("a@b.c") are not markup; they are blanked only for the @ references.
  const markup = s.replace(/"(?:[^"\\\n]|\\.)*"/g, blankOut);
  for (const m of markup.matchAll(new RegExp(String.raw`(?<![\p{L}\p{N}_\\])@(${NAME})`, 'gu'))) {
    if (!labels.has(m[1]!)) found.push({ key: m[1]!, at: m.index });
  }
  found.sort((a, b) => a.at - b.at);
  const citations: FoundCitation[] = found.map((f) => ({ key: f.key, line: lineOf(f.at) }));
  return { citations, citesAll: false };
}
