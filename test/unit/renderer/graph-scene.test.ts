// The graph view's scene (what the bulk layer draws, from the reducers), its hit tests (which replace
// WebGL picking) and the choice of labels.
import Graph from 'graphology';
import { describe, expect, it } from 'vitest';
import { buildScene, edgeAt, nodeAt, normaliser, parseColour } from '../../../renderer/src/panes/graph/scene';
import { chooseLabels, MAX_LABELS } from '../../../renderer/src/panes/graph/labels';

interface At {
  x: number;
  y: number;
  size: number;
}

function sample(): Graph<At> {
  const g = new Graph<At>({ type: 'directed' });
  g.addNode('a', { x: 0, y: 0, size: 5 });
  g.addNode('b', { x: 10, y: 0, size: 5 });
  g.addNode('c', { x: 10, y: 10, size: 5 });
  g.addNode('hidden', { x: 100, y: 100, size: 5 });
  g.addEdge('a', 'b', { size: 2 });
  g.addEdge('b', 'c', { size: 1 });
  g.addEdge('c', 'hidden', { size: 1 });
  return g;
}

const byAttributes = (hide: Set<string> = new Set(['hidden']), top = 'a') => ({
  node: (key: string, a: At) => ({
    ...a,
    color: key === 'a' ? '#ff0000' : '#00f',
    zIndex: key === top ? 3 : 0,
    visibility: hide.has(key) ? ('hidden' as const) : ('visible' as const),
  }),
  edge: (_key: string, a: unknown) => ({ ...(a as object), color: '#123456', opacity: 0.5 }),
});

describe('the bulk scene', () => {
  it('leaves hidden papers and their edges out, and draws the highlighted paper last', () => {
    const r = byAttributes();
    const s = buildScene(sample(), r.node, r.edge);
    expect(s.nodeIds).toEqual(['b', 'c', 'a']);
    expect(s.edgeIds).toHaveLength(2);
    expect([...s.nodeColour.slice(8, 12)]).toEqual([255, 0, 0, 255]);
    expect([...s.edgeColour.slice(0, 4)]).toEqual([0x12, 0x34, 0x56, 128]);
    expect(s.edgeWidth[0]).toBe(2);
  });

  it('frames every paper, hidden ones included, the way sigma normalises (longer side 1, centred on 0.5)', () => {
    const r = byAttributes();
    const s = buildScene(sample(), r.node, r.edge);
    expect(s.extent).toEqual({ x: [0, 100], y: [0, 100] });
    const a = s.nodeIds.indexOf('a');
    expect([s.nodeXY[a * 2], s.nodeXY[a * 2 + 1]]).toEqual([0, 0]);
    const out = new Float32Array(2);
    normaliser({ x: [0, 10], y: [0, 4] })(10, 2, out, 0);
    expect([...out]).toEqual([1, 0.5]);
    // An edge's ends are its papers' positions (a → b first, in the graph's order).
    expect([...s.edgeXY.slice(0, 4)].map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 0, 0.1, 0]);
  });

  it('parses the colours the encodings use, and falls back to grey', () => {
    expect(parseColour('#0a0b0c')).toEqual([10, 11, 12]);
    expect(parseColour('#fff')).toEqual([255, 255, 255]);
    expect(parseColour('rgba(1,2,3,1)')).toEqual([136, 136, 136]);
    expect(parseColour(undefined)).toEqual([136, 136, 136]);
  });
});

describe('hit tests', () => {
  const r = byAttributes(new Set(['hidden']));
  const s = buildScene(sample(), r.node, r.edge);
  // Framed units: a (0,0), b (0.1,0), c (0.1,0.1). Radius: size 5 → 0.01.
  const radius = (size: number) => size * 0.002;

  it('finds the paper under a point, the topmost first, and nothing between papers', () => {
    expect(nodeAt(s, 0.005, 0, radius, 0)).toBe('a');
    expect(nodeAt(s, 0.1, 0.1, radius, 0)).toBe('c');
    expect(nodeAt(s, 0.05, 0.05, radius, 0)).toBeNull();
    expect(nodeAt(s, 0.015, 0, radius, 0)).toBeNull();
    expect(nodeAt(s, 0.015, 0, radius, 0.01)).toBe('a');
  });

  it('finds the edge nearest a point within reach', () => {
    expect(edgeAt(s, 0.05, 0.001, 0.004)).toBe(s.edgeIds[0]);
    expect(edgeAt(s, 0.101, 0.05, 0.004)).toBe(s.edgeIds[1]);
    expect(edgeAt(s, 0.05, 0.05, 0.004)).toBeNull();
    // Beyond the end of a segment is not on it.
    expect(edgeAt(s, -0.02, 0, 0.004)).toBeNull();
  });
});

