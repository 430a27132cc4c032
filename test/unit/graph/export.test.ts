// GraphML and GEXF: well-formed XML (checked strictly: every tag closed, attributes quoted, only the
// five XML entities), text escaped, characters XML cannot carry removed, and the counts right.
import { describe, expect, it } from 'vitest';
import { toGexf, toGraphml, xmlText } from '../../../electron/core/graph/export';
import type { GraphEdge, GraphNode } from '../../../shared/model/graph';

const node = (doi: string, extra: Partial<GraphNode> = {}): GraphNode => ({
  doi,
  title: null,
  year: 2001,
  journal: null,
  authors: null,
  citingPublications: null,
  tally: null,
  supporting: null,
  contrasting: null,
  mentioning: null,
  retracted: false,
  itemId: null,
  citing: null,
  references: null,
  ...extra,
});

const nasty = 'A <b>bold</b> "quoted" & \'single\' title\u0001 with a bell\u0007 and a lone \uD800 surrogate 😀';
const nodes = [
  node('10.1000/a<b>', { title: nasty, journal: 'J & K', retracted: true, itemId: 4 }),
  node('10.1000/c', { year: null }),
];
const edges: GraphEdge[] = [
  {
    source: '10.1000/c',
    target: '10.1000/a<b>',
    statements: [
      { key: 'c:1', type: 'contrasting', section: 'results', selfCite: true, snippet: null },
      { key: 'c:2', type: 'mentioning', section: 'introduction', selfCite: false, snippet: '<cite>x</cite>' },
    ],
  },
];

/** A strict well-formedness check: balanced tags, quoted attributes, only the five XML entities, no raw < or & in text. */
function assertWellFormed(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(body))) {
    const text = body.slice(last, m.index);
    expect(text).not.toMatch(/[<>]/);
    expect(text.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toContain('&');
    for (const [, v] of m[3]!.matchAll(/="([^"]*)"/g))
      expect(v!.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toMatch(/[&<>]/);
    if (m[1]) expect(stack.pop()).toBe(m[2]);
    else if (!m[4]) stack.push(m[2]!);
    last = m.index + m[0].length;
  }
  expect(body.slice(last).trim()).toBe('');
  expect(stack).toEqual([]);
  // eslint-disable-next-line no-control-regex
  expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
}

describe('graph exports', () => {
  it('escapes text and drops what XML 1.0 cannot hold', () => {
    expect(xmlText('a<b>&"\'')).toBe('a&lt;b&gt;&amp;&quot;&apos;');
    expect(xmlText('x\u0000y\u001Fz\uFFFE')).toBe('xyz');
    expect(xmlText('😀')).toBe('😀');
    expect(xmlText('\uDC00lone')).toBe('lone');
  });

  it('writes well-formed GraphML with node and edge data', () => {
    const xml = toGraphml({ nodes, edges, positions: { '10.1000/c': { x: 1.5, y: -2 } }, title: 'My "graph"' });
    assertWellFormed(xml);
    expect((xml.match(/<node /g) ?? []).length).toBe(2);
    expect((xml.match(/<edge /g) ?? []).length).toBe(1);
    expect(xml).toContain('<node id="10.1000/a&lt;b&gt;">');
    expect(xml).toContain(
      '<data key="n_label">A bold &quot;quoted&quot; &amp; &apos;single&apos; title with a bell and a lone  surrogate 😀</data>',
    );
    expect(xml).toContain('<data key="n_retracted">true</data>');
    expect(xml).toContain('<data key="n_inLibrary">true</data>');
    expect(xml).toContain('<data key="e_type">contrasting</data>');
    expect(xml).toContain('<data key="e_contrasting">1</data>');
    expect(xml).toContain('<data key="e_sections">introduction;results</data>');
    expect(xml).toContain('<data key="e_selfCitation">true</data>');
    expect(xml).toContain('<data key="n_x">1.5</data>');
    // A missing year is left out, not written as "null".
    expect(xml).not.toContain('null');
  });

  it('writes well-formed GEXF 1.3 with attributes and positions', () => {
    const xml = toGexf({
      nodes,
      edges,
      positions: { '10.1000/a<b>': { x: 3, y: 4 } },
      now: new Date('2026-01-02T00:00:00Z'),
    });
    assertWellFormed(xml);
    expect(xml).toContain('<gexf xmlns="http://gexf.net/1.3"');
    expect(xml).toContain('lastmodifieddate="2026-01-02"');
    expect(xml).toContain('<edge id="0" source="10.1000/c" target="10.1000/a&lt;b&gt;" weight="2">');
    expect(xml).toContain('<viz:position x="3" y="4" z="0"/>');
    expect(xml).toMatch(/<attribute id="\d+" title="year" type="integer"\/>/);
  });
});
