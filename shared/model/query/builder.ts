// The advanced search dialog's model: groups of rules (field, operator, value), matched all or any,
// negated or not, nested. A group becomes a query tree through the query language itself (each rule
// is written as query text and parsed, so the parser checks its value and says what is wrong), and
// any query tree comes back as groups and rules: text → tree → groups → tree → text is one query.
import { CSL_ITEM_TYPES } from '../csl';
import type { QueryNode, Range } from './ast';
import { parseQuery } from './parser';
import { printRange, quote, textValue } from './print';
import { QuerySyntaxError } from './ast';

export type RuleField =
  | 'any'
  | 'title'
  | 'author'
  | 'abstract'
  | 'container'
  | 'note'
  | 'fulltext'
  | 'year'
  | 'type'
  | 'tag'
  | 'collection'
  | 'key'
  | 'doi'
  | 'supporting'
  | 'contrasting'
  | 'mentioning'
  | 'citing'
  | 'retracted'
  | 'notice'
  | 'version';

export type Operator =
  'contains' | 'phrase' | 'notContains' | 'is' | 'isNot' | 'startsWith' | 'atLeast' | 'atMost' | 'between';

export interface Rule {
  kind: 'rule';
  field: RuleField;
  op: Operator;
  value: string;
  /** The upper bound of "between". */
  value2?: string;
}

export interface Group {
  kind: 'group';
  match: 'all' | 'any';
  /** "None of" (any, negated) and "not all of" (all, negated). */
  negate: boolean;
  children: (Rule | Group)[];
}

export const OPERATOR_LABELS: Record<Operator, string> = {
  contains: 'contains the words',
  phrase: 'contains the phrase',
  notContains: 'does not contain',
  is: 'is',
  isNot: 'is not',
  startsWith: 'starts with',
  atLeast: 'is at least',
  atMost: 'is at most',
  between: 'is between',
};

const TEXT_OPS: Operator[] = ['contains', 'phrase', 'notContains'];
const RANGE_OPS: Operator[] = ['is', 'atLeast', 'atMost', 'between'];

/** What each field offers: its label, its operators, and a fixed list of values where it has one. */
export const RULE_FIELDS: readonly {
  id: RuleField;
  label: string;
  ops: Operator[];
  choices?: readonly { value: string; label: string }[];
}[] = [
  { id: 'any', label: 'Any field', ops: TEXT_OPS },
  { id: 'title', label: 'Title', ops: TEXT_OPS },
  { id: 'author', label: 'Creator', ops: TEXT_OPS },
  { id: 'abstract', label: 'Abstract', ops: TEXT_OPS },
  { id: 'container', label: 'Publication', ops: TEXT_OPS },
  { id: 'note', label: 'Notes', ops: TEXT_OPS },
  { id: 'fulltext', label: 'Full text of PDFs', ops: TEXT_OPS },
  { id: 'year', label: 'Year', ops: RANGE_OPS },
  {
    id: 'type',
    label: 'Item type',
    ops: ['is', 'isNot'],
    choices: CSL_ITEM_TYPES.map((t) => ({ value: t, label: t })),
  },
  { id: 'tag', label: 'Tag', ops: ['is', 'isNot', 'startsWith'] },
  { id: 'collection', label: 'Collection', ops: ['is', 'isNot'] },
  { id: 'key', label: 'Citation key', ops: ['is', 'isNot', 'startsWith'] },
  { id: 'doi', label: 'DOI', ops: ['is', 'isNot', 'startsWith'] },
  { id: 'supporting', label: 'Supporting statements', ops: RANGE_OPS },
  { id: 'contrasting', label: 'Contrasting statements', ops: RANGE_OPS },
  { id: 'mentioning', label: 'Mentioning statements', ops: RANGE_OPS },
  { id: 'citing', label: 'Citing publications', ops: RANGE_OPS },
  {
    id: 'retracted',
    label: 'Retracted',
    ops: ['is'],
    choices: [
      { value: 'yes', label: 'yes' },
      { value: 'no', label: 'no' },
    ],
  },
  {
    id: 'notice',
    label: 'Editorial notice',
    ops: ['is', 'isNot'],
    choices: [
      { value: 'any', label: 'any notice' },
      { value: 'retracted', label: 'retraction' },
      { value: 'correction', label: 'correction' },
      { value: 'erratum', label: 'erratum' },
      { value: 'concern', label: 'expression of concern' },
      { value: 'withdrawn', label: 'withdrawal' },
      { value: 'comment', label: 'comment' },
      { value: 'none', label: 'no notice' },
    ],
  },
  {
    id: 'version',
    label: 'Versions',
    ops: ['is'],
    choices: [
      { value: 'published', label: 'a preprint with a published version' },
      { value: 'preprint', label: 'a paper with a preprint' },
    ],
  },
];

