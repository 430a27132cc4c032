// The search language printed back from its tree: text → tree → text → tree gives the same tree for
// every construct of the language, and printing is canonical (printing the reparsed text again gives
// the same text). The advanced search dialog relies on both.
import { describe, expect, it } from 'vitest';
import {
  RuleError,
  groupToTree,
  newRule,
  parseQuery,
  printQuery,
  printRange,
  treeToGroup,
  withoutSpans,
  type Group,
  type QueryNode,
  type Rule,
} from '../../../shared/model/query';

const roundTrip = (text: string): string => {
  const tree = parseQuery(text);
  const printed = printQuery(tree);
  expect(withoutSpans(parseQuery(printed)), `${text} → ${printed}`).toEqual(withoutSpans(tree));
  expect(printQuery(parseQuery(printed)), `${printed} is canonical`).toBe(printed);
  return printed;
};

describe('printQuery', () => {
  it('prints every construct so that it parses back to the same tree', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['protein', 'protein'],
      ['prot*', 'prot*'],
      ['"gene expression"', '"gene expression"'],
      ['"gene expr"*', '"gene expr"*'],
      ['title:folding', 'title:folding'],
      ['title:"protein folding"', 'title:"protein folding"'],
      ['author:"van der Berg"', 'author:"van der Berg"'],
      ['creator:smith', 'author:smith'],
      ['abstract:"climate"', 'abstract:"climate"'],
      ['journal:nature', 'container:nature'],
      ['notes:todo', 'note:todo'],
      ['fulltext:"gene expression"', 'fulltext:"gene expression"'],
      ['fulltext:crispr', 'fulltext:crispr'],
      ['year:2015', 'year:2015'],
      ['year:2010..2020', 'year:2010..2020'],
      ['year:>2015', 'year:2016..'],
      ['year:>=2015', 'year:2015..'],
      ['year:<2000', 'year:..1999'],
      ['year:..2000', 'year:..2000'],
      ['supporting:>10', 'supporting:11..'],
      ['contrasting:=0', 'contrasting:0'],
      ['mentioning:5..20', 'mentioning:5..20'],
      ['citing:<=3', 'citing:..3'],
      ['type:journal', 'type:article-journal'],
      ['type:article', 'type:article'],
      ['type:book', 'type:book'],
      ['doi:10.1000/ABC', 'doi:10.1000/abc'],
      ['doi:https://doi.org/10.1016/s0140-6736(20)30183-5', 'doi:10.1016/s0140-6736(20)30183-5'],
      ['doi:10.1000/*', 'doi:10.1000/*'],
      ['key:smith2020', 'key:smith2020'],
      ['key:smith*', 'key:smith*'],
      ['key:"odd(key)"', 'key:"odd(key)"'],
      ['key:"odd(key)"*', 'key:"odd(key)"*'],
      ['tag:to-read', 'tag:to-read'],
      ['tag:"to read"', 'tag:"to read"'],
      ['tag:"say \\"hi\\""', 'tag:"say \\"hi\\""'],
      ['tag:rev*', 'tag:rev*'],
      ['tag:"AND"', 'tag:"AND"'],
      ['tag:"a:b"', 'tag:"a:b"'],
      ['collection:Thesis', 'collection:Thesis'],
      ['collection:"Chapter 2"', 'collection:"Chapter 2"'],
      ['retracted:yes', 'retracted:yes'],
      ['retracted:0', 'retracted:no'],
      ['notice:any', 'notice:any'],
      ['notice:expression-of-concern', 'notice:concern'],
      ['notice:none', 'notice:none'],
      ['version:published', 'version:published'],
      ['version:preprint', 'version:preprint'],
      ['a b', 'a b'],
      ['a AND b', 'a b'],
      ['a OR b', 'a OR b'],
      ['a | b', 'a OR b'],
      ['a b OR c', 'a b OR c'],
      ['a (b OR c)', 'a (b OR c)'],
      ['(a OR b) OR c', '(a OR b) OR c'],
      ['(a b) c', '(a b) c'],
      ['-retracted:yes', 'NOT retracted:yes'],
      ['NOT (a OR b)', 'NOT (a OR b)'],
      ['NOT (a b)', 'NOT (a b)'],
      ['NOT NOT a', 'NOT NOT a'],
      [
        'author:smith (year:2010..2015 OR tag:"key paper") -notice:any',
        'author:smith (year:2010..2015 OR tag:"key paper") NOT notice:any',
      ],
      ['((a OR b) (c OR NOT d)) OR e', '(a OR b) (c OR NOT d) OR e'],
    ];
    for (const [text, printed] of cases) expect(roundTrip(text), text).toBe(printed);
  });

  it('quotes what would read as something else, from a tree built by hand (the dialog)', () => {
    const span = { start: 0, end: 0 };
    const leaf = (value: string, phrase = false): QueryNode => ({ kind: 'text', field: 'title', value, phrase, span });
    const tree: QueryNode = {
      kind: 'and',
      children: [
        leaf('deep learning', true),
        { kind: 'tag', value: 'x (draft)', prefix: false, span },
        { kind: 'tag', value: 'ends*', prefix: false, span },
        { kind: 'collection', value: 'NOT', span },
        { kind: 'key', value: '-minus', prefix: false, span },
        { kind: 'text', field: 'any', value: 'word', phrase: false, span },
      ],
      span,
    };
    const text = printQuery(tree);
    expect(text).toBe('title:"deep learning" tag:"x (draft)" tag:"ends*" collection:"NOT" key:-minus word');
    expect(withoutSpans(parseQuery(text))).toEqual(withoutSpans(tree));
  });

  it('prints ranges on both sides of each bound', () => {
    expect(printRange({ min: 5, max: 5 })).toBe('5');
    expect(printRange({ min: 4, max: 5 })).toBe('4..5');
    expect(printRange({ min: 0 })).toBe('0..');
    expect(printRange({ max: 0 })).toBe('..0');
    expect(printRange({})).toBe('0..');
  });
});

