// What the bulk layer draws, as flat typed arrays: every visible paper (position in sigma's framed
// graph coordinates, size, colour) and every visible edge (its two ends, width, colour), ordered so
// that dimmed items come first and highlighted ones last. Built from the same reducers sigma uses, so
// the two agree, and kept here as plain functions (no WebGL) so they can be tested in Node. Also the
// hit tests that replace WebGL picking for the bulk: a paper or an edge under the mouse.
import type { EdgeDisplayData, NodeDisplayData } from 'sigma/types';
import { createNormalizationFunction } from 'sigma/utils';

export interface Extent {
  x: [number, number];
  y: [number, number];
}

export interface Scene {
  nodeIds: string[];
  /** x, y per paper, framed graph coordinates (sigma's normalised space). */
  nodeXY: Float32Array;
  /** sigma size units (pixels at zoom 1 with itemSizesReference "screen"). */
  nodeSize: Float32Array;
  /** RGBA per paper, opacity applied, not premultiplied. */
  nodeColour: Uint8Array;
  edgeIds: string[];
  /** x0, y0, x1, y1 per edge, framed graph coordinates. */
  edgeXY: Float32Array;
  edgeWidth: Float32Array;
  edgeColour: Uint8Array;
  /** The display extent of every paper (graph coordinates), which sigma is told to frame. */
  extent: Extent;
}

/** The graph (graphology's iteration methods), its papers placed at x, y. */
export interface SceneSource<N, E> {
  forEachNode(fn: (key: string, attributes: N) => void): void;
  forEachEdge(fn: (key: string, attributes: E, source: string, target: string) => void): void;
}

const GREY: [number, number, number] = [136, 136, 136];

/** "#rgb" or "#rrggbb" to bytes; anything else is grey. */
export function parseColour(colour: string | undefined): [number, number, number] {
  if (!colour || colour[0] !== '#') return GREY;
  const hex = colour.length === 4 ? colour.slice(1).replace(/./g, (c) => c + c) : colour.slice(1, 7);
  const n = Number.parseInt(hex, 16);
  return hex.length === 6 && Number.isFinite(n) ? [(n >> 16) & 255, (n >> 8) & 255, n & 255] : GREY;
}

/**
 * sigma's own normalisation (the extent's longer side becomes 1, centred on 0.5), writing into a typed
 * array: the scene must frame papers exactly as sigma's camera does with the same extent.
 */
export function normaliser(extent: Extent): (x: number, y: number, out: Float32Array, at: number) => void {
  const normalise = createNormalizationFunction(extent);
  return (x, y, out, at) => {
    const p = normalise({ x, y });
    out[at] = p.x;
    out[at + 1] = p.y;
  };
}

const colourCache = new Map<string | undefined, [number, number, number]>();
function rgb(colour: string | undefined): [number, number, number] {
  let c = colourCache.get(colour);
  if (!c) {
    c = parseColour(colour);
    if (colourCache.size < 1024) colourCache.set(colour, c);
  }
  return c;
}

/**
 * The scene of a graph under the current reducers. Hidden items are left out; the order within each
 * kind follows zIndex (stable), so highlighted papers and edges are drawn over the rest.
 */