export const fieldSpec = (id: RuleField) => RULE_FIELDS.find((f) => f.id === id)!;

export const newRule = (field: RuleField = 'any'): Rule => {
  const spec = fieldSpec(field);
  return { kind: 'rule', field, op: spec.ops[0]!, value: spec.choices?.[0]?.value ?? '' };
};
export const newGroup = (match: 'all' | 'any' = 'all'): Group => ({
  kind: 'group',
  match,
  negate: false,
  children: [newRule()],
});

/** A rule whose value is wrong, with where it is (indexes from the top group down) and why. */
export class RuleError extends Error {
  readonly path: number[];
  constructor(message: string, path: number[]) {
    super(message);
    this.name = 'RuleError';
    this.path = path;
  }
}

const RANGE_FIELDS = new Set<RuleField>(['year', 'supporting', 'contrasting', 'mentioning', 'citing']);
const TEXT_FIELD_NAMES = new Set<RuleField>(['any', 'title', 'author', 'abstract', 'container', 'note', 'fulltext']);

/** The query text of one rule, before negation. */
function ruleText(rule: Rule): string {
  const f = rule.field;
  const value = rule.value.trim();
  if (TEXT_FIELD_NAMES.has(f)) {
    const words = value.split(/\s+/).filter(Boolean);
    if (words.length === 0) throw new Error('Type the words to look for.');
    const prefix = f === 'any' ? '' : `${f}:`;
    if (rule.op === 'phrase') return `${prefix}${quote(words.join(' '))}`;
    return words.map((w) => `${prefix}${textValue(w, false, f === 'any')}`).join(' ');
  }
  if (RANGE_FIELDS.has(f)) {
    const num = (text: string | undefined, what: string): number => {
      const t = (text ?? '').trim();
      if (!/^\d{1,9}$/.test(t))
        throw new Error(`${what} must be a whole number${f === 'year' ? ' such as 2015' : ''}.`);
      return Number(t);
    };
    let range: Range;
    if (rule.op === 'between') {
      const min = num(rule.value, 'The lower bound');
      const max = num(rule.value2, 'The upper bound');
      if (min > max) throw new Error(`The lower bound (${min}) is above the upper bound (${max}).`);
      range = { min, max };
    } else {
      const n = num(rule.value, 'The value');
      range = rule.op === 'atLeast' ? { min: n } : rule.op === 'atMost' ? { max: n } : { min: n, max: n };
    }
    return `${f}:${printRange(range)}`;
  }
  if (value === '') throw new Error('Give a value.');
  switch (f) {
    case 'tag':
    case 'key':
    case 'collection':
      return `${f}:${quote(value)}${rule.op === 'startsWith' && f !== 'collection' ? '*' : ''}`;
    case 'doi':
      return `doi:${value}${rule.op === 'startsWith' ? '*' : ''}`;
    default:
      return `${f}:${value}`;
  }
}

const NEGATED: Partial<Record<Operator, true>> = { notContains: true, isNot: true };

function ruleNode(rule: Rule, path: number[]): QueryNode {
  let text: string;
  let node: QueryNode | null;
  try {
    text = ruleText(rule);
    node = parseQuery(text);
  } catch (err) {
    if (err instanceof QuerySyntaxError || err instanceof Error) throw new RuleError(err.message, path);
    throw err;
  }
  if (!node) throw new RuleError('Give a value.', path);
  return NEGATED[rule.op] ? { kind: 'not', child: node, span: node.span } : node;
}

const ZERO = { start: 0, end: 0 };

