// The search language written back from its syntax tree: printQuery(parseQuery(text)) is a canonical
// form of `text`, and parseQuery(printQuery(tree)) gives the same tree (spans aside). The advanced
// search dialog builds trees and shows, runs and saves them as this text, so both are one language.
import type { QueryNode, Range } from './ast';

const FIELD_LIKE = /^[A-Za-z][A-Za-z-]*:/;
const OPERATORS = new Set(['AND', 'OR', 'NOT', '|']);

/** Whether a value can stand without quotes and still read back as the same word. */
function bareOk(value: string, top: boolean): boolean {
  if (value === '' || /[\s()"“”]/.test(value)) return false;
  if (OPERATORS.has(value) || FIELD_LIKE.test(value)) return false;
  if (top && value.startsWith('-')) return false;
  return true;
}

/** A quoted phrase: quote marks and backslashes escaped, as the tokenizer reads them. */
export function quote(text: string): string {
  return `"${text.replace(/["“”\\]/g, '\\$&')}"`;
}

/** A text value: a bare word, or a phrase (a trailing `*` of a phrase goes after the closing quote). */
export function textValue(value: string, phrase: boolean, top: boolean): string {
  if (!phrase) return bareOk(value, top) ? value : quote(value);
  return value.endsWith('*') ? `${quote(value.slice(0, -1))}*` : quote(value);
}

/** A value compared as it is (key, tag, collection): bare when safe, else quoted; `prefix` adds the star. */
function exactValue(value: string, prefix: boolean): string {
  if (bareOk(value, false) && !value.endsWith('*')) return prefix ? `${value}*` : value;
  return `${quote(value)}${prefix ? '*' : ''}`;
}

export function printRange(r: Range): string {
  if (r.min !== undefined && r.max !== undefined) return r.min === r.max ? String(r.min) : `${r.min}..${r.max}`;
  if (r.min !== undefined) return `${r.min}..`;
  if (r.max !== undefined) return `..${r.max}`;
  // parseRange never gives an empty range; as a filter it means "has a value", i.e. from 0 up.
  return '0..';
}

const TEXT_FIELD_NAME: Record<string, string> = {
  title: 'title',
  author: 'author',
  abstract: 'abstract',
  container: 'container',
  note: 'note',
};

/** The query text of a tree; '' for null (the empty query, which matches everything). */
export function printQuery(node: QueryNode | null): string {
  return node ? print(node, true) : '';
}

function print(node: QueryNode, top: boolean): string {
  switch (node.kind) {
    // AND binds tighter than OR; a group the tree keeps (parenthesised in the text it came from) keeps
    // its parentheses, so the text reads back as the same tree.
    case 'and':
      return node.children
        .map((c) => (c.kind === 'or' || c.kind === 'and' ? `(${print(c, true)})` : print(c, top)))
        .join(' ');
    case 'or':
      return node.children.map((c) => (c.kind === 'or' ? `(${print(c, true)})` : print(c, top))).join(' OR ');
    case 'not': {
      const inner = node.child;
      return `NOT ${inner.kind === 'and' || inner.kind === 'or' ? `(${print(inner, true)})` : print(inner, true)}`;
    }
    case 'text':
      return node.field === 'any'
        ? textValue(node.value, node.phrase, top)
        : `${TEXT_FIELD_NAME[node.field]}:${textValue(node.value, node.phrase, false)}`;
    case 'fulltext':
      return `fulltext:${textValue(node.value, node.phrase, false)}`;
    case 'year':
      return `year:${printRange(node.range)}`;
    case 'count':
      return `${node.field}:${printRange(node.range)}`;
    case 'type':
      return `type:${node.value}`;
    case 'doi':
      return `doi:${node.value}${node.prefix ? '*' : ''}`;
    case 'key':
      return `key:${exactValue(node.value, node.prefix)}`;
    case 'tag':
      return `tag:${exactValue(node.value, node.prefix)}`;
    case 'collection':
      return `collection:${bareOk(node.value, false) ? node.value : quote(node.value)}`;
    case 'retracted':
      return `retracted:${node.value ? 'yes' : 'no'}`;
    case 'notice':
      return `notice:${node.value}`;
    case 'version':
      return `version:${node.value}`;
  }
}

/** A tree without its spans, for comparing trees (the same query written two ways). */
export function withoutSpans(node: QueryNode | null): unknown {
  return node === null ? null : JSON.parse(JSON.stringify(node, (k, v: unknown) => (k === 'span' ? undefined : v)));
}
