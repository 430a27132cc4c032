// query  := or
// or     := and ("OR" and)*
// and    := unary (["AND"] unary)*        juxtaposition means AND
// unary  := ("NOT" | "-") unary | primary
// primary:= "(" or ")" | field value | word | "phrase"
import { CSL_ITEM_TYPES, type CslItemType } from '../csl';
import { parseDoi } from '../doi';
import {
  QuerySyntaxError,
  type CountField,
  type NoticeKind,
  type QueryNode,
  type Range,
  type Span,
  type TextField,
} from './ast';
import { tokenize, type Token } from './tokenizer';

const TEXT_FIELDS: Record<string, TextField> = {
  title: 'title',
  author: 'author',
  creator: 'author',
  abstract: 'abstract',
  container: 'container',
  journal: 'container',
  note: 'note',
  notes: 'note',
};
const COUNT_FIELDS: Record<string, CountField> = {
  supporting: 'supporting',
  contrasting: 'contrasting',
  mentioning: 'mentioning',
  citing: 'citing',
};
const TYPE_ALIASES: Record<string, CslItemType> = {
  article: 'article-journal',
  journal: 'article-journal',
  conference: 'paper-conference',
  proceedings: 'paper-conference',
  preprint: 'article',
  'posted-content': 'article',
  web: 'webpage',
  website: 'webpage',
  data: 'dataset',
  phdthesis: 'thesis',
};
const NOTICE_KINDS: Record<string, NoticeKind> = {
  any: 'any',
  yes: 'any',
  none: 'none',
  no: 'none',
  retraction: 'retracted',
  retracted: 'retracted',
  correction: 'correction',
  erratum: 'erratum',
  concern: 'concern',
  'expression-of-concern': 'concern',
  withdrawn: 'withdrawn',
  withdrawal: 'withdrawn',
  comment: 'comment',
};
const OTHER_FIELDS = ['year', 'type', 'doi', 'key', 'tag', 'collection', 'retracted', 'notice', 'fulltext', 'version'];
export const QUERY_FIELDS: readonly string[] = [
  ...Object.keys(TEXT_FIELDS),
  ...Object.keys(COUNT_FIELDS),
  ...OTHER_FIELDS,
];

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

const cover = (a: Span, b: Span): Span => ({ start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) });

/** How deep parentheses and NOT may nest in a query. */
export const MAX_QUERY_NESTING = 64;

class Parser {
  readonly #tokens: Token[];
  readonly #input: string;
  #pos = 0;
  /** Parentheses and NOTs open now (MAX_QUERY_NESTING). */
  #depth = 0;

  constructor(input: string) {
    this.#input = input;
    this.#tokens = tokenize(input);
  }

  parse(): QueryNode | null {
    if (this.#tokens.length === 0) return null;
    const node = this.#or();
    const extra = this.#peek();
    if (extra) {
      if (extra.type === 'rparen')
        throw new QuerySyntaxError(`")" at position ${extra.span.start + 1} has no matching "(".`, extra.span);
      throw new QuerySyntaxError(`Unexpected text at position ${extra.span.start + 1}.`, extra.span);
    }
    return node;
  }

  #peek(): Token | undefined {
    return this.#tokens[this.#pos];
  }

  #end(): Span {
    return { start: this.#input.length, end: this.#input.length };
  }

