// "Fit": the camera that shows every paper inside the part of the view nothing lies over (the
// toolbar at the top left, the legend at the bottom left, the status at the bottom right). sigma's
// own fit (ratio 1, centred) frames the graph in the whole canvas, so papers ended up under the
// toolbar and the legend. Plain functions, so they can be tested in Node.
import type { Box } from './labels';

/** Pixels kept clear along the free area's edges, besides the papers' radius. */
export const FIT_PAD = 12;
/** Fit never zooms in further than this (one paper, or papers on one spot, stay at a readable zoom). */
export const FIT_MIN_RATIO = 0.25;
export const FIT_MAX_RATIO = 20;

const area = (b: Box): number => Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
const meets = (a: Box, b: Box): boolean => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;

/**
 * The largest rectangle (found greedily) of the view that no overlay touches: each overlay in its way
 * cuts off the side that loses the least area. The view itself when the overlays would leave less than
 * a quarter of it (a very small window): papers under an overlay beat papers drawn in a sliver.
 */
export function freeRect(view: { width: number; height: number }, overlays: readonly Box[], pad = FIT_PAD): Box {
  const whole: Box = { x0: pad, y0: pad, x1: view.width - pad, y1: view.height - pad };
  let rect = { ...whole };
  for (let round = 0; round < overlays.length * 2; round++) {
    const o = overlays.find((b) => area(b) > 0 && meets(b, rect));
    if (!o) break;
    const cuts: Box[] = [
      { ...rect, y0: o.y1 + pad },
      { ...rect, y1: o.y0 - pad },
      { ...rect, x0: o.x1 + pad },
      { ...rect, x1: o.x0 - pad },
    ].filter((c) => c.x1 > c.x0 && c.y1 > c.y0);
    if (cuts.length === 0) return whole;
    rect = cuts.reduce((best, c) => (area(c) > area(best) ? c : best));
  }
  return area(rect) >= area(whole) / 4 ? rect : whole;
}

export interface FitInput {
  /** x, y per paper, framed graph coordinates. */
  xy: ArrayLike<number>;
  view: { width: number; height: number };
  /** Where the papers must land, viewport pixels. */
  free: Box;
  /**
   * Viewport pixels per framed unit at ratio 1, per axis, signed (sigma's y axis points up, so uy < 0):
   * at camera (cx, cy, ratio) a point p is drawn at (width / 2 + ux (p.x − cx) / ratio, height / 2 + uy (p.y − cy) / ratio).
   */
  ux: number;
  uy: number;
  /** The largest paper's radius in pixels at a camera ratio. */
  radiusAt: (ratio: number) => number;
}

/** The camera state that puts every paper (with its radius) inside `free`, centred in it. */
export function fitCamera({ xy, view, free, ux, uy, radiusAt }: FitInput): {
  x: number;
  y: number;
  ratio: number;
  angle: 0;
} {
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let i = 0; i + 1 < xy.length; i += 2) {
    const x = xy[i]!;
    const y = xy[i + 1]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (!Number.isFinite(x0)) return { x: 0.5, y: 0.5, ratio: 1, angle: 0 };
  const w = free.x1 - free.x0;
  const h = free.y1 - free.y0;
  // The radius depends on the zoom, the zoom on the room the radius leaves: a few rounds settle it.
  // (Zooming out shrinks the radius; the larger of the last two rounds leaves room for both.)
  const ratioFor = (r: number): number =>
    Math.min(
      FIT_MAX_RATIO,
      Math.max(
        FIT_MIN_RATIO,
        (Math.abs(ux) * (x1 - x0)) / Math.max(1, w - 2 * r),
        (Math.abs(uy) * (y1 - y0)) / Math.max(1, h - 2 * r),
      ),
    );
  let ratio = ratioFor(radiusAt(1));
  for (let round = 0; round < 3; round++) {
    const next = ratioFor(radiusAt(ratio));
    ratio = round === 2 ? Math.max(ratio, next) : next;
  }
  const fx = (free.x0 + free.x1) / 2;
  const fy = (free.y0 + free.y1) / 2;
  return {
    x: (x0 + x1) / 2 - ((fx - view.width / 2) * ratio) / ux,
    y: (y0 + y1) / 2 - ((fy - view.height / 2) * ratio) / uy,
    ratio,
    angle: 0,
  };
}
