import { describe, expect, it } from 'vitest';
import {
  coCitationRanking,
  coCitationStrength,
  contrastingStatements,
  couplingRanking,
  couplingStrength,
  DEFAULT_FILTER,
  edgePasses,
  edgeType,
  mergeHistograms,
  plainTitle,
  visibleStatements,
  type GraphEdge,
  type GraphStatement,
} from '../../../shared/model/graph';

const st = (key: string, type: GraphStatement['type'], extra: Partial<GraphStatement> = {}): GraphStatement => ({
  key,
  type,
  section: 'introduction',
  selfCite: false,
  snippet: null,
  ...extra,
});
const e = (
  source: string,
  target: string,
  statements: GraphStatement[] = [st(`${source}${target}`, 'mentioning')],
): GraphEdge => ({ source, target, statements });

describe('co-citation and bibliographic coupling', () => {
  // a and b each cite x and y; c cites x, y and z. x and y are co-cited three times; a, b, c are coupled through x and y.
  const edges = [
    e('a', 'x'),
    e('a', 'y'),
    e('b', 'x'),
    e('b', 'y'),
    e('c', 'x'),
    e('c', 'y'),
    e('c', 'z'),
    e('d', 'w'),
  ];

  it('ranks the papers cited together most often first', () => {
    expect(coCitationStrength(edges, 'x', 'y')).toBe(3);
    expect(coCitationStrength(edges, 'x', 'z')).toBe(1);
    expect(coCitationStrength(edges, 'x', 'w')).toBe(0);
    // x: with y (a, b, c) and with z (c) = 4; y likewise; z: with x and y in c = 2; w is never co-cited.
    expect(coCitationRanking(edges)).toEqual([
      { doi: 'x', score: 4 },
      { doi: 'y', score: 4 },
      { doi: 'z', score: 2 },
    ]);
  });

  it('ranks the papers whose references overlap most with the others first', () => {
    expect(couplingStrength(edges, 'a', 'b')).toBe(2);
    expect(couplingStrength(edges, 'a', 'c')).toBe(2);
    expect(couplingStrength(edges, 'a', 'd')).toBe(0);
    // Through x: a, b, c each coupled with 2 others; the same through y.
    expect(couplingRanking(edges)).toEqual([
      { doi: 'a', score: 4 },
      { doi: 'b', score: 4 },
      { doi: 'c', score: 4 },
    ]);
    expect(couplingRanking(edges, 1)).toHaveLength(1);
  });

  it('ignores self-loops and counts a pair once however many statements it has', () => {
    const loops = [e('a', 'a'), e('a', 'x', [st('1', 'supporting'), st('2', 'contrasting')]), e('a', 'y')];
    expect(coCitationRanking(loops)).toEqual([
      { doi: 'x', score: 1 },
      { doi: 'y', score: 1 },
    ]);
  });
});

describe('edges by type and the filters', () => {
  const mixed = e('a', 'x', [
    st('1', 'mentioning'),
    st('2', 'contrasting', { section: 'results' }),
    st('3', 'supporting', { selfCite: true }),
  ]);
  const mentioning = e('b', 'x', [st('4', 'mentioning'), st('5', null)]);

  it('draws contrasting over supporting over mentioning', () => {
    expect(edgeType(mixed)).toBe('contrasting');
    expect(edgeType(e('a', 'b', [st('1', 'mentioning'), st('2', 'supporting')]))).toBe('supporting');
    expect(edgeType(mentioning)).toBe('mentioning');
    expect(edgeType(e('a', 'b', []))).toBeNull();
  });

  it('keeps an edge while one of its statements passes', () => {
    expect(edgePasses(mixed, { ...DEFAULT_FILTER, types: ['contrasting'] })).toBe(true);
    expect(edgePasses(mentioning, { ...DEFAULT_FILTER, types: ['contrasting'] })).toBe(false);
    expect(visibleStatements(mixed, { ...DEFAULT_FILTER, sections: ['results'] }).map((s) => s.key)).toEqual(['2']);
    expect(visibleStatements(mixed, { ...DEFAULT_FILTER, selfCitations: false }).map((s) => s.key)).toEqual(['1', '2']);
    expect(edgePasses(mentioning, { ...DEFAULT_FILTER, hideMentioningOnly: true })).toBe(false);
    expect(edgePasses(mixed, { ...DEFAULT_FILTER, hideMentioningOnly: true })).toBe(true);
    expect(edgePasses(mentioning, DEFAULT_FILTER)).toBe(true);
  });

  it('lists the papers contrasting one, with their statements, most first', () => {
    const edges = [
      mixed,
      mentioning,
      e('c', 'x', [st('6', 'contrasting'), st('7', 'contrasting')]),
      e('c', 'y', [st('8', 'contrasting')]),
    ];
    expect(contrastingStatements(edges, 'x').map((c) => [c.source, c.statements.map((s) => s.key)])).toEqual([
      ['c', ['6', '7']],
      ['a', ['2']],
    ]);
  });
});

describe('helpers', () => {
  it('adds histograms year by year', () => {
    const a = { '2020': { supporting: 1, contrasting: 0, mentioning: 2, total: 3 } };
    const b = {
      '2020': { supporting: 1, contrasting: 1, mentioning: 0, total: 2 },
      '2021': { supporting: 0, contrasting: 0, mentioning: 1, total: 1 },
    };
    expect(mergeHistograms(a, b)).toEqual({
      '2020': { supporting: 2, contrasting: 1, mentioning: 2, total: 5 },
      '2021': b['2021'],
    });
    expect(mergeHistograms(null, b)).toBe(b);
  });

  it('takes the markup out of titles for labels', () => {
    expect(plainTitle('The <i>E. coli</i> &amp; H<sub>2</sub>O  story')).toBe('The E. coli & H2O story');
    expect(plainTitle(null)).toBe('');
  });
});

describe('merging a pair seen in two answers', () => {
  it('keeps the citing answer’s statements once, and the references answer’s only when alone', async () => {
    const { mergeStatements } = await import('../../../shared/model/graph');
    const c1 = st('c:1', 'supporting');
    const c2 = st('c:2', 'contrasting');
    const r0 = st('r:0', 'supporting');
    expect(mergeStatements([c1], [c1, c2]).map((s) => s.key)).toEqual(['c:1', 'c:2']);
    expect(mergeStatements([r0], [c1]).map((s) => s.key)).toEqual(['c:1']);
    expect(mergeStatements([c1], [r0]).map((s) => s.key)).toEqual(['c:1']);
    expect(mergeStatements([r0], [st('r:1', null)]).map((s) => s.key)).toEqual(['r:0', 'r:1']);
  });
});
