// Unicode text and CSL rich text → LaTeX for BibTeX export: specials escaped so the file always parses,
// markup back to \textit and friends, case protection back to braces. Output is UTF-8 (biber, bibtex8
// and modern BibTeX read it); `ascii` writes accents as LaTeX commands for 7-bit toolchains.
import { LATEX_TABLES } from './latex-tables';

const tables = LATEX_TABLES;

const MARK_TO_ACCENT = new Map<string, string>();
for (const [cmd, mark] of Object.entries(tables.diacritics))
  if (!MARK_TO_ACCENT.has(mark)) MARK_TO_ACCENT.set(mark, cmd);
const CHAR_TO_COMMAND = new Map<string, string>();
for (const [cmd, ch] of Object.entries(tables.commands)) {
  if (typeof ch === 'string' && ch.length === 1 && ch.charCodeAt(0) > 127 && !CHAR_TO_COMMAND.has(ch))
    CHAR_TO_COMMAND.set(ch, cmd);
}
CHAR_TO_COMMAND.set('å', 'aa');
CHAR_TO_COMMAND.set('Å', 'AA');

const SPECIAL = /[\\{}&%$#_~^\u00a0]/;
const SPECIAL_ALL = /[\\{}&%$#_~^\u00a0]/g;
const ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '\u00a0': '~',
};

const LIGATURE = /--|``|''/;
const LIGATURE_ALL = /(?:--|``|'')/g;

export interface EncodeOptions {
  /** Write non-ASCII letters as LaTeX commands ({\"o}, {\ss}) instead of UTF-8. */
  ascii?: boolean;
}

/** Plain text → LaTeX. */
export function encodeText(text: string, options: EncodeOptions = {}): string {
  let out = SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ESCAPES[c]!) : text;
  // "--", "``" and "''" are ligatures in TeX (en dash, quotes); an empty group keeps them two characters.
  if (LIGATURE.test(out))
    out = out
      .replace(LIGATURE_ALL, (pair) => `${pair[0]}{}${pair[1]}`)
      .replace(LIGATURE_ALL, (pair) => `${pair[0]}{}${pair[1]}`);
  if (options.ascii && /[^ -~\t\n\r]/.test(out)) out = toAscii(out);
  return out;
}

function toAscii(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch.charCodeAt(0) < 128) {
      out += ch;
      continue;
    }
    const command = CHAR_TO_COMMAND.get(ch);
    if (command !== undefined) {
      out += `{\\${command}}`;
      continue;
    }
    const parts = ch.normalize('NFD');
    const base = parts[0]!;
    const marks = [...parts.slice(1)];
    if (base.charCodeAt(0) < 128 && marks.length > 0 && marks.every((m) => MARK_TO_ACCENT.has(m))) {
      let inner = base === 'i' ? '\\i' : base;
      for (const m of marks) {
        const accent = MARK_TO_ACCENT.get(m)!;
        inner = /^[a-zA-Z]/.test(accent) ? `\\${accent}{${inner}}` : `\\${accent}${inner}`;
      }
      out += `{${inner}}`;
    } else if (ch === '\u2013') out += '--';
    else if (ch === '\u2014') out += '---';
    else out += ch; // no LaTeX spelling: keep the character
  }
  return out;
}

const TAG = /<(\/?)(i|b|sup|sub|span)(\s+[^>]*)?>/g;
const OPEN: Record<string, string> = {
  i: '\\textit{',
  b: '\\textbf{',
  sup: '\\textsuperscript{',
  sub: '\\textsubscript{',
};

/**
 * CSL rich text (titles) → LaTeX: <i> → \textit{…}, <span class="nocase"> → {…}, small caps → \textsc{…}.
 * Words in bold and italic keep their case in every tool that sentence-cases a title: BibTeX keeps
 * `\textit{In vivo}` but lowers `{\textit{In vivo}}` (a "special character"), pandoc keeps only the
 * latter, so such a span outside braces is written `{{\textit{In vivo}}}`, which both keep, as does
 * biblatex; a braced span that would start with a command gets the second brace for the same reason.
 */
export function encodeRich(text: string, options: EncodeOptions = {}): string {
  if (!text.includes('<')) return encodeText(text, options);
  // Pieces, so that wrapping a closed tag joins only its own (a long title with many tags stays linear).
  const out: string[] = [];
  let last = 0;
  // Open tags, with where their LaTeX starts in `out` and whether braces already protect them.
  const stack: { tag: string; kind: string; start: number; guarded: boolean }[] = [];
  TAG.lastIndex = 0;
  for (let m = TAG.exec(text); m !== null; m = TAG.exec(text)) {
    const [whole, closing, name, attrs = ''] = m;
    out.push(encodeText(text.slice(last, m.index), options));
    last = m.index + whole.length;
    if (closing) {
      const open = stack[stack.length - 1];
      if (open === undefined || open.tag !== name) {
        out.push(encodeText(whole, options)); // not markup we know: left as text
        continue;
      }
      stack.pop();
      out.push('}');
      out.push(guard(out.splice(open.start).join(''), open));
      continue;
    }
    let latex: string | undefined;
    let nocase = false;
    if (name === 'span') {
      if (/class\s*=\s*"nocase"/.test(attrs)) [latex, nocase] = ['{', true];
      else if (/font-variant:\s*small-caps/.test(attrs)) latex = '\\textsc{';
    } else if (attrs.trim() === '') latex = OPEN[name!];
    if (latex === undefined) {
      out.push(encodeText(whole, options)); // not markup we know: left as text
      continue;
    }
    const guarded = stack.some((t) => t.kind === 'nocase' || t.kind === 'i' || t.kind === 'b');
    stack.push({ tag: name!, kind: nocase ? 'nocase' : name!, start: out.length, guarded });
    out.push(latex);
  }
  out.push(encodeText(text.slice(last), options));
  return out.join('') + '}'.repeat(stack.length); // unclosed tags: close them so the braces balance
}

/** The LaTeX of one closed tag, with the braces that keep its case (see encodeRich). */
function guard(latex: string, tag: { kind: string; guarded: boolean }): string {
  if (tag.kind === 'nocase') return latex[1] === '\\' ? `{${latex}}` : latex;
  if ((tag.kind === 'i' || tag.kind === 'b') && !tag.guarded && /\p{L}/u.test(latex.slice(latex.indexOf('{'))))
    return `{{${latex}}}`;
  return latex;
}

/** Page ranges: 123-145 and 123–145 → 123--145. */
export function encodePages(pages: string): string {
  return pages
    .split(/\s*[-\u2013\u2014]+\s*/)
    .map((part) => encodeText(part))
    .join('--');
}

/** Whether braces balance (outside \{ \}), so a verbatim value can be written back as is. */
export function bracesBalance(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth < 0) return false;
  }
  return depth === 0;
}