/**
 * The query tree of a group (null: no rules, which matches everything). Throws RuleError for a rule
 * whose value is wrong. A rule of several words under "all" adds its words to the group.
 */
export function groupToTree(group: Group, path: number[] = []): QueryNode | null {
  const nodes: QueryNode[] = [];
  group.children.forEach((child, i) => {
    const node = child.kind === 'rule' ? ruleNode(child, [...path, i]) : groupToTree(child, [...path, i]);
    if (!node) return;
    if (child.kind === 'rule' && node.kind === 'and' && group.match === 'all') nodes.push(...node.children);
    else nodes.push(node);
  });
  if (nodes.length === 0) return null;
  const inner: QueryNode =
    nodes.length === 1 ? nodes[0]! : { kind: group.match === 'all' ? 'and' : 'or', children: nodes, span: ZERO };
  return group.negate ? { kind: 'not', child: inner, span: ZERO } : inner;
}

function rangeRule(field: RuleField, r: Range): Rule {
  if (r.min !== undefined && r.max !== undefined)
    return r.min === r.max
      ? { kind: 'rule', field, op: 'is', value: String(r.min) }
      : { kind: 'rule', field, op: 'between', value: String(r.min), value2: String(r.max) };
  if (r.max !== undefined) return { kind: 'rule', field, op: 'atMost', value: String(r.max) };
  return { kind: 'rule', field, op: 'atLeast', value: String(r.min ?? 0) };
}

/** A leaf of the tree as a rule (before negation); null for a combination. */
function leafRule(node: QueryNode): Rule | null {
  switch (node.kind) {
    case 'text':
    case 'fulltext': {
      const field: RuleField = node.kind === 'fulltext' ? 'fulltext' : node.field;
      if (node.phrase) {
        // A phrase of one token reads as a word would (its tree differs only in `phrase`): keep it a phrase.
        return { kind: 'rule', field, op: 'phrase', value: node.value };
      }
      return { kind: 'rule', field, op: 'contains', value: node.value };
    }
    case 'year':
      return rangeRule('year', node.range);
    case 'count':
      return rangeRule(node.field, node.range);
    case 'type':
      return { kind: 'rule', field: 'type', op: 'is', value: node.value };
    case 'doi':
    case 'key':
    case 'tag':
      return { kind: 'rule', field: node.kind, op: node.prefix ? 'startsWith' : 'is', value: node.value };
    case 'collection':
      return { kind: 'rule', field: 'collection', op: 'is', value: node.value };
    case 'retracted':
      return { kind: 'rule', field: 'retracted', op: 'is', value: node.value ? 'yes' : 'no' };
    case 'notice':
      return { kind: 'rule', field: 'notice', op: 'is', value: node.value };
    case 'version':
      return { kind: 'rule', field: 'version', op: 'is', value: node.value };
    default:
      return null;
  }
}

/** The groups and rules of a query tree (the dialog opened on what the search box holds). */
export function treeToGroup(node: QueryNode | null): Group {
  if (!node) return { kind: 'group', match: 'all', negate: false, children: [] };
  const group = asGroup(node);
  return group.kind === 'group' ? group : { kind: 'group', match: 'all', negate: false, children: [group] };
}

function asGroup(node: QueryNode): Rule | Group {
  if (node.kind === 'and' || node.kind === 'or')
    return {
      kind: 'group',
      match: node.kind === 'and' ? 'all' : 'any',
      negate: false,
      children: node.children.map(asGroup),
    };
  if (node.kind === 'not') {
    const inner = node.child;
    const rule = leafRule(inner);
    if (rule) {
      const spec = fieldSpec(rule.field);
      const negated: Operator | null =
        rule.op === 'contains' && !/\s/.test(rule.value)
          ? 'notContains'
          : rule.op === 'is' && spec.ops.includes('isNot')
            ? 'isNot'
            : null;
      if (negated) return { ...rule, op: negated };
    }
    const child = asGroup(inner);
    if (child.kind === 'group' && !child.negate) return { ...child, negate: true };
    return { kind: 'group', match: 'all', negate: true, children: [child] };
  }
  return leafRule(node)!;
}
