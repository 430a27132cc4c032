// The graph pane's pure parts: the colour and size scales the view, the legend and the picture share,
// and the SVG picture (escaped text, fitted positions).
import { describe, expect, it } from 'vitest';
import {
  JOURNAL_COLOURS,
  OTHER_COLOUR,
  UNKNOWN_YEAR_COLOUR,
  YEAR_SCALE,
  journalColour,
  nodeSize,
  yearColour,
  yearSteps,
} from '../../../renderer/src/panes/graph/encoding';
import { escapeXml, legendHeight, toSvg } from '../../../renderer/src/panes/graph/svg-export';

describe('graph encodings', () => {
  it('colours years along the scale, ends included, and unknown years grey', () => {
    const range = { min: 1990, max: 2020 };
    expect(yearColour(1990, range)).toBe(YEAR_SCALE[0]);
    expect(yearColour(2020, range)).toBe(YEAR_SCALE.at(-1));
    expect(yearColour(null, range)).toBe(UNKNOWN_YEAR_COLOUR);
    expect(yearColour(2000, { min: 2000, max: 2000 })).toBe(YEAR_SCALE[0]);
    expect(yearSteps(range).map((s) => s.year)).toEqual([1990, 1995, 2000, 2005, 2010, 2015, 2020]);
    expect(yearSteps({ min: 2001, max: 2002 })).toHaveLength(2);
  });

  it('gives the top journals their own colours and the rest one grey', () => {
    expect(journalColour('B', ['A', 'B'])).toBe(JOURNAL_COLOURS[1]);
    expect(journalColour('C', ['A', 'B'])).toBe(OTHER_COLOUR);
    expect(journalColour(null, ['A'])).toBe(OTHER_COLOUR);
  });

  it('sizes by the square root of the count, from 3 to 18 pixels', () => {
    expect(nodeSize(null, 100)).toBe(3);
    expect(nodeSize(0, 100)).toBe(3);
    expect(nodeSize(100, 100)).toBe(18);
    expect(nodeSize(25, 100)).toBe(10.5);
  });
});

describe('the SVG picture', () => {
  it('escapes every text and fits the positions into the picture, y upwards', () => {
    const svg = toSvg(
      [
        { id: 'a', x: 0, y: 0, size: 4, colour: '#000', label: 'A <script>alert(1)</script> & "B"', ring: null },
        { id: 'b', x: 10, y: 10, size: 4, colour: '#111', label: null, ring: '#f00' },
      ],
      [{ x1: 0, y1: 0, x2: 10, y2: 10, colour: '#999', width: 1 }],
      { width: 200, height: 100, background: '#fff', labelColour: '#000', title: 'T<itle>' },
    );
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('A &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;B&quot;');
    expect(svg).toContain('<title>T&lt;itle&gt;</title>');
    // (0,0) is bottom-left inside the padding, (10,10) top-right: a square fitted into the height.
    expect(svg).toContain('<circle cx="90.0" cy="60.0"');
    expect(svg).toContain('<circle cx="110.0" cy="40.0"');
    expect(svg).toContain('stroke="#f00"');
    expect(escapeXml('a\u0001b')).toBe('ab');
  });
});

describe('the SVG picture with its legend', () => {
  const nodes = [{ id: 'a', x: 0, y: 0, size: 4, colour: '#000', label: null, ring: null }];
  const base = { width: 1000, height: 600, background: '#fff', labelColour: '#000', title: 'T' };
  const legend = {
    items: [
      { colour: '#0a0', text: 'Supporting', line: true },
      { colour: '#c00', text: 'Retracted <b>', line: false },
    ],
    notes: ['Labels: papers in your library'],
  };

  it('adds a band below the graph with the swatches and notes, escaped', () => {
    const band = legendHeight(legend, 1000);
    expect(band).toBeGreaterThan(40);
    const svg = toSvg(nodes, [], { ...base, legend });
    expect(svg).toContain(`height="${600 + band}" viewBox="0 0 1000 ${600 + band}"`);
    expect(svg).toContain('>Supporting</text>');
    expect(svg).toContain('Retracted &lt;b&gt;');
    expect(svg).toContain('Labels: papers in your library');
  });

  it('wraps the swatches into rows by the width, and adds nothing without a legend', () => {
    const many = {
      items: Array.from({ length: 9 }, (_, i) => ({ colour: '#000', text: `item ${i}`, line: false })),
      notes: [],
    };
    // 960 px hold four columns of 220 px: 9 items take 3 rows; 1,200 px hold five: 2 rows.
    expect(legendHeight(many, 1000)).toBe(24 + 3 * 20);
    expect(legendHeight(many, 1200)).toBe(24 + 2 * 20);
    expect(legendHeight(null, 1000)).toBe(0);
    expect(toSvg(nodes, [], base)).toContain('height="600" viewBox="0 0 1000 600"');
  });
});
