// Citation keys by formula, in the style of Better BibTeX: `auth.lower + shorttitle(3,3) + year`, a
// documented subset of its functions and filters (docs/citation-keys.md), and its legacy bracket form
// `[auth:lower][shorttitle3_3][year]`. A formula is compiled once (syntax errors with their column) and
// then gives each item the key it starts from; uniqueness (a, b, … suffixes) is the shared helper's
// (citekey.ts uniqueCitationKey), so every place that makes keys agrees on what "taken" means.
import { citationKeyBase, citationKeyProblem, familyOf, SKIP_WORDS, transliterate, yearOf } from './citekey';
import type { CslItem, CslName } from './csl';

/** The formula Citewise has always used: the keys it gives are those citationKeyBase gives. */
export const DEFAULT_KEY_FORMULA = 'auth.lower + shorttitle(3,3) + year';

/** The longest formula accepted (longer ones are surely a paste gone wrong). */
export const MAX_FORMULA_LENGTH = 500;

/** Keys are cut here: a formula such as `title` on a long title would otherwise run on. */
export const MAX_GENERATED_KEY_LENGTH = 100;

export interface KeyFormula {
  /** The formula as written (legacy formulas too). */
  readonly text: string;
  /** The key an item's fields give, before uniqueness; never empty ("anon" when every alternative is). */
  keyOf(item: CslItem): string;
}

export interface FormulaError {
  message: string;
  /** The 0-based character in the text where the problem is. */
  at: number;
}

export type FormulaParse = { ok: true; formula: KeyFormula } | { ok: false; error: FormulaError };

// ── tokens ──

type Token =
  | { t: 'id'; v: string; at: number }
  | { t: 'num'; v: number; at: number }
  | { t: 'str'; v: string; at: number }
  | { t: 'op'; v: '+' | '.' | '(' | ')' | ',' | '|' | ';'; at: number }
  | { t: 'end'; at: number };

class SyntaxProblem extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      out.push({ t: 'id', v: m[0], at: i });
      i += m[0].length;
    } else if (/\d/.test(c) || (c === '-' && /\d/.test(text[i + 1] ?? ''))) {
      const m = /^-?\d+/.exec(text.slice(i))!;
      out.push({ t: 'num', v: Number(m[0]), at: i });
      i += m[0].length;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      let v = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        v += text[j];
        j++;
      }
      if (j >= text.length) throw new SyntaxProblem(`The text starting here has no closing ${c}.`, i);
      out.push({ t: 'str', v, at: i });
      i = j + 1;
    } else if ('+.(),|;'.includes(c)) {
      out.push({ t: 'op', v: c as '+', at: i });
      i++;
    } else {
      throw new SyntaxProblem(`"${c}" has no meaning in a formula.`, i);
    }
  }
  out.push({ t: 'end', at: text.length });
  return out;
}

// ── the tree ──

type Arg = number | string | boolean;
interface Call {
  name: string;
  args: Arg[];
  at: number;
}
interface Term {
  head: { kind: 'text'; value: string } | ({ kind: 'fn' } & Call);
  filters: Call[];
}
type Alternative = Term[];