describe('labels', () => {
  const g = new Graph<At>();
  for (let i = 0; i < 100; i++) g.addNode(`n${i}`, { x: (i % 10) * 10, y: Math.floor(i / 10) * 10, size: 100 - i });
  g.addNode('small', { x: 45, y: 45, size: 1 });
  const s = buildScene(
    g,
    (_k, a) => a,
    () => ({}),
  );
  const view = { width: 1000, height: 1000 };
  // The framed extent inside the view, with room around it for labels.
  const toViewport = (x: number, y: number) => ({ x: 40 + x * 600, y: 40 + y * 900 });
  const radius = (size: number) => size / 4;
  const text = (id: string) => `Paper ${id} with a title`;

  it('labels the biggest papers first, never overlapping, at most MAX_LABELS', () => {
    const labels = chooseLabels(s, view, toViewport, radius, text, new Set());
    expect(labels.length).toBeGreaterThan(5);
    expect(labels.length).toBeLessThanOrEqual(MAX_LABELS);
    expect(labels[0]!.id).toBe('n0');
    for (const a of labels)
      for (const b of labels) {
        if (a === b) continue;
        const apart =
          a.x + a.text.length * 6.6 + 2 <= b.x - 2 ||
          b.x + b.text.length * 6.6 + 2 <= a.x - 2 ||
          Math.abs(a.y - b.y) >= 16;
        expect(apart).toBe(true);
      }
    expect(labels.some((l) => l.id === 'small')).toBe(false);
  });

  it('always labels the papers that must be, even small or overlapping', () => {
    const labels = chooseLabels(s, view, toViewport, radius, text, new Set(['small', 'n1']));
    expect(
      labels
        .slice(0, 2)
        .map((l) => l.id)
        .sort(),
    ).toEqual(['n1', 'small']);
    expect(labels.filter((l) => l.forced)).toHaveLength(2);
  });

  it('leaves out papers outside the view', () => {
    const far = (x: number, y: number) => ({ x: x * 1000 + 5000, y: y * 1000 });
    expect(chooseLabels(s, view, far, radius, text, new Set())).toEqual([]);
  });
});

describe('labels and the edges of the view', () => {
  // Three big papers: one near the right edge, one near the top-left corner (under a toolbar), one near the bottom.
  const g = new Graph<At>();
  g.addNode('right', { x: 100, y: 50, size: 90 });
  g.addNode('corner', { x: 0, y: 100, size: 80 });
  g.addNode('bottom', { x: 50, y: 0, size: 70 });
  g.addNode('middle', { x: 50, y: 30, size: 60 });
  const s = buildScene(
    g,
    (_k, a) => a,
    () => ({}),
  );
  const view = { width: 1000, height: 600 };
  const radius = (size: number) => size / 5;
  // The framed extent fills the view, less 10 pixels on each side.
  const toViewport = (x: number, y: number) => ({ x: 10 + x * 980, y: 10 + (1 - y) * 580 });
  const text = (id: string) => `A rather long title of the paper ${id}`;
  const toolbar = { x0: 0, y0: 0, x1: 400, y1: 50 };
  const inside = (b: { x0: number; y0: number; x1: number; y1: number }) =>
    b.x0 >= 0 && b.y0 >= 0 && b.x1 <= view.width && b.y1 <= view.height;
  const meets = (a: { x0: number; y0: number; x1: number; y1: number }, b: typeof toolbar) =>
    a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;
  const pos = (id: string) => {
    const j = s.nodeIds.indexOf(id);
    return toViewport(s.nodeXY[j * 2]!, s.nodeXY[j * 2 + 1]!);
  };

  it('keeps every label inside the view: a paper near the right edge has its label on its left', () => {
    const labels = chooseLabels(s, view, toViewport, radius, text, new Set());
    for (const l of labels) expect(inside(l.box), l.id).toBe(true);
    const right = labels.find((l) => l.id === 'right')!;
    expect(right).toBeTruthy();
    expect(right.box.x1).toBeLessThan(pos('right').x);
    // A paper with room on its right keeps its label there.
    const middle = labels.find((l) => l.id === 'middle')!;
    expect(middle.x).toBeGreaterThan(pos('middle').x);
  });

  it('draws no label under what lies over the graph, forced or not', () => {
    const free = chooseLabels(s, view, toViewport, radius, text, new Set());
    // Without the toolbar, the corner paper is labelled where the toolbar would be.
    expect(free.some((l) => l.id === 'corner' && meets(l.box, toolbar))).toBe(true);
    for (const forced of [new Set<string>(), new Set(['corner'])]) {
      const labels = chooseLabels(s, view, toViewport, radius, text, forced, [toolbar]);
      for (const l of labels) expect(meets(l.box, toolbar), l.id).toBe(false);
      expect(labels.map((l) => l.id)).toContain('middle');
    }
  });

  it('shortens a label wider than the view to fit it', () => {
    const narrow = { width: 120, height: 600 };
    const fit = (x: number, y: number) => ({ x: 10 + x * 100, y: 10 + (1 - y) * 580 });
    const labels = chooseLabels(s, narrow, fit, radius, text, new Set(['middle']));
    const middle = labels.find((l) => l.id === 'middle')!;
    expect(middle.text.endsWith('…')).toBe(true);
    expect(inside({ ...middle.box, x1: middle.box.x1 - narrow.width + view.width })).toBe(true);
    expect(middle.box.x1).toBeLessThanOrEqual(narrow.width);
  });
});

describe('labels of papers at the edge of the view', () => {
  const g = new Graph<At>();
  g.addNode('out', { x: 0, y: 50, size: 80 });
  g.addNode('in', { x: 100, y: 0, size: 80 });
  const s = buildScene(
    g,
    (_k, a) => a,
    () => ({}),
  );
  const radius = (size: number) => size / 5;
  const text = (id: string) => `Paper ${id}`;
  const view = { width: 500, height: 500 };

  it('labels no paper lying wholly outside the view, and one partly in it', () => {
    // 'out' lies 17 pixels left of the view with a radius of 16: outside. Then 15 pixels: partly in.
    for (const [offset, shown] of [
      [-17, false],
      [-15, true],
    ] as const) {
      const toViewport = (x: number, y: number) => ({ x: offset + x * 300, y: 100 + y * 300 });
      const ids = chooseLabels(s, view, toViewport, radius, text, new Set()).map((l) => l.id);
      expect(ids.includes('out'), `offset ${offset}`).toBe(shown);
      expect(ids).toContain('in');
    }
  });
});