  #or(): QueryNode {
    const children = [this.#and()];
    while (this.#peek()?.type === 'or') {
      const op = this.#tokens[this.#pos++]!;
      if (!this.#startsTerm())
        throw new QuerySyntaxError(`"OR" at position ${op.span.start + 1} needs a search term after it.`, op.span);
      children.push(this.#and());
    }
    return children.length === 1
      ? children[0]!
      : { kind: 'or', children, span: cover(children[0]!.span, children.at(-1)!.span) };
  }

  #startsTerm(): boolean {
    const t = this.#peek();
    return !!t && t.type !== 'or' && t.type !== 'and' && t.type !== 'rparen';
  }

  #and(): QueryNode {
    const first = this.#peek();
    if (first && (first.type === 'and' || first.type === 'or')) {
      throw new QuerySyntaxError(
        `"${first.type.toUpperCase()}" at position ${first.span.start + 1} needs a search term before it.`,
        first.span,
      );
    }
    const children = [this.#unary()];
    for (;;) {
      const t = this.#peek();
      if (!t || t.type === 'or' || t.type === 'rparen') break;
      if (t.type === 'and') {
        this.#pos++;
        if (!this.#startsTerm())
          throw new QuerySyntaxError(`"AND" at position ${t.span.start + 1} needs a search term after it.`, t.span);
      }
      children.push(this.#unary());
    }
    return children.length === 1
      ? children[0]!
      : { kind: 'and', children, span: cover(children[0]!.span, children.at(-1)!.span) };
  }

  #unary(): QueryNode {
    const t = this.#peek();
    if (t?.type === 'not') {
      this.#pos++;
      if (!this.#startsTerm())
        throw new QuerySyntaxError(
          `"${this.#input.slice(t.span.start, t.span.end)}" at position ${t.span.start + 1} needs a search term after it.`,
          t.span,
        );
      this.#enter(t);
      const child = this.#unary();
      this.#depth--;
      return { kind: 'not', child, span: cover(t.span, child.span) };
    }
    return this.#primary();
  }

  /**
   * One more level of parentheses or NOT. The parser (and the SQL built from its tree) reads them by
   * recursion: 2,000 "(" in a 4,000-character query overflowed the stack.
   */
  #enter(t: Token): void {
    if (++this.#depth > MAX_QUERY_NESTING)
      throw new QuerySyntaxError(
        `The query nests parentheses or NOT more than ${MAX_QUERY_NESTING} levels deep (at position ${t.span.start + 1}).`,
        t.span,
      );
  }

  #primary(): QueryNode {
    const t = this.#tokens[this.#pos++];
    if (!t) throw new QuerySyntaxError('The query ends where a search term was expected.', this.#end());
    switch (t.type) {
      case 'lparen': {
        if (this.#peek()?.type === 'rparen')
          throw new QuerySyntaxError(
            `The parentheses at position ${t.span.start + 1} are empty.`,
            cover(t.span, this.#peek()!.span),
          );
        this.#enter(t);
        const inner = this.#or();
        this.#depth--;
        const close = this.#tokens[this.#pos++];
        if (close?.type !== 'rparen')
          throw new QuerySyntaxError(`The "(" at position ${t.span.start + 1} is never closed; add a ")".`, t.span);
        return inner;
      }
      case 'word':
        return { kind: 'text', field: 'any', value: t.text, phrase: false, span: t.span };
      case 'phrase':
        return { kind: 'text', field: 'any', value: t.text + (t.prefix ? '*' : ''), phrase: true, span: t.span };
      case 'field':
        return this.#field(t);
      default:
        throw new QuerySyntaxError(
          `Unexpected "${this.#input.slice(t.span.start, t.span.end)}" at position ${t.span.start + 1}.`,
          t.span,
        );
    }
  }

  #field(f: Extract<Token, { type: 'field' }>): QueryNode {
    const name = f.name;
    const known = name in TEXT_FIELDS || name in COUNT_FIELDS || OTHER_FIELDS.includes(name);
    if (!known) {
      const guess = QUERY_FIELDS.map((k) => [k, editDistance(name, k)] as const).sort((a, b) => a[1] - b[1])[0];
      const hint =
        guess && guess[1] <= 2
          ? ` Did you mean "${guess[0]}:"?`
          : ` Known fields: ${QUERY_FIELDS.map((k) => `${k}:`).join(' ')}.`;
      throw new QuerySyntaxError(
        `Unknown field "${name}:" at position ${f.span.start + 1}.${hint} To search for the text itself, put it in quotes.`,
        f.span,
      );
    }
    const v = this.#peek();
    if (!v || (v.type !== 'word' && v.type !== 'phrase') || v.span.start !== f.span.end) {
      throw new QuerySyntaxError(
        `"${name}:" at position ${f.span.start + 1} needs a value right after the colon, as in ${example(name)}.`,
        f.span,
      );
    }
    this.#pos++;
    const span = cover(f.span, v.span);
    const value = v.text;
    const phrase = v.type === 'phrase';
    const starred = (v.type === 'phrase' && v.prefix) || (!phrase && value.endsWith('*'));
    const bare = !phrase && value.endsWith('*') ? value.slice(0, -1) : value;
    const err = (msg: string): never => {
      throw new QuerySyntaxError(`${msg} (at position ${v.span.start + 1}), as in ${example(name)}.`, v.span);
    };

    if (name in TEXT_FIELDS)
      return { kind: 'text', field: TEXT_FIELDS[name]!, value: value + (phrase && starred ? '*' : ''), phrase, span };
    if (name in COUNT_FIELDS) {
      const range = parseRange(value);
      if (!range) return err(`"${name}:" needs a number, a comparison like >10 or a range like 5..20`);
      return { kind: 'count', field: COUNT_FIELDS[name]!, range, span };
    }
    switch (name) {
      case 'year': {
        const range = parseRange(value);
        if (!range) return err('"year:" needs a year, a comparison like >2015 or a range like 2010..2020');
        return { kind: 'year', range, span };
      }
      case 'type': {
        const t = value.toLowerCase();
        const type = (CSL_ITEM_TYPES as readonly string[]).includes(t) ? (t as CslItemType) : TYPE_ALIASES[t];
        if (!type)
          return err(
            `"${value}" is not an item type; use a CSL type such as article-journal, book, chapter, paper-conference, thesis, report, dataset, webpage, patent or software`,
          );
        return { kind: 'type', value: type, span };
      }
      case 'doi': {
        if (starred) return { kind: 'doi', value: bare.toLowerCase(), prefix: true, span };
        const parsed = parseDoi(value);
        if (!parsed.ok) return err(`"${value}" is not a DOI. ${parsed.reason}`);
        return { kind: 'doi', value: parsed.doi, prefix: false, span };
      }
      case 'key':
        return { kind: 'key', value: bare, prefix: starred, span };
      case 'tag':
        return { kind: 'tag', value: bare, prefix: starred, span };
      case 'collection':
        return { kind: 'collection', value, span };
      case 'fulltext':
        return { kind: 'fulltext', value: value + (phrase && starred ? '*' : ''), phrase, span };
      case 'retracted': {
        const yes = ['yes', 'true', '1', 'y'].includes(value.toLowerCase());
        const no = ['no', 'false', '0', 'n'].includes(value.toLowerCase());
        if (!yes && !no) return err('"retracted:" takes yes or no');
        return { kind: 'retracted', value: yes, span };
      }
      case 'notice': {
        const kind = NOTICE_KINDS[value.toLowerCase()];
        if (!kind)
          return err(
            `"notice:" takes any, none, retraction, correction, erratum, concern, withdrawn or comment, not "${value}"`,
          );
        return { kind: 'notice', value: kind, span };
      }
      case 'version': {
        const v = value.toLowerCase();
        if (v !== 'published' && v !== 'preprint')
          return err(
            `"version:" takes published (preprints with a published version) or preprint (papers with a preprint), not "${value}"`,
          );
        return { kind: 'version', value: v, span };
      }
    }
    /* c8 ignore next */
    return err('Unknown field');
  }
}

function example(field: string): string {
  switch (field) {
    case 'year':
      return 'year:2010..2020';
    case 'supporting':
    case 'contrasting':
    case 'mentioning':
    case 'citing':
      return `${field}:>10`;
    case 'type':
      return 'type:article-journal';
    case 'doi':
      return 'doi:10.1000/xyz123';
    case 'retracted':
      return 'retracted:yes';
    case 'notice':
      return 'notice:any';
    case 'version':
      return 'version:published';
    case 'author':
      return 'author:"van der Berg"';
    case 'fulltext':
      return 'fulltext:"gene expression"';
    default:
      return `${field}:word or ${field}:"a phrase"`;
  }
}

const INT = /^\d{1,9}$/;

/** "5", ">5", ">=5", "<5", "<=5", "=5", "5..10", "5..", "..10" → inclusive range; null when malformed. */
export function parseRange(text: string): Range | null {
  const m = /^(>=|<=|>|<|=)?(\d{1,9})$/.exec(text);
  if (m) {
    const n = Number(m[2]);
    switch (m[1]) {
      case '>':
        return { min: n + 1 };
      case '>=':
        return { min: n };
      case '<':
        return { max: n - 1 };
      case '<=':
        return { max: n };
      default:
        return { min: n, max: n };
    }
  }
  const r = /^(\d*)\.\.(\d*)$/.exec(text);
  if (!r || (r[1] === '' && r[2] === '')) return null;
  if ((r[1] && !INT.test(r[1])) || (r[2] && !INT.test(r[2]))) return null;
  const range: Range = {};
  if (r[1]) range.min = Number(r[1]);
  if (r[2]) range.max = Number(r[2]);
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) return null;
  return range;
}

/** Parses a query; null for an empty one (which matches everything). Throws QuerySyntaxError with the span at fault. */
export function parseQuery(input: string): QueryNode | null {
  return new Parser(input).parse();
}

export type QueryParse =
  { ok: true; ast: QueryNode | null } | { ok: false; error: { message: string; start: number; end: number } };

/** parseQuery without exceptions, for checking a query as it is typed. */
export function checkQuery(input: string): QueryParse {
  try {
    return { ok: true, ast: parseQuery(input) };
  } catch (err) {
    if (err instanceof QuerySyntaxError)
      return { ok: false, error: { message: err.message, start: err.span.start, end: err.span.end } };
    throw err;
  }
}