export function buildScene<N extends { x: number; y: number }, E>(
  graph: SceneSource<N, E>,
  nodeStyle: (key: string, attributes: N) => Partial<NodeDisplayData>,
  edgeStyle: (key: string, attributes: E) => Partial<EdgeDisplayData>,
): Scene {
  const ids: string[] = [];
  const styles: Partial<NodeDisplayData>[] = [];
  const raw: number[] = [];
  const extent: Extent = { x: [Infinity, -Infinity], y: [Infinity, -Infinity] };
  graph.forEachNode((key, a) => {
    const s = nodeStyle(key, a);
    const x = s.x ?? a.x;
    const y = s.y ?? a.y;
    if (x < extent.x[0]) extent.x[0] = x;
    if (x > extent.x[1]) extent.x[1] = x;
    if (y < extent.y[0]) extent.y[0] = y;
    if (y > extent.y[1]) extent.y[1] = y;
    if (s.visibility === 'hidden') return;
    ids.push(key);
    styles.push(s);
    raw.push(x, y);
  });
  if (ids.length === 0) extent.x = extent.y = [0, 1];
  const place = normaliser(extent);
  const order = zOrder(styles.map((s) => s.zIndex ?? 0));
  const n = ids.length;
  const nodeIds = new Array<string>(n);
  const nodeXY = new Float32Array(n * 2);
  const nodeSize = new Float32Array(n);
  const nodeColour = new Uint8Array(n * 4);
  const where = new Map<string, number>();
  for (let j = 0; j < n; j++) {
    const i = order[j]!;
    const s = styles[i]!;
    nodeIds[j] = ids[i]!;
    place(raw[i * 2]!, raw[i * 2 + 1]!, nodeXY, j * 2);
    nodeSize[j] = s.size ?? 3;
    const [r, g, b] = rgb(s.color);
    nodeColour.set([r, g, b, Math.round(255 * Math.min(1, Math.max(0, s.opacity ?? 1)))], j * 4);
    where.set(ids[i]!, j);
  }

  const eIds: string[] = [];
  const eStyles: Partial<EdgeDisplayData>[] = [];
  const ends: number[] = [];
  graph.forEachEdge((key, a, source, target) => {
    const from = where.get(source);
    const to = where.get(target);
    if (from === undefined || to === undefined) return;
    const s = edgeStyle(key, a);
    if (s.visibility === 'hidden') return;
    eIds.push(key);
    eStyles.push(s);
    ends.push(from, to);
  });
  const eOrder = zOrder(eStyles.map((s) => s.zIndex ?? 0));
  const m = eIds.length;
  const edgeIds = new Array<string>(m);
  const edgeXY = new Float32Array(m * 4);
  const edgeWidth = new Float32Array(m);
  const edgeColour = new Uint8Array(m * 4);
  for (let j = 0; j < m; j++) {
    const i = eOrder[j]!;
    const s = eStyles[i]!;
    const from = ends[i * 2]!;
    const to = ends[i * 2 + 1]!;
    edgeIds[j] = eIds[i]!;
    edgeXY[j * 4] = nodeXY[from * 2]!;
    edgeXY[j * 4 + 1] = nodeXY[from * 2 + 1]!;
    edgeXY[j * 4 + 2] = nodeXY[to * 2]!;
    edgeXY[j * 4 + 3] = nodeXY[to * 2 + 1]!;
    edgeWidth[j] = s.size ?? 1;
    const [r, g, b] = rgb(s.color);
    edgeColour.set([r, g, b, Math.round(255 * Math.min(1, Math.max(0, s.opacity ?? 1)))], j * 4);
  }
  return { nodeIds, nodeXY, nodeSize, nodeColour, edgeIds, edgeXY, edgeWidth, edgeColour, extent };
}

/** Indices sorted by z, stable (a counting sort would do, but there are only a few levels). */
function zOrder(z: number[]): number[] {
  const idx = z.map((_, i) => i);
  if (z.every((v) => v === z[0])) return idx;
  return idx.sort((a, b) => z[a]! - z[b]! || a - b);
}

/**
 * The paper under a point (framed graph coordinates), the topmost when several overlap: `toFramed`
 * converts a size to framed units at the current zoom, `pad` is extra reach in framed units.
 */
export function nodeAt(
  scene: Scene,
  x: number,
  y: number,
  toFramed: (size: number) => number,
  pad: number,
): string | null {
  for (let j = scene.nodeIds.length - 1; j >= 0; j--) {
    const dx = scene.nodeXY[j * 2]! - x;
    const dy = scene.nodeXY[j * 2 + 1]! - y;
    const r = toFramed(scene.nodeSize[j]!) + pad;
    if (dx * dx + dy * dy <= r * r) return scene.nodeIds[j]!;
  }
  return null;
}

/** The edge nearest a point within `reach` (framed units), the topmost among equals. */
export function edgeAt(scene: Scene, x: number, y: number, reach: number): string | null {
  const xy = scene.edgeXY;
  let best = -1;
  let bestD = reach * reach;
  for (let j = scene.edgeIds.length - 1; j >= 0; j--) {
    const x0 = xy[j * 4]!;
    const y0 = xy[j * 4 + 1]!;
    const x1 = xy[j * 4 + 2]!;
    const y1 = xy[j * 4 + 3]!;
    // Cheap rejection by the segment's box before the exact distance.
    if (
      x < Math.min(x0, x1) - reach ||
      x > Math.max(x0, x1) + reach ||
      y < Math.min(y0, y1) - reach ||
      y > Math.max(y0, y1) + reach
    )
      continue;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.min(1, Math.max(0, ((x - x0) * dx + (y - y0) * dy) / len2)) : 0;
    const ex = x0 + t * dx - x;
    const ey = y0 + t * dy - y;
    const d = ex * ex + ey * ey;
    if (d < bestD) {
      bestD = d;
      best = j;
    }
  }
  return best >= 0 ? scene.edgeIds[best]! : null;
}