describe('the advanced search builder', () => {
  it('turns every query into groups and rules and back into the same tree', () => {
    const texts = [
      'protein',
      'prot*',
      '"gene expression"',
      'title:folding title:"protein folding"',
      "author:o'brien",
      'fulltext:"gene expression" OR fulltext:crispr',
      'year:2015 year:2010..2020 year:2016.. year:..1999',
      'supporting:11.. contrasting:0 mentioning:5..20 citing:..3',
      'type:book NOT type:thesis',
      'doi:10.1000/abc OR doi:10.1000/* NOT doi:10.2000/x',
      'key:smith2020 key:"odd(key)"* NOT key:x',
      'tag:to-read tag:rev* NOT tag:"to read"',
      'collection:Thesis NOT collection:"Chapter 2"',
      'retracted:yes retracted:no notice:concern NOT notice:any version:published',
      'a (b OR c) NOT (d OR e) NOT (f g) NOT NOT h',
      '(a OR b) OR c',
      '(a b) c',
      'NOT year:2015',
      'NOT "exact phrase"',
      'author:smith (year:2010..2015 OR tag:"key paper") -notice:any',
    ];
    for (const text of texts) {
      const tree = parseQuery(text);
      const group = treeToGroup(tree);
      const back = groupToTree(group);
      expect(withoutSpans(back), text).toEqual(withoutSpans(tree));
      expect(withoutSpans(parseQuery(printQuery(back))), text).toEqual(withoutSpans(tree));
    }
    expect(treeToGroup(null)).toEqual({ kind: 'group', match: 'all', negate: false, children: [] });
    expect(groupToTree(treeToGroup(null))).toBeNull();
  });

  it('builds the query from rules, nested groups, all/any and negation', () => {
    const group: Group = {
      kind: 'group',
      match: 'all',
      negate: false,
      children: [
        { kind: 'rule', field: 'title', op: 'contains', value: 'deep  learning' },
        { kind: 'rule', field: 'year', op: 'between', value: '2015', value2: '2020' },
        {
          kind: 'group',
          match: 'any',
          negate: false,
          children: [
            { kind: 'rule', field: 'tag', op: 'is', value: 'to read' },
            { kind: 'rule', field: 'tag', op: 'startsWith', value: 'review' },
          ],
        },
        {
          kind: 'group',
          match: 'any',
          negate: true,
          children: [{ kind: 'rule', field: 'notice', op: 'is', value: 'any' }],
        },
        { kind: 'rule', field: 'author', op: 'notContains', value: 'smith' },
        { kind: 'rule', field: 'any', op: 'phrase', value: 'gene expression' },
      ],
    };
    expect(printQuery(groupToTree(group))).toBe(
      'title:deep title:learning year:2015..2020 (tag:"to read" OR tag:review*) NOT notice:any NOT author:smith "gene expression"',
    );
  });

  it('says which rule is wrong and why, on both sides of each bound', () => {
    const one = (rule: Rule): string | null => {
      try {
        groupToTree({ kind: 'group', match: 'all', negate: false, children: [rule] });
        return null;
      } catch (err) {
        expect(err).toBeInstanceOf(RuleError);
        expect((err as RuleError).path).toEqual([0]);
        return (err as Error).message;
      }
    };
    expect(one({ kind: 'rule', field: 'title', op: 'contains', value: '   ' })).toBe('Type the words to look for.');
    expect(one({ kind: 'rule', field: 'year', op: 'is', value: '20x5' })).toBe(
      'The value must be a whole number such as 2015.',
    );
    expect(one({ kind: 'rule', field: 'year', op: 'between', value: '2020', value2: '2019' })).toMatch(
      /lower bound \(2020\) is above the upper bound \(2019\)/,
    );
    expect(one({ kind: 'rule', field: 'year', op: 'between', value: '2020', value2: '2020' })).toBeNull();
    expect(one({ kind: 'rule', field: 'year', op: 'between', value: '2019', value2: '2020' })).toBeNull();
    expect(one({ kind: 'rule', field: 'supporting', op: 'atLeast', value: '999999999' })).toBeNull();
    expect(one({ kind: 'rule', field: 'supporting', op: 'atLeast', value: '1000000000' })).toMatch(/whole number/);
    expect(one({ kind: 'rule', field: 'doi', op: 'is', value: 'not a doi' })).toMatch(/is not a DOI/);
    expect(one({ kind: 'rule', field: 'tag', op: 'is', value: '' })).toBe('Give a value.');
    // A nested group's rule: its path says where.
    try {
      groupToTree({
        kind: 'group',
        match: 'all',
        negate: false,
        children: [
          newRule(),
          { kind: 'group', match: 'any', negate: false, children: [newRule('title'), newRule('year')] },
        ],
      });
    } catch (err) {
      expect((err as RuleError).path).toEqual([0]);
    }
  });
});
