// LaTeX in BibTeX fields → Unicode text, with the rich text CSL processors understand (citeproc-js's
// <i>, <b>, <sup>, <sub>, small caps and <span class="nocase"> for case the style must not change).
// The symbol tables are citation-js's (MIT), vendored in latex-tables.ts.
import { LATEX_TABLES } from './latex-tables';

const tables = LATEX_TABLES;

// Plus the marks Vietnamese and transliterations need that the table lacks: \h (hook above, vntex),
// \G (double grave), \f (inverted breve), \textsubdot.
const DIACRITICS = new Map(
  Object.entries({ ...tables.diacritics, h: '\u0309', G: '\u030f', f: '\u0311', textsubdot: '\u0323' }),
);
const SYMBOLS = new Map<string, string>(
  Object.entries({
    ...Object.fromEntries(
      Object.entries(tables.commands).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
    aa: 'å',
    AA: 'Å',
    LaTeX: 'LaTeX',
    TeX: 'TeX',
    BibTeX: 'BibTeX',
    dots: '…',
    ldots: '…',
    textellipsis: '…',
    slash: '/',
    textslash: '/',
    nobreakspace: '\u00a0',
    quad: ' ',
    qquad: ' ',
    space: ' ',
    S: '§',
    P: '¶',
    pounds: '£',
    copyright: '©',
    textregistered: '®',
    textdegree: '°',
    textquotesingle: "'",
    '&': '&',
    '%': '%',
    $: '$',
    '#': '#',
    _: '_',
    '{': '{',
    '}': '}',
    ' ': ' ',
    ',': '\u2009',
    ';': '\u2005',
    ':': '\u2005',
    '!': '',
    '-': '',
    '/': '',
    '@': '',
    '\\': ' ',
    '~': '~',
    '^': '^',
  }),
);
const MATH = new Map<string, string>(
  Object.entries({
    ...tables.mathCommands,
    cdot: '·',
    times: '×',
    div: '÷',
    pm: '±',
    mp: '∓',
    leq: '≤',
    le: '≤',
    geq: '≥',
    ge: '≥',
    neq: '≠',
    ne: '≠',
    approx: '≈',
    sim: '∼',
    simeq: '≃',
    equiv: '≡',
    infty: '∞',
    partial: '∂',
    nabla: '∇',
    sum: '∑',
    prod: '∏',
    int: '∫',
    sqrt: '√',
    to: '→',
    rightarrow: '→',
    leftarrow: '←',
    leftrightarrow: '↔',
    Rightarrow: '⇒',
    Leftrightarrow: '⇔',
    in: '∈',
    notin: '∉',
    subset: '⊂',
    subseteq: '⊆',
    cup: '∪',
    cap: '∩',
    emptyset: '∅',
    forall: '∀',
    exists: '∃',
    neg: '¬',
    wedge: '∧',
    vee: '∨',
    ell: 'ℓ',
    hbar: 'ℏ',
    circ: '∘',
    prime: '′',
    degree: '°',
    langle: '⟨',
    rangle: '⟩',
    ldots: '…',
    cdots: '⋯',
    log: 'log',
    ln: 'ln',
    exp: 'exp',
    sin: 'sin',
    cos: 'cos',
    lim: 'lim',
    max: 'max',
    min: 'min',
    '%': '%',
    '{': '{',
    '}': '}',
    ',': '\u2009',
    ';': '\u2005',
    ' ': ' ',
    '\\': ' ',
  }),
);

type Markup = 'italic' | 'bold' | 'smallcaps' | 'sup' | 'sub' | 'quote' | 'plain';
const TAGS: Record<Markup, [string, string]> = {
  italic: ['<i>', '</i>'],
  bold: ['<b>', '</b>'],
  smallcaps: ['<span style="font-variant:small-caps;">', '</span>'],
  sup: ['<sup>', '</sup>'],
  sub: ['<sub>', '</sub>'],
  quote: ['\u201c', '\u201d'],
  plain: ['', ''],
};
// Math alphabets: bold and italic keep their markup, the others their letters.
const MATH_FONTS = new Map<string, Markup>(
  Object.entries({
    mathbf: 'bold',
    boldsymbol: 'bold',
    bm: 'bold',
    mathit: 'italic',
    mathnormal: 'plain',
    mathsf: 'plain',
    mathtt: 'plain',
    mathcal: 'plain',
    mathscr: 'plain',
    mathfrak: 'plain',
    mathbb: 'plain',
    operatorname: 'plain',
    textrm: 'plain',
    mbox: 'plain',
  }) as [string, Markup][],
);
const DOUBLE_STRUCK: Readonly<Record<string, string>> = {
  C: '\u2102',
  H: '\u210d',
  N: '\u2115',
  P: '\u2119',
  Q: '\u211a',
  R: '\u211d',
  Z: '\u2124',
};
// Combining marks for \bar{x} (x̄), \hat, \tilde, \vec, \dot, \ddot.
const MATH_ACCENTS: Readonly<Record<string, string>> = {
  bar: '\u0304',
  overline: '\u0305',
  hat: '\u0302',
  widehat: '\u0302',
  tilde: '\u0303',
  widetilde: '\u0303',
  vec: '\u20d7',
  dot: '\u0307',
  ddot: '\u0308',
};
const FORMAT_COMMANDS = new Map<string, Markup>(
  Object.entries({
    textit: 'italic',
    textsl: 'italic',
    emph: 'italic',
    mkbibitalic: 'italic',
    mkbibemph: 'italic',
    textbf: 'bold',
    strong: 'bold',
    mkbibbold: 'bold',
    textsc: 'smallcaps',
    textsuperscript: 'sup',
    mkbibsuperscript: 'sup',
    textsubscript: 'sub',
    mkbibsubscript: 'sub',
    enquote: 'quote',
    mkbibquote: 'quote',
    textmd: 'plain',
    textrm: 'plain',
    textsf: 'plain',
    texttt: 'plain',
    textup: 'plain',
    textnormal: 'plain',
    mbox: 'plain',
    hbox: 'plain',
    text: 'plain',
    mathrm: 'plain',
    ensuremath: 'plain',
    NoCaseChange: 'plain',
    MakeUppercase: 'plain',
    MakeLowercase: 'plain',
    uppercase: 'plain',
    lowercase: 'plain',
    foreignlanguage: 'plain',
  }) as [string, Markup][],
);
const FORMAT_SWITCHES = new Map<string, Markup>(
  Object.entries({
    em: 'italic',
    it: 'italic',
    itshape: 'italic',
    sl: 'italic',
    slshape: 'italic',
    bf: 'bold',
    bfseries: 'bold',
    sc: 'smallcaps',
    scshape: 'smallcaps',
    rm: 'plain',
    sf: 'plain',
    tt: 'plain',
    normalfont: 'plain',
    upshape: 'plain',
    mdseries: 'plain',
  }) as [string, Markup][],
);

export interface DecodeOptions {
  /** Titles: braces protect case (→ <span class="nocase">) and formatting becomes markup. */
  rich: boolean;
  /** Unknown commands met, for one warning per command rather than one per field. */
  unknown?: Set<string>;
}

// Not \s: that would also collapse the no-break spaces ~ stands for. (A regex, not a loop: the decoder's
// output is a cons string, which the regex flattens once and a charCodeAt loop walks slowly.)
const COLLAPSE = /[ \t\n\r\f]{2,}|[\t\n\r\f]/;
const BLANKS = /[ \t\n\r\f]+/g;

/** Rich text that is one <i> or <b> element, whole. */
const ONE_SPAN = /^<(i|b)>(?:(?!<\/?\1>)[^])*<\/\1>$/;

const PLAIN = 0;
const BLANKS_ONLY = 1;
const LATEX = 2;

/** One pass: does the value need the decoder, only blank collapsing, or nothing? */
function classify(s: string): number {
  let result = PLAIN;
  let prevBlank = true; // a leading blank needs trimming
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) {
      prevBlank = false;
      continue;
    }
    if (c === 92 || c === 123 || c === 125 || c === 36 || c === 126) return LATEX;
    if ((c === 45 || c === 96 || c === 39) && s.charCodeAt(i + 1) === c) return LATEX; // -- `` ''
    if (c === 32) {
      if (prevBlank) result = BLANKS_ONLY;
      prevBlank = true;
    } else if (c === 10 || c === 13 || c === 9 || c === 12) {
      result = BLANKS_ONLY;
      prevBlank = true;
    } else prevBlank = false;
  }
  return prevBlank && n > 0 ? BLANKS_ONLY : result;
}

