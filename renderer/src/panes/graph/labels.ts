// Which papers get a label, and where: the ones that must (selected, matching the search) and then
// the biggest in view, never two overlapping, at most MAX_LABELS. Labels are drawn on a 2D canvas over
// the WebGL view: a few dozen fillText calls, where sigma 4's WebGL labels draw every character as an
// instance (about 35 µs each with software WebGL) and build a glyph atlas as text changes.
import type { Scene } from './scene';

export const MAX_LABELS = 30;
/** Papers drawn smaller than this radius (pixels) are labelled only when they must be. */
export const LABEL_MIN_RADIUS = 7;
export const LABEL_FONT_PX = 12;

export interface PlacedLabel {
  id: string;
  text: string;
  /** Where the text starts (left, baseline), viewport pixels. */
  x: number;
  y: number;
  forced: boolean;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * `toViewport` converts framed graph coordinates to viewport pixels; `radius` a paper's size to its
 * radius in pixels; `text` gives a paper's label. Papers dimmed (alpha < 1) are labelled only when forced.
 */
export function chooseLabels(
  scene: Scene,
  view: { width: number; height: number },
  toViewport: (x: number, y: number) => { x: number; y: number },
  radius: (size: number) => number,
  text: (id: string) => string,
  forced: ReadonlySet<string>,
): PlacedLabel[] {
  const charWidth = LABEL_FONT_PX * 0.55;
  const placed: Box[] = [];
  const out: PlacedLabel[] = [];
  const overlaps = (b: Box): boolean => placed.some((p) => b.x0 < p.x1 && b.x1 > p.x0 && b.y0 < p.y1 && b.y1 > p.y0);
  const candidates: { j: number; r: number; x: number; y: number; must: boolean }[] = [];
  for (let j = 0; j < scene.nodeIds.length; j++) {
    const must = forced.has(scene.nodeIds[j]!);
    const r = radius(scene.nodeSize[j]!);
    if (!must && (r < LABEL_MIN_RADIUS || scene.nodeColour[j * 4 + 3]! < 255)) continue;
    const p = toViewport(scene.nodeXY[j * 2]!, scene.nodeXY[j * 2 + 1]!);
    if (p.x < -200 || p.y < -20 || p.x > view.width + 20 || p.y > view.height + 20) continue;
    candidates.push({ j, r, x: p.x, y: p.y, must });
  }
  candidates.sort((a, b) => Number(b.must) - Number(a.must) || b.r - a.r);
  for (const c of candidates) {
    if (!c.must && out.length >= MAX_LABELS) break;
    const id = scene.nodeIds[c.j]!;
    const label = text(id);
    if (!label) continue;
    const x = c.x + c.r + 3;
    const y = c.y + LABEL_FONT_PX / 3;
    const box = { x0: x - 2, y0: y - LABEL_FONT_PX, x1: x + label.length * charWidth + 2, y1: y + 4 };
    if (!c.must && overlaps(box)) continue;
    placed.push(box);
    out.push({ id, text: label, x, y, forced: c.must });
  }
  return out;
}