class Parser {
  #i = 0;
  constructor(readonly tokens: Token[]) {}
  get #tok(): Token {
    return this.tokens[this.#i]!;
  }
  #isOp(v: string): boolean {
    const t = this.#tok;
    return t.t === 'op' && t.v === v;
  }
  #expectOp(v: string, what: string): void {
    if (!this.#isOp(v)) throw new SyntaxProblem(`Expected ${what} here.`, this.#tok.at);
    this.#i++;
  }

  formula(): Alternative[] {
    const alts: Alternative[] = [this.#alternative()];
    while (this.#isOp('|') || this.#isOp(';')) {
      this.#i++;
      alts.push(this.#alternative());
    }
    if (this.#tok.t !== 'end')
      throw new SyntaxProblem('Expected "+", "." or the end of the formula here.', this.#tok.at);
    return alts;
  }

  #alternative(): Alternative {
    const terms: Term[] = [this.#term()];
    while (this.#isOp('+')) {
      this.#i++;
      terms.push(this.#term());
    }
    return terms;
  }

  #term(): Term {
    const t = this.#tok;
    let head: Term['head'];
    if (t.t === 'str') {
      this.#i++;
      head = { kind: 'text', value: t.v };
    } else if (t.t === 'num') {
      this.#i++;
      head = { kind: 'text', value: String(t.v) };
    } else if (t.t === 'id') {
      head = { kind: 'fn', ...this.#call() };
    } else {
      throw new SyntaxProblem('Expected a function (such as auth or year) or a text in quotes here.', t.at);
    }
    const filters: Call[] = [];
    while (this.#isOp('.')) {
      this.#i++;
      if (this.#tok.t !== 'id')
        throw new SyntaxProblem('Expected a filter (such as lower) after the dot.', this.#tok.at);
      filters.push(this.#call());
    }
    return { head, filters };
  }

  #call(): Call {
    const t = this.#tok as Extract<Token, { t: 'id' }>;
    this.#i++;
    const args: Arg[] = [];
    if (this.#isOp('(')) {
      this.#i++;
      if (!this.#isOp(')')) {
        args.push(this.#arg());
        while (this.#isOp(',')) {
          this.#i++;
          args.push(this.#arg());
        }
      }
      this.#expectOp(')', `")" to close ${t.v}(`);
    }
    return { name: t.v, args, at: t.at };
  }

  #arg(): Arg {
    const t = this.#tok;
    this.#i++;
    if (t.t === 'num' || t.t === 'str') return t.v;
    if (t.t === 'id' && (t.v === 'true' || t.v === 'false')) return t.v === 'true';
    if (t.t === 'id') return t.v;
    throw new SyntaxProblem('Expected a number or a text in quotes here.', t.at);
  }
}

// ── what an item gives ──

type CreatorKind = '*' | 'author' | 'editor' | 'translator' | 'collaborator';

/** A name as keys use it: letters and digits only, so "Müller-Lüdenscheidt" gives MullerLudenscheidt. */
const keyChars = (s: string): string => transliterate(s).replace(/[^A-Za-z0-9]/g, '');

function creatorsOf(item: CslItem, kind: CreatorKind): CslName[] {
  const list = (role: string): CslName[] => (Array.isArray(item[role]) ? (item[role] as CslName[]) : []);
  switch (kind) {
    case 'author':
      return list('author');
    case 'editor':
      return list('editor');
    case 'translator':
      return list('translator');
    case 'collaborator':
      return list('contributor');
    default: {
      for (const role of ['author', 'editor', 'container-author', 'translator', 'contributor']) {
        const names = list(role);
        if (names.length > 0) return names;
      }
      return [];
    }
  }
}

const families = (item: CslItem, kind: CreatorKind): string[] =>
  creatorsOf(item, kind)
    .map((n) => keyChars(familyOf(n) ?? ''))
    .filter((f) => f !== '');

function initialOf(name: CslName | undefined): string {
  const given = name?.given ? transliterate(name.given).replace(/[^A-Za-z]/g, '') : '';
  return given.slice(0, 1).toUpperCase();
}

/** The title's significant words (function words and markup left out), as the default key takes them. */
function titleWords(item: CslItem): string[] {
  return transliterate(String(item.title ?? ''))
    .replace(/<[^>]*>/g, ' ')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0 && !SKIP_WORDS.has(w.toLowerCase()));
}

const capitalised = (w: string): string => (w === '' ? w : w[0]!.toUpperCase() + w.slice(1).toLowerCase());

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function pages(item: CslItem): string[] {
  return String(item.page ?? '')
    .split(/[-–—,+\s]+/)
    .filter((p) => p !== '');
}

// ── functions and filters ──

interface Param {
  name: string;
  type: 'number' | 'string' | 'boolean' | 'creator';
}

interface FunctionSpec {
  params: Param[];
  run(item: CslItem, args: Arg[]): string;
  help: string;
}

const N = (name: string): Param => ({ name, type: 'number' });
const S = (name: string): Param => ({ name, type: 'string' });
const CREATOR: Param = { name: 'creator', type: 'creator' };

const num = (a: Arg | undefined, fallback: number): number => (typeof a === 'number' ? a : fallback);
const creator = (a: Arg | undefined): CreatorKind => (typeof a === 'string' ? (a as CreatorKind) : '*');
const str = (a: Arg | undefined, fallback: string): string => (typeof a === 'string' ? a : fallback);

/** The functions a formula may use: what each gives, and its parameters (all optional). */
export const KEY_FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  auth: {
    params: [N('n'), N('m'), CREATOR],
    help: "the m-th (default first) creator's family name, its first n characters (0: all)",
    run: (item, [n, m, c]) => {
      const f = families(item, creator(c))[num(m, 1) - 1] ?? '';
      return num(n, 0) > 0 ? f.slice(0, num(n, 0)) : f;
    },
  },
  authors: {
    params: [N('n'), CREATOR],
    help: 'the family names of the first n creators (0: all), then EtAl if there are more',
    run: (item, [n, c]) => {
      const all = families(item, creator(c));
      const k = num(n, 0);
      return k > 0 && all.length > k ? [...all.slice(0, k), 'EtAl'].join('') : all.join('');
    },
  },
  authEtAl: {
    params: [CREATOR],
    help: 'one creator: the name; two: both; more: the first and EtAl',
    run: (item, [c]) => {
      const all = families(item, creator(c));
      return all.length === 2 ? all.join('') : all.length > 2 ? `${all[0]}EtAl` : (all[0] ?? '');
    },
  },
  authEtal2: {
    params: [CREATOR],
    help: 'one creator: the name; two: A.B; more: A.etal',
    run: (item, [c]) => {
      const all = families(item, creator(c));
      return all.length === 2 ? all.join('.') : all.length > 2 ? `${all[0]}.etal` : (all[0] ?? '');
    },
  },
  authAuthEa: {
    params: [CREATOR],
    help: 'the first two creators, A.B, and .ea when there are more',
    run: (item, [c]) => {
      const all = families(item, creator(c));
      return [...all.slice(0, 2), ...(all.length > 2 ? ['ea'] : [])].join('.');
    },
  },
  authshort: {
    params: [CREATOR],
    help: 'one creator: the name; more: the first letters of up to three, and + when there are more',
    run: (item, [c]) => {
      const all = families(item, creator(c));
      if (all.length <= 1) return all[0] ?? '';
      return (
        all
          .slice(0, 3)
          .map((f) => f[0])
          .join('.') + (all.length > 3 ? '+' : '')
      );
    },
  },
  authorsAlpha: {
    params: [CREATOR],
    help: 'as BibTeX\'s "alpha" style: one creator, three letters; two to four, their first letters; more, three and +',
    run: (item, [c]) => {
      const all = families(item, creator(c));
      if (all.length === 0) return '';
      if (all.length === 1) return all[0]!.slice(0, 3);
      if (all.length <= 4) return all.map((f) => f[0]).join('');
      return `${all
        .slice(0, 3)
        .map((f) => f[0])
        .join('')}+`;
    },
  },
  authIni: {
    params: [N('n'), CREATOR],
    help: "each creator's family name cut to n characters (0: all), joined with dots",
    run: (item, [n, c]) =>
      families(item, creator(c))
        .map((f) => (num(n, 0) > 0 ? f.slice(0, num(n, 0)) : f))
        .join('.'),
  },
  authorIni: {
    params: [CREATOR],
    help: "the first five letters of the first creator's name, then the initials of the others",
    run: (item, [c]) => {
      const all = families(item, creator(c));
      if (all.length === 0) return '';
      return [all[0]!.slice(0, 5), ...all.slice(1).map((f) => f[0])].join('.');
    },
  },
  authorLast: {
    params: [CREATOR],
    help: "the last creator's family name",
    run: (item, [c]) => families(item, creator(c)).at(-1) ?? '',
  },
  authForeIni: {
    params: [CREATOR],
    help: "the first creator's given-name initial",
    run: (item, [c]) => initialOf(creatorsOf(item, creator(c))[0]),
  },
  title: {
    params: [],
    help: 'the significant words of the title (function words such as "the" and "of" left out)',
    run: (item) => titleWords(item).join(' '),
  },
  shorttitle: {
    params: [N('n'), N('m')],
    help: 'the first n (default 3) significant words of the title, the first m of them capitalised',
    run: (item, [n, m]) =>
      titleWords(item)
        .slice(0, num(n, 3))
        .map((w, i) => (i < num(m, 0) ? capitalised(w) : w))
        .join(' '),
  },
  veryshorttitle: {
    params: [N('n'), N('m')],
    help: 'the first n (default 1) significant words of the title, the first m capitalised',
    run: (item, [n, m]) =>
      titleWords(item)
        .slice(0, num(n, 1))
        .map((w, i) => (i < num(m, 0) ? capitalised(w) : w))
        .join(' '),
  },
  year: { params: [], help: 'the year of publication', run: (item) => yearOf(item) },
  shortyear: { params: [], help: 'its last two digits', run: (item) => yearOf(item).slice(-2) },
  month: {
    params: [],
    help: 'the month, as jan … dec',
    run: (item) => {
      const m = item.issued?.['date-parts']?.[0]?.[1];
      return typeof m === 'number' && m >= 1 && m <= 12 ? MONTHS[m - 1]! : '';
    },
  },
  journal: {
    params: [],
    help: "the journal's abbreviation, else its title",
    run: (item) => String(item['container-title-short'] ?? item['container-title'] ?? ''),
  },
  firstpage: { params: [], help: 'the first page', run: (item) => pages(item)[0] ?? '' },
  lastpage: { params: [], help: 'the last page', run: (item) => pages(item).at(-1) ?? '' },
  zotero: {
    params: [],
    help: "Zotero's own key: creator_firstword_year, lower case",
    run: (item) => {
      const first = (families(item, '*')[0] ?? '').toLowerCase();
      const word = (titleWords(item)[0] ?? '').toLowerCase();
      return [first, word, yearOf(item)].join('_');
    },
  },
};

interface FilterSpec {
  params: Param[];
  run(input: string, args: Arg[]): string;
  help: string;
}

/** A filter that skips to the formula's next alternative (len). */
class Skip extends Error {}

const LEN_RELATIONS = ['<', '<=', '==', '!=', '>=', '>'] as const;

/** The filters a function's text may go through, left to right. */
export const KEY_FILTERS: Readonly<Record<string, FilterSpec>> = {
  lower: { params: [], help: 'lower case', run: (s) => s.toLowerCase() },
  upper: { params: [], help: 'upper case', run: (s) => s.toUpperCase() },
  capitalize: {
    params: [],
    help: 'the first letter of each word in upper case',
    run: (s) => s.replace(/(^|\s)(\p{Ll})/gu, (_m, sp: string, ch: string) => sp + ch.toUpperCase()),
  },
  condense: {
    params: [S('sep')],
    help: 'spaces replaced by sep (default: removed)',
    run: (s, [sep]) => s.replace(/\s+/g, str(sep, '')),
  },
  abbr: {
    params: [N('chars')],
    help: 'the first letter (or chars letters) of each word',
    run: (s, [chars]) =>
      s
        .split(/\s+/)
        .map((w) => w.slice(0, num(chars, 1)))
        .join(''),
  },
  skipwords: {
    params: [],
    help: 'function words ("the", "of", "and"…) left out',
    run: (s) =>
      s
        .split(/\s+/)
        .filter((w) => w !== '' && !SKIP_WORDS.has(w.toLowerCase()))
        .join(' '),
  },
  select: {
    params: [N('start'), N('n')],
    help: 'words start (from 1) to start + n - 1 (n default: to the end)',
    run: (s, [start, n]) => {
      const words = s.split(/\s+/).filter((w) => w !== '');
      const from = Math.max(0, num(start, 1) - 1);
      return words.slice(from, n === undefined ? undefined : from + num(n, words.length)).join(' ');
    },
  },
  substring: {
    params: [N('start'), N('n')],
    help: 'characters start (from 1) to start + n - 1',
    run: (s, [start, n]) => {
      const from = Math.max(0, num(start, 1) - 1);
      return n === undefined ? s.slice(from) : s.slice(from, from + num(n, s.length));
    },
  },
  ascii: { params: [], help: 'only ASCII characters kept', run: (s) => s.replace(/[^\x20-\x7e]/g, '') },
  fold: { params: [], help: 'accents folded to ASCII (Müller → Muller)', run: (s) => transliterate(s) },
  transliterate: { params: [], help: 'the same as fold', run: (s) => transliterate(s) },
  alphanum: {
    params: [],
    help: 'only letters, digits and spaces kept',
    run: (s) => s.replace(/[^\p{L}\p{N}\s]/gu, ''),
  },
  nopunct: {
    params: [S('dash')],
    help: 'punctuation removed; dashes become dash (default "-")',
    run: (s, [dash]) =>
      s
        .split(/[-–—]/)
        .map((part) => part.replace(/[^\p{L}\p{N}\s]/gu, ''))
        .join(str(dash, '-')),
  },
  nopunctordash: {
    params: [],
    help: 'punctuation and dashes removed',
    run: (s) => s.replace(/[^\p{L}\p{N}\s]/gu, ''),
  },
  clean: {
    params: [],
    help: 'folded to ASCII, and everything a key cannot hold removed',
    run: (s) => cleanKey(s, true),
  },
  prefix: {
    params: [S('text')],
    help: 'text put before, when there is something to put it before',
    run: (s, [t]) => (s === '' ? s : str(t, '') + s),
  },
  postfix: {
    params: [S('text')],
    help: 'text put after, when there is something to put it after',
    run: (s, [t]) => (s === '' ? s : s + str(t, '')),
  },
  replace: {
    params: [S('find'), S('with')],
    help: 'every find (any case) replaced with with',
    run: (s, [find, by]) => {
      const f = str(find, '');
      if (f === '') return s;
      return s.replace(new RegExp(f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), str(by, ''));
    },
  },
  default: {
    params: [S('text')],
    help: 'text when there is nothing',
    run: (s, [t]) => (s === '' ? str(t, '') : s),
  },
  len: {
    params: [S('relation'), N('length')],
    help: 'the next alternative is used unless the length compares so (default "> 0")',
    run: (s, [rel, length]) => {
      const r = str(rel, '>');
      const n = num(length, 0);
      const ok =
        r === '<'
          ? s.length < n
          : r === '<='
            ? s.length <= n
            : r === '=='
              ? s.length === n
              : r === '!='
                ? s.length !== n
                : r === '>='
                  ? s.length >= n
                  : s.length > n;
      if (!ok) throw new Skip();
      return s;
    },
  },
};

const CREATOR_KINDS: readonly string[] = ['*', 'author', 'editor', 'translator', 'collaborator'];

function checkArgs(call: Call, params: Param[], kind: 'function' | 'filter'): void {
  if (call.args.length > params.length)
    throw new SyntaxProblem(
      `${call.name} takes ${params.length === 0 ? 'no arguments' : `at most ${params.length} (${params.map((p) => p.name).join(', ')})`}.`,
      call.at,
    );
  call.args.forEach((a, i) => {
    const p = params[i]!;
    if (p.type === 'number' && (typeof a !== 'number' || a < -1000 || a > 1000))
      throw new SyntaxProblem(`${p.name} of ${call.name} must be a whole number.`, call.at);
    if (p.type === 'string' && typeof a !== 'string')
      throw new SyntaxProblem(`${p.name} of ${call.name} must be a text in quotes.`, call.at);
    if (p.type === 'creator' && (typeof a !== 'string' || !CREATOR_KINDS.includes(a)))
      throw new SyntaxProblem(
        `${p.name} of ${call.name} must be '*', 'author', 'editor', 'translator' or 'collaborator'.`,
        call.at,
      );
  });
  if (
    kind === 'filter' &&
    call.name === 'len' &&
    call.args[0] !== undefined &&
    !LEN_RELATIONS.includes(call.args[0] as never)
  )
    throw new SyntaxProblem(`The relation of len must be one of ${LEN_RELATIONS.join(' ')}.`, call.at);
}

/** The closest known name, for "did you mean". */
function nearest(name: string, known: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const exactCase = known.find((k) => k.toLowerCase() === lower);
  if (exactCase) return exactCase;
  let best: string | null = null;
  let bestD = 3;
  for (const k of known) {
    const d = distance(lower, k.toLowerCase());
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

function check(alts: Alternative[]): void {
  for (const alt of alts)
    for (const term of alt) {
      if (term.head.kind === 'fn') {
        const spec = KEY_FUNCTIONS[term.head.name];
        if (!spec) {
          const hint = nearest(term.head.name, Object.keys(KEY_FUNCTIONS));
          throw new SyntaxProblem(
            `There is no function "${term.head.name}"${hint ? `; did you mean ${hint}?` : ' (docs/citation-keys.md lists them).'}`,
            term.head.at,
          );
        }
        checkArgs(term.head, spec.params, 'function');
      }
      for (const f of term.filters) {
        const spec = KEY_FILTERS[f.name];
        if (!spec) {
          const hint = nearest(f.name, Object.keys(KEY_FILTERS));
          throw new SyntaxProblem(
            `There is no filter "${f.name}"${hint ? `; did you mean ${hint}?` : ' (docs/citation-keys.md lists them).'}`,
            f.at,
          );
        }
        checkArgs(f, spec.params, 'filter');
      }
    }
}

/** What may stay in a generated key: ASCII letters and digits, and - _ : . + (never what citationKeyProblem refuses). */
function cleanKey(text: string, keepSpaces = false): string {
  const folded = transliterate(text);
  return (keepSpaces ? folded.replace(/[^A-Za-z0-9_:.+\-\s]/g, '') : folded.replace(/[^A-Za-z0-9_:.+-]/g, '')).trim();
}

function evaluate(alts: Alternative[], item: CslItem): string {
  for (const alt of alts) {
    let out = '';
    try {
      for (const term of alt) {
        let value =
          term.head.kind === 'text' ? term.head.value : KEY_FUNCTIONS[term.head.name]!.run(item, term.head.args);
        for (const f of term.filters) value = KEY_FILTERS[f.name]!.run(value, f.args);
        out += value;
      }
    } catch (err) {
      if (err instanceof Skip) continue;
      throw err;
    }
    const key = cleanKey(out).slice(0, MAX_GENERATED_KEY_LENGTH);
    // A key of separators alone ("_" when an item has neither creator nor year) names nothing.
    if (/[A-Za-z0-9]/.test(key) && citationKeyProblem(key) === null) return key;
  }
  return 'anon';
}

// ── the legacy bracket form ──

/**
 * `[auth:lower][shorttitle3_3][year]` in the formula language: each [name digits_digits:filter:filter,arg]
 * becomes name(digits, digits).filter.filter(arg), and text between brackets a quoted text. Null when
 * the text is not a legacy formula.
 */
export function legacyToFormula(text: string): string | null {
  const t = text.trim();
  if (!t.startsWith('[')) return null;
  const parts: string[] = [];
  const re = /\[([^\]]*)\]|([^[]+)/g;
  for (const m of t.matchAll(re)) {
    if (m[2] !== undefined) {
      if (m[2].includes(']')) return null;
      parts.push(`'${m[2].replace(/'/g, "\\'")}'`);
      continue;
    }
    const [head, ...filters] = m[1]!.split(':');
    const fn = /^([A-Za-z]+?)(\d+(?:_\d+)*)?$/.exec(head!.trim());
    if (!fn) return null;
    const args = fn[2] ? `(${fn[2].split('_').join(',')})` : '';
    const chain = filters.map((f) => {
      const [name, ...fargs] = f.split(',');
      const quoted = fargs.map((a) => (/^-?\d+$/.test(a.trim()) ? a.trim() : `'${a.replace(/'/g, "\\'")}'`));
      return `.${name!.trim()}${quoted.length ? `(${quoted.join(',')})` : ''}`;
    });
    parts.push(`${fn[1]}${args}${chain.join('')}`);
  }
  return parts.length > 0 ? parts.join(' + ') : null;
}

/** Compiles a formula (the legacy bracket form too): a formula that gives keys, or the first problem and its place. */
export function compileKeyFormula(text: string): FormulaParse {
  if (text.trim() === '') return { ok: false, error: { message: 'The formula is empty.', at: 0 } };
  if (text.length > MAX_FORMULA_LENGTH)
    return {
      ok: false,
      error: { message: `A formula can have at most ${MAX_FORMULA_LENGTH} characters.`, at: MAX_FORMULA_LENGTH },
    };
  const legacy = legacyToFormula(text);
  const source = legacy ?? text;
  try {
    const alts = new Parser(tokenize(source)).formula();
    check(alts);
    // The default is what citationKeyBase has always given (the keys of every library made before
    // formulas): the same function, so not one key changes.
    const keyOf = isDefaultFormula(text) ? citationKeyBase : (item: CslItem) => evaluate(alts, item);
    return { ok: true, formula: { text, keyOf } };
  } catch (err) {
    if (err instanceof SyntaxProblem)
      // A legacy formula's positions are in its translation; the start is the best place to point at.
      return { ok: false, error: { message: err.message, at: legacy === null ? err.at : 0 } };
    throw err;
  }
}

/** The formula a setting names: the default when none is set (or one that no longer compiles). */
export function keyFormulaOf(text: string | null | undefined): KeyFormula {
  const parsed = compileKeyFormula(text ?? DEFAULT_KEY_FORMULA);
  if (parsed.ok) return parsed.formula;
  return (compileKeyFormula(DEFAULT_KEY_FORMULA) as Extract<FormulaParse, { ok: true }>).formula;
}

/** Whether a formula is the default one (written the same way, spaces aside). */
export function isDefaultFormula(text: string | null | undefined): boolean {
  return text == null || text.replace(/\s+/g, '') === DEFAULT_KEY_FORMULA.replace(/\s+/g, '');
}
