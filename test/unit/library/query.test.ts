import { describe, expect, it } from 'vitest';
import { checkQuery, parseQuery, parseRange, QuerySyntaxError } from '../../../shared/model/query';

const strip = (n: unknown): unknown => JSON.parse(JSON.stringify(n, (k, v) => (k === 'span' ? undefined : v)));

describe('query language parser', () => {
  it('parses bare words, phrases and fields with implicit AND', () => {
    expect(strip(parseQuery('deep "neural network" author:müller'))).toEqual({
      kind: 'and',
      children: [
        { kind: 'text', field: 'any', value: 'deep', phrase: false },
        { kind: 'text', field: 'any', value: 'neural network', phrase: true },
        { kind: 'text', field: 'author', value: 'müller', phrase: false },
      ],
    });
  });

  it('parses fulltext: as its own node (words or a phrase, a prefix with *), with a hint when misspelt', () => {
    expect(strip(parseQuery('fulltext:"gene expression" fulltext:ribo* title:yeast'))).toEqual({
      kind: 'and',
      children: [
        { kind: 'fulltext', value: 'gene expression', phrase: true },
        { kind: 'fulltext', value: 'ribo*', phrase: false },
        { kind: 'text', field: 'title', value: 'yeast', phrase: false },
      ],
    });
    expect(strip(parseQuery('fulltext:"gene exp"*'))).toEqual({ kind: 'fulltext', value: 'gene exp*', phrase: true });
    expect(() => parseQuery('fulltxt:gene')).toThrow(/Did you mean "fulltext:"/);
    expect(() => parseQuery('fulltext: gene')).toThrow(
      /needs a value right after the colon, as in fulltext:"gene expression"/,
    );
  });

  it('reads a backslash in quotes as taking the next character literally', () => {
    expect(strip(parseQuery('tag:"say \\"hi\\"" collection:"a\\\\b"'))).toMatchObject({
      kind: 'and',
      children: [
        { kind: 'tag', value: 'say "hi"' },
        { kind: 'collection', value: 'a\\b' },
      ],
    });
    expect(() => parseQuery('"open \\"')).toThrow(/never closed/);
  });

  it('gives OR lower precedence than AND, NOT and - negate, parentheses group', () => {
    expect(strip(parseQuery('a b OR c'))).toEqual({
      kind: 'or',
      children: [
        {
          kind: 'and',
          children: [
            { kind: 'text', field: 'any', value: 'a', phrase: false },
            { kind: 'text', field: 'any', value: 'b', phrase: false },
          ],
        },
        { kind: 'text', field: 'any', value: 'c', phrase: false },
      ],
    });
    expect(strip(parseQuery('a AND (b OR c) NOT d -e'))).toMatchObject({
      kind: 'and',
      children: [
        { kind: 'text' },
        { kind: 'or' },
        { kind: 'not', child: { value: 'd' } },
        { kind: 'not', child: { value: 'e' } },
      ],
    });
    // Lower-case "and"/"or" are words, and a hyphen inside a word is not a negation.
    expect(strip(parseQuery('rock and roll'))).toMatchObject({
      kind: 'and',
      children: [{ value: 'rock' }, { value: 'and' }, { value: 'roll' }],
    });
    expect(strip(parseQuery('meta-analysis'))).toEqual({
      kind: 'text',
      field: 'any',
      value: 'meta-analysis',
      phrase: false,
    });
  });

  it('parses every structured field', () => {
    expect(strip(parseQuery('year:2010..2020'))).toEqual({ kind: 'year', range: { min: 2010, max: 2020 } });
    expect(strip(parseQuery('year:>2015'))).toEqual({ kind: 'year', range: { min: 2016 } });
    expect(strip(parseQuery('supporting:>10'))).toEqual({ kind: 'count', field: 'supporting', range: { min: 11 } });
    expect(strip(parseQuery('contrasting:>0'))).toEqual({ kind: 'count', field: 'contrasting', range: { min: 1 } });
    expect(strip(parseQuery('mentioning:5'))).toEqual({
      kind: 'count',
      field: 'mentioning',
      range: { min: 5, max: 5 },
    });
    expect(strip(parseQuery('type:book'))).toEqual({ kind: 'type', value: 'book' });
    expect(strip(parseQuery('type:preprint'))).toEqual({ kind: 'type', value: 'article' });
    expect(strip(parseQuery('doi:https://doi.org/10.1000/ABC(1)x'))).toEqual({
      kind: 'doi',
      value: '10.1000/abc(1)x',
      prefix: false,
    });
    expect(strip(parseQuery('(doi:10.1000/abc)'))).toEqual({ kind: 'doi', value: '10.1000/abc', prefix: false });
    expect(strip(parseQuery('key:smith*'))).toEqual({ kind: 'key', value: 'smith', prefix: true });
    expect(strip(parseQuery('tag:"to read"'))).toEqual({ kind: 'tag', value: 'to read', prefix: false });
    expect(strip(parseQuery('collection:Thesis'))).toEqual({ kind: 'collection', value: 'Thesis' });
    expect(strip(parseQuery('retracted:yes'))).toEqual({ kind: 'retracted', value: true });
    expect(strip(parseQuery('notice:any'))).toEqual({ kind: 'notice', value: 'any' });
    expect(strip(parseQuery('journal:nature'))).toEqual({
      kind: 'text',
      field: 'container',
      value: 'nature',
      phrase: false,
    });
  });

  it('treats an empty query as "everything"', () => {
    expect(parseQuery('   ')).toBeNull();
  });

  it.each([
    ['"unclosed phrase', /never closed/, 0],
    ['autor:smith', /Unknown field "autor:".*Did you mean "author:"/, 0],
    ['year:recent', /"year:" needs a year/, 5],
    ['year:2020..2010', /"year:" needs a year/, 5],
    ['supporting:lots', /needs a number/, 11],
    ['a OR', /"OR" at position 3 needs a search term after it/, 2],
    ['OR a', /needs a search term before it/, 0],
    ['(a b', /never closed/, 0],
    ['a b)', /no matching "\("/, 3],
    ['()', /empty/, 0],
    ['title: x', /needs a value right after the colon/, 0],
    ['type:novel', /not an item type/, 5],
    ['doi:12.34', /not a DOI/, 4],
    ['notice:maybe', /"notice:" takes/, 7],
    ['NOT', /needs a search term after it/, 0],
  ])('reports %j clearly with its position', (q, message, start) => {
    try {
      parseQuery(q);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(QuerySyntaxError);
      expect((err as QuerySyntaxError).message).toMatch(message);
      expect((err as QuerySyntaxError).span.start).toBe(start);
    }
    const checked = checkQuery(q);
    expect(checked.ok).toBe(false);
  });

  it('parses ranges', () => {
    expect(parseRange('..5')).toEqual({ max: 5 });
    expect(parseRange('5..')).toEqual({ min: 5 });
    expect(parseRange('<=3')).toEqual({ max: 3 });
    expect(parseRange('..')).toBeNull();
    expect(parseRange('x')).toBeNull();
  });
});
