// Which papers get a label, and where: the ones that must (selected, matching the search) and then
// the biggest in view, never two overlapping, at most MAX_LABELS. A label sits right of its paper, or
// left of it where it would leave the view on the right; it never leaves the view, nor runs under
// what lies over the graph (the toolbar, the legend, the status): a label that cannot avoid them is
// not drawn, and one wider than the view is shortened. Labels are drawn on a 2D canvas over
// the WebGL view: a few dozen fillText calls, where sigma 4's WebGL labels draw every character as an
// instance (about 35 µs each with software WebGL) and build a glyph atlas as text changes.
import type { Scene } from './scene';

export const MAX_LABELS = 30;
/** Papers drawn smaller than this radius (pixels) are labelled only when they must be. */
export const LABEL_MIN_RADIUS = 7;
export const LABEL_FONT_PX = 12;
/** What the view labels, in words (for the legend): the rule chooseLabels follows. */
export const LABEL_RULE = `Labels: selected papers and search matches, then up to ${MAX_LABELS} of the largest papers in view, where they fit`;

export interface PlacedLabel {
  id: string;
  text: string;
  /** Where the text starts (left, baseline), viewport pixels. */
  x: number;
  y: number;
  forced: boolean;
  /** The box the label takes, viewport pixels. */
  box: Box;
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * `toViewport` converts framed graph coordinates to viewport pixels; `radius` a paper's size to its
 * radius in pixels; `text` gives a paper's label; `keepOut` the boxes (viewport pixels) over the
 * graph that no label may touch. Papers dimmed (alpha < 1) are labelled only when forced.
 */
export function chooseLabels(
  scene: Scene,
  view: { width: number; height: number },
  toViewport: (x: number, y: number) => { x: number; y: number },
  radius: (size: number) => number,
  text: (id: string) => string,
  forced: ReadonlySet<string>,
  keepOut: readonly Box[] = [],
): PlacedLabel[] {
  const charWidth = LABEL_FONT_PX * 0.55;
  const placed: Box[] = [];
  const out: PlacedLabel[] = [];
  const meets = (b: Box, p: Box): boolean => b.x0 < p.x1 && b.x1 > p.x0 && b.y0 < p.y1 && b.y1 > p.y0;
  const overlaps = (b: Box): boolean => placed.some((p) => meets(b, p));
  const inView = (b: Box): boolean =>
    b.x0 >= 0 && b.y0 >= 0 && b.x1 <= view.width && b.y1 <= view.height && !keepOut.some((k) => meets(b, k));
  // At most this many characters fit across the view.
  const fits = Math.max(1, Math.floor((view.width - 4) / charWidth));
  const candidates: { j: number; r: number; x: number; y: number; must: boolean }[] = [];
  for (let j = 0; j < scene.nodeIds.length; j++) {
    const must = forced.has(scene.nodeIds[j]!);
    const r = radius(scene.nodeSize[j]!);
    if (!must && (r < LABEL_MIN_RADIUS || scene.nodeColour[j * 4 + 3]! < 255)) continue;
    const p = toViewport(scene.nodeXY[j * 2]!, scene.nodeXY[j * 2 + 1]!);
    // Only papers at least partly in view.
    if (p.x + r < 0 || p.y + r < 0 || p.x - r > view.width || p.y - r > view.height) continue;
    candidates.push({ j, r, x: p.x, y: p.y, must });
  }
  candidates.sort((a, b) => Number(b.must) - Number(a.must) || b.r - a.r);
  for (const c of candidates) {
    if (!c.must && out.length >= MAX_LABELS) break;
    const id = scene.nodeIds[c.j]!;
    const full = text(id);
    if (!full) continue;
    const label = full.length > fits ? `${full.slice(0, fits - 1)}…` : full;
    const width = label.length * charWidth;
    const y = c.y + LABEL_FONT_PX / 3;
    const at = (x: number): Box => ({ x0: x - 2, y0: y - LABEL_FONT_PX, x1: x + width + 2, y1: y + 4 });
    // Right of the paper, else left of it, else (one that must be labelled) moved back inside the view.
    const right = c.x + c.r + 3;
    const spots = [right, c.x - c.r - 3 - width];
    if (c.must) spots.push(Math.max(2, Math.min(right, view.width - width - 2)));
    const x = spots.find((sx) => inView(at(sx)) && (c.must || !overlaps(at(sx))));
    if (x === undefined) continue;
    const box = at(x);
    placed.push(box);
    out.push({ id, text: label, x, y, forced: c.must, box });
  }
  return out;
}
