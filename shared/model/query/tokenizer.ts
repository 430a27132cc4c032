// Splits a query into words, quoted phrases, field prefixes ("author:"), parentheses and the operators
// AND, OR, NOT (upper case only, so "and" in a title is a word) and "-" before a term.
import { QuerySyntaxError, type Span } from './ast';

export type Token =
  | { type: 'word'; text: string; span: Span }
  | { type: 'phrase'; text: string; prefix: boolean; span: Span }
  | { type: 'field'; name: string; span: Span }
  | { type: 'lparen' | 'rparen' | 'and' | 'or' | 'not'; span: Span };

const isSpace = (c: string): boolean => /\s/.test(c);
const isQuote = (c: string): boolean => c === '"' || c === '“' || c === '”';
const FIELD = /^[A-Za-z][A-Za-z-]*:/;

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'lparen' : 'rparen', span: { start: i, end: i + 1 } });
      i++;
      continue;
    }
    if (isQuote(c)) {
      // Inside quotes a backslash takes the next character as it is, so \" is a quote mark in a
      // phrase (a tag or collection name may hold one) and \\ a backslash.
      const start = i;
      let j = i + 1;
      let text = '';
      while (j < input.length && !isQuote(input[j]!)) {
        if (input[j] === '\\' && j + 1 < input.length) j++;
        text += input[j]!;
        j++;
      }
      if (j >= input.length) {
        throw new QuerySyntaxError(`The quote opened at position ${start + 1} is never closed; add a closing ".`, {
          start,
          end: input.length,
        });
      }
      const prefix = input[j + 1] === '*';
      tokens.push({ type: 'phrase', text, prefix, span: { start, end: j + 1 + (prefix ? 1 : 0) } });
      i = j + 1 + (prefix ? 1 : 0);
      continue;
    }
    if (
      c === '-' &&
      i + 1 < input.length &&
      !isSpace(input[i + 1]!) &&
      (i === 0 || isSpace(input[i - 1]!) || input[i - 1] === '(')
    ) {
      tokens.push({ type: 'not', span: { start: i, end: i + 1 } });
      i++;
      continue;
    }
    const field = FIELD.exec(input.slice(i));
    if (field) {
      const name = field[0].slice(0, -1).toLowerCase();
      tokens.push({ type: 'field', name, span: { start: i, end: i + field[0].length } });
      i += field[0].length;
      if (name === 'doi' && i < input.length && !isSpace(input[i]!) && input[i] !== '"') {
        // DOIs may contain parentheses, as in 10.1016/s0140-6736(20)30183-5: read to the next space,
        // giving back only closing parentheses that have no opening one inside the DOI.
        const start = i;
        let end = i;
        while (end < input.length && !isSpace(input[end]!)) end++;
        let text = input.slice(start, end);
        const count = (t: string, ch: string): number => t.split(ch).length - 1;
        while (text.endsWith(')') && count(text, ')') > count(text, '(')) text = text.slice(0, -1);
        tokens.push({ type: 'word', text, span: { start, end: start + text.length } });
        i = start + text.length;
      }
      continue;
    }
    const start = i;
    while (i < input.length && !isSpace(input[i]!) && input[i] !== '(' && input[i] !== ')' && input[i] !== '"') i++;
    const text = input.slice(start, i);
    const span = { start, end: i };
    if (text === 'AND') tokens.push({ type: 'and', span });
    else if (text === 'OR' || text === '|') tokens.push({ type: 'or', span });
    else if (text === 'NOT') tokens.push({ type: 'not', span });
    else tokens.push({ type: 'word', text, span });
  }
  return tokens;
}