/** The Unicode (and, for titles, CSL rich text) for a field's LaTeX source. */
export function decodeLatex(source: string, options: DecodeOptions): string {
  const kind = classify(source);
  if (kind === PLAIN) return source;
  if (kind === BLANKS_ONLY) return trimBlanks(source.replace(BLANKS, ' '));
  const out = new Decoder(source, options).run();
  return trimBlanks(COLLAPSE.test(out) ? out.replace(BLANKS, ' ') : out);
}

/** Only TeX's blanks: String.prototype.trim would also eat the no-break spaces that ~ stands for. */
function trimBlanks(s: string): string {
  const n = s.length;
  let a = 0;
  let b = n;
  while (a < b && isBlankCode(s.charCodeAt(a))) a++;
  while (b > a && isBlankCode(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === n ? s : s.slice(a, b);
}

function isBlankCode(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

/** `-` `--` `---` and TeX quotes → the characters they typeset as. */
function ligature(src: string, i: number): [string, number] {
  const c = src[i]!;
  if (c === '-') {
    if (src.startsWith('---', i)) return ['\u2014', 3];
    if (src.startsWith('--', i)) return ['\u2013', 2];
    return ['-', 1];
  }
  if (c === '`' && src[i + 1] === '`') return ['\u201c', 2];
  if (c === "'" && src[i + 1] === "'") return ['\u201d', 2];
  return [c, 1];
}

const HAS_LETTER = /\p{L}/u;

/** { } \\ $ ~ - ` ' : the characters the decoder treats specially. */
function isSpecial(c: number): boolean {
  return c === 123 || c === 125 || c === 92 || c === 36 || c === 126 || c === 45 || c === 96 || c === 39;
}

function isLetter(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/**
 * How deep groups and commands may nest in one value (a command's argument that is itself a command,
 * \textit\textit…x, nests without braces). The decoder reads nesting by recursion, so it must stop
 * somewhere: 100,000 nested commands (800 KB, under the field limit) overflowed the stack. BibTeX's
 * brace limit (64) with a command at each level needs about 130.
 */
const MAX_NEST = 256;

/**
 * A switch met in a group ({\em …} formats the rest of its group), with the text before it: the rest
 * is wrapped when the group ends (Decoder.wrap). Kept in a list rather than read by recursion, so a
 * value of 100,000 switches needs no more stack than one.
 */
interface Switched {
  before: string;
  markup: Markup;
}

class Decoder {
  private i = 0;
  /** Groups and commands open now (MAX_NEST). */
  private nest = 0;
  constructor(
    private readonly src: string,
    private readonly opts: DecodeOptions,
  ) {}

  /** Set when an accent was combined, the only case that needs Unicode normalisation. */
  accented = false;

  run(): string {
    const out = this.group(0, false);
    return this.accented ? out.normalize('NFC') : out;
  }

  /** Opens one more level of nesting; a value that nests deeper than MAX_NEST is refused. */
  private enter(): void {
    if (++this.nest > MAX_NEST) throw new Error(`its LaTeX nests braces or commands more than ${MAX_NEST} levels deep`);
  }

  /** Reads until the matching } (consumed) when `closes`, else to the end. */
  private group(depth: number, closes: boolean): string {
    this.enter();
    const out = this.groupBody(depth, closes);
    this.nest--;
    return out;
  }

  private groupBody(depth: number, closes: boolean): string {
    const { src } = this;
    const n = src.length;
    let out = '';
    // The switches met in this group (Switched), wrapped around the rest when it ends.
    let switches: Switched[] | null = null;
    while (this.i < n) {
      // Copy plain runs in one slice: most of a field is ordinary text.
      let j = this.i;
      while (j < n) {
        const code = src.charCodeAt(j);
        if (!isSpecial(code)) j++;
        else if ((code === 45 || code === 96 || code === 39) && src.charCodeAt(j + 1) !== code)
          j++; // a lone - ` ' is plain text
        else break;
      }
      if (j > this.i) {
        out += src.slice(this.i, j);
        this.i = j;
        if (j >= n) break;
      }
      const c = src[this.i]!;
      if (c === '}') {
        this.i++;
        if (closes) return switches ? this.wrap(out, switches) : out;
        continue; // a stray } (unbalanced source): drop it
      }
      if (c === '{') {
        this.i++;
        const special = src[this.i] === '\\';
        const inner = this.group(depth + 1, true);
        // BibTeX protects case with braces at the field's top level, except "special characters" {\'e}.
        // A group without letters ({"}, {2020}) has no case to protect, nor one that is all one bold or
        // italic span ({{\textit{In vivo}}}, as BibTeX export writes them): such a span keeps its case anyway.
        out +=
          depth === 0 && this.opts.rich && !special && HAS_LETTER.test(inner) && !ONE_SPAN.test(inner)
            ? `<span class="nocase">${inner}</span>`
            : inner;
        continue;
      }
      if (c === '\\') {
        const switched = this.command(depth);
        if (typeof switched === 'string') {
          out += switched;
          continue;
        }
        // A switch such as {\em …} formats the rest of its group.
        (switches ??= []).push({ before: out, markup: switched.markup });
        out = '';
        continue;
      }
      if (c === '$') {
        out += this.math();
        continue;
      }
      if (c === '~') {
        out += '\u00a0';
        this.i++;
        continue;
      }
      const [text, len] = ligature(src, this.i);
      out += text;
      this.i += len;
    }
    return switches ? this.wrap(out, switches) : out;
  }

  /** The end of a group that had switches: the text after each wrapped in its markup, innermost first. */
  private wrap(rest: string, switches: readonly Switched[]): string {
    let out = rest;
    // Whether the text after the switch is blank (then it is left unwrapped): known from the pieces,
    // since trimming the whole text at each of 100,000 switches took time quadratic in its length.
    let blank = rest.trim() === '';
    for (let k = switches.length - 1; k >= 0; k--) {
      const { before, markup } = switches[k]!;
      const [open, close] = this.opts.rich ? TAGS[markup] : ['', ''];
      out = before + (blank ? out : open + out + close);
      blank &&= before.trim() === '';
    }
    return out;
  }

  /** After a backslash: a symbol, an accent, a formatting command or a switch. */
  private command(depth: number): string | { markup: Markup } {
    this.enter();
    const out = this.commandBody(depth);
    this.nest--;
    return out;
  }

  private commandBody(depth: number): string | { markup: Markup } {
    const { src } = this;
    this.i++; // the backslash
    let name: string;
    if (isLetter(src[this.i])) {
      const start = this.i;
      while (isLetter(src[this.i])) this.i++;
      name = src.slice(start, this.i);
      // TeX swallows the blanks after a control word; {} after it is a common terminator.
      while (src[this.i] === ' ' || src[this.i] === '\n' || src[this.i] === '\t' || src[this.i] === '\r') this.i++;
      if (src.startsWith('{}', this.i) && (SYMBOLS.has(name) || name === 'relax')) this.i += 2;
    } else if (this.i < src.length) {
      name = src[this.i]!;
      this.i++;
    } else return '';

    const accent = DIACRITICS.get(name);
    if (accent !== undefined) return this.accent(accent, depth);
    const symbol = SYMBOLS.get(name);
    if (symbol !== undefined) return symbol;
    const markup = FORMAT_COMMANDS.get(name);
    if (markup !== undefined) {
      if (name === 'foreignlanguage') this.argument(depth); // the language name is not text
      const arg = this.argument(depth);
      const [open, close] = this.opts.rich || markup === 'quote' ? TAGS[markup] : ['', ''];
      return arg === '' ? '' : open + arg + close;
    }
    const switched = FORMAT_SWITCHES.get(name);
    if (switched !== undefined) return { markup: switched };
    if (name === 'url' || name === 'path' || name === 'nolinkurl') return this.rawArgument();
    if (name === 'href') {
      this.rawArgument();
      return this.argument(depth);
    }
    if (name === 'relax' || name === 'protect' || name === 'noopsort' || name === 'ignorespaces' || name === 'xspace') {
      if (name === 'noopsort') this.rawArgument(); // {\noopsort{1973b}}1973: a sorting hint, not text
      return '';
    }
    if (name === 'ElsevierGlyph') {
      const code = Number.parseInt(this.rawArgument(), 16);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
    }
    this.opts.unknown?.add(name);
    // An unknown command: keep its argument's text, drop the command itself (as BibTeX's purify$ does).
    return src[this.i] === '{' ? this.argument(depth) : '';
  }

  /** \'e, \'{e}, \"{\i}, \c c, \v{C}: the letter followed by the combining mark. */
  private accent(mark: string, depth: number): string {
    const { src } = this;
    while (src[this.i] === ' ') this.i++;
    let base: string;
    if (src[this.i] === '{') {
      base = this.argument(depth);
    } else if (src[this.i] === '\\') {
      const r = this.command(depth);
      base = typeof r === 'string' ? r : '';
    } else if (this.i < src.length) {
      base = src[this.i]!;
      this.i++;
    } else base = '';
    if (base === '') return mark.trim() === '' ? '' : mark;
    // \'\i is an accented i: the dotless forms only existed to carry the accent.
    if (base[0] === '\u0131') base = `i${base.slice(1)}`;
    else if (base[0] === '\u0237') base = `j${base.slice(1)}`;
    // The mark goes after the first letter and the marks it already has, so \~{\^e} is ễ (ê with a
    // tilde), not e with a tilde then a circumflex; \t{oo} is a tie over both, close enough.
    const first = /^.\p{M}*/su.exec(base)![0];
    this.accented = true;
    return first + mark + base.slice(first.length);
  }

  /** A command's argument: {…} decoded (markup allowed, no case protection), or one character. */
  private argument(depth: number): string {
    const { src } = this;
    while (src[this.i] === ' ' || src[this.i] === '\n') this.i++;
    if (src[this.i] === '{') {
      this.i++;
      return this.group(depth + 1, true);
    }
    if (src[this.i] === '\\') {
      const r = this.command(depth);
      return typeof r === 'string' ? r : '';
    }
    if (this.i < src.length) return src[this.i++]!;
    return '';
  }

  /** {…} taken as is: URLs and the like. */
  private rawArgument(): string {
    const { src } = this;
    while (src[this.i] === ' ') this.i++;
    if (src[this.i] !== '{') return '';
    let depth = 0;
    const start = this.i + 1;
    for (; this.i < src.length; this.i++) {
      const c = src[this.i];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
    }
    const raw = src.slice(start, this.i);
    this.i++;
    return raw;
  }

  /** $…$: Greek letters, common operators, ^ and _ as super/subscript; the dollars go. */
  private math(): string {
    const display = this.src[this.i + 1] === '$';
    this.i += display ? 2 : 1;
    return this.mathBody(display);
  }

  /** Math up to the closing $ (or the end of the source, for a command's argument). */
  mathBody(display: boolean): string {
    const { src } = this;
    let out = '';
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (c === '$') {
        this.i += display && src[this.i + 1] === '$' ? 2 : 1;
        return out;
      }
      if (c === '\\') {
        this.i++;
        let name: string;
        if (isLetter(src[this.i])) {
          const start = this.i;
          while (isLetter(src[this.i])) this.i++;
          name = src.slice(start, this.i);
          while (src[this.i] === ' ') this.i++;
        } else name = src[this.i++] ?? '';
        out += this.mathCommand(name);
        continue;
      }
      if (c === '^' || c === '_') {
        this.i++;
        const arg = this.mathGroup();
        if (c === '^' && (arg === '\u2218' || arg === 'o'))
          out += '\u00b0'; // 37^\circ → 37°
        else {
          const [open, close] = this.opts.rich ? TAGS[c === '^' ? 'sup' : 'sub'] : ['', ''];
          out += open + arg + close;
        }
        continue;
      }
      if (c === '{') {
        out += this.mathGroup();
        continue;
      }
      if (c === '}') {
        this.i++;
        continue;
      }
      out += c;
      this.i++;
    }
    return out; // an unclosed $: the rest is read as math, as TeX would complain but we need text
  }

  /**
   * One command in math: a symbol, or a font or structure command read as what it prints (\mathbf{R}
   * bold, \mathrm{c} plain, \mathbb{R} ℝ, \frac{1}{2} 1/2, \bar{x} x̄), never its name run into the text.
   */
  private mathCommand(name: string): string {
    const sym = MATH.get(name) ?? SYMBOLS.get(name);
    if (sym !== undefined) return sym;
    const font = MATH_FONTS.get(name) ?? FORMAT_COMMANDS.get(name);
    if (font !== undefined) {
      const arg = this.mathArgument();
      if (name === 'mathbb') return [...arg].map((ch) => DOUBLE_STRUCK[ch] ?? ch).join('');
      const [open, close] = this.opts.rich ? TAGS[font] : ['', ''];
      return arg === '' ? '' : open + arg + close;
    }
    if (name === 'frac' || name === 'dfrac' || name === 'tfrac') {
      const num = this.mathArgument();
      const den = this.mathArgument();
      const wrap = (t: string) => (/^[\p{L}\p{N}.]+$/u.test(t) ? t : `(${t})`);
      return `${wrap(num)}/${wrap(den)}`;
    }
    if (name === 'sqrt') return `\u221a${this.mathArgument()}`;
    const accent = MATH_ACCENTS[name];
    if (accent !== undefined)
      return this.mathArgument().normalize('NFD').replace(/^(.)/u, `$1${accent}`).normalize('NFC');
    if (name === 'left' || name === 'right' || name === 'big' || name === 'Big' || name === ',' || name === ';')
      return name === ',' || name === ';' ? ' ' : '';
    this.opts.unknown?.add(name);
    return name;
  }

  /** \mathrm{H_2O}: the argument is still math. */
  private mathArgument(): string {
    const { src } = this;
    while (src[this.i] === ' ') this.i++;
    if (src[this.i] !== '{') return this.mathGroup();
    const start = this.i + 1;
    let depth = 0;
    for (; this.i < src.length; this.i++) {
      if (src[this.i] === '{') depth++;
      else if (src[this.i] === '}' && --depth === 0) break;
    }
    const inner = src.slice(start, this.i);
    this.i++;
    const sub = new Decoder(inner, this.opts);
    const out = sub.mathBody(false);
    if (sub.accented) this.accented = true;
    return out;
  }

  /** The source of the braced group at the cursor (without moving). */
  private groupText(): string {
    const { src } = this;
    let depth = 0;
    for (let j = this.i; j < src.length; j++) {
      if (src[j] === '{') depth++;
      else if (src[j] === '}' && --depth === 0) return src.slice(this.i, j + 1);
    }
    return src.slice(this.i);
  }

  private mathGroup(): string {
    const { src } = this;
    while (src[this.i] === ' ') this.i++;
    if (src[this.i] !== '{') {
      if (src[this.i] === '\\') {
        this.i++;
        const start = this.i;
        while (isLetter(src[this.i])) this.i++;
        const name = src.slice(start, this.i) || (src[this.i++] ?? '');
        while (src[this.i] === ' ') this.i++;
        return this.mathCommand(name);
      }
      return src[this.i++] ?? '';
    }
    // A braced group ({\mathrm{c}}, {n-1}) is math like the rest.
    if (/\\/.test(this.groupText())) return this.mathArgument();
    this.i++;
    let out = '';
    let depth = 1;
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        this.i++;
        break;
      }
      if (c === '\\') {
        this.i++;
        const start = this.i;
        while (isLetter(src[this.i])) this.i++;
        const name = src.slice(start, this.i) || (src[this.i++] ?? '');
        out += MATH.get(name) ?? SYMBOLS.get(name) ?? name;
        continue;
      }
      if (c !== '{') out += c;
      this.i++;
    }
    return out;
  }
}

// What people write in a .bib url for the characters LaTeX treats specially: \_ \% \# \& \$ \~ and the
// tilde's long forms. A URL holds none of these escapes (nor braces, which must be percent-encoded), so
// the link is the text without them.
const URL_TILDE = /\\textasciitilde\s*(?:\{\})?|\\~\s*\{\}|\$\\sim\$|\\sim\b/g;

/**
 * A BibTeX url (or \url{…} argument) as the link it names: `https://x.org/a\_b\%20c\#d` →
 * `https://x.org/a_b%20c#d`. Blanks from line breaks go; braces used for grouping go.
 */
export function decodeUrl(source: string): string {
  return source
    .replace(URL_TILDE, '~')
    .replace(/\\textunderscore\s*(?:\{\})?/g, '_')
    .replace(/\\([_%#&$~])/g, '$1')
    .replace(/[{}]/g, '')
    .replace(/\s+/g, '');
}
