// Fit (renderer/src/panes/graph/fit.ts): the free rectangle the overlays leave, and the camera that puts
// every paper inside it, checked through the same mapping sigma draws with.
import { describe, expect, it } from 'vitest';
import { fitCamera, freeRect, FIT_MIN_RATIO, FIT_PAD } from '../../../renderer/src/panes/graph/fit';
import type { Box } from '../../../renderer/src/panes/graph/labels';

const VIEW = { width: 1000, height: 700 };
const TOOLBAR: Box = { x0: 10, y0: 10, x1: 560, y1: 50 };
const LEGEND: Box = { x0: 10, y0: 480, x1: 280, y1: 690 };
const STATUS: Box = { x0: 760, y0: 665, x1: 990, y1: 690 };
const meets = (a: Box, b: Box) => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;

/** sigma's framed → viewport mapping with angle 0 (what framedGraphToViewport computes). */
const toViewport = (cam: { x: number; y: number; ratio: number }, ux: number, uy: number, x: number, y: number) => ({
  x: VIEW.width / 2 + (ux * (x - cam.x)) / cam.ratio,
  y: VIEW.height / 2 + (uy * (y - cam.y)) / cam.ratio,
});

describe('freeRect', () => {
  it('cuts off the side of each overlay that loses the least area', () => {
    const free = freeRect(VIEW, [TOOLBAR, LEGEND, STATUS]);
    for (const o of [TOOLBAR, LEGEND, STATUS]) expect(meets(free, o), JSON.stringify(o)).toBe(false);
    // The toolbar costs the top strip (not everything left of x 560), the legend the left strip (not everything below y 480).
    expect(free.y0).toBe(TOOLBAR.y1 + FIT_PAD);
    expect(free.x0).toBe(LEGEND.x1 + FIT_PAD);
    expect(free.x1).toBe(VIEW.width - FIT_PAD);
  });

  it('is the padded view without overlays, and when the overlays would leave less than a quarter', () => {
    expect(freeRect(VIEW, [])).toEqual({
      x0: FIT_PAD,
      y0: FIT_PAD,
      x1: VIEW.width - FIT_PAD,
      y1: VIEW.height - FIT_PAD,
    });
    const big: Box = { x0: 0, y0: 0, x1: 900, y1: 600 };
    expect(freeRect(VIEW, [big])).toEqual({
      x0: FIT_PAD,
      y0: FIT_PAD,
      x1: VIEW.width - FIT_PAD,
      y1: VIEW.height - FIT_PAD,
    });
  });
});

describe('fitCamera', () => {
  // A spread of papers over the whole framed square, as sigma's normalisation leaves them.
  const xy = new Float32Array([0, 0, 1, 1, 0, 1, 1, 0, 0.5, 0.5, 0.1, 0.9, 0.95, 0.05]);
  const ux = 640;
  const uy = -640;

  it('puts every paper (with its radius) inside the free rectangle and off every overlay', () => {
    const free = freeRect(VIEW, [TOOLBAR, LEGEND, STATUS]);
    const radius = 9;
    const cam = fitCamera({ xy, view: VIEW, free, ux, uy, radiusAt: () => radius });
    for (let i = 0; i < xy.length; i += 2) {
      const p = toViewport(cam, ux, uy, xy[i]!, xy[i + 1]!);
      expect(p.x - radius).toBeGreaterThanOrEqual(free.x0 - 1e-6);
      expect(p.x + radius).toBeLessThanOrEqual(free.x1 + 1e-6);
      expect(p.y - radius).toBeGreaterThanOrEqual(free.y0 - 1e-6);
      expect(p.y + radius).toBeLessThanOrEqual(free.y1 + 1e-6);
      for (const o of [TOOLBAR, LEGEND, STATUS])
        expect(meets({ x0: p.x - radius, y0: p.y - radius, x1: p.x + radius, y1: p.y + radius }, o)).toBe(false);
    }
    // The tighter axis is filled: the papers span the free height less twice the radius.
    const top = toViewport(cam, ux, uy, 0, 1).y;
    const bottom = toViewport(cam, ux, uy, 0, 0).y;
    expect(bottom - top).toBeCloseTo(free.y1 - free.y0 - 2 * radius, 6);
  });

  it('leaves room for a radius that grows as the view zooms in', () => {
    const free = freeRect(VIEW, [TOOLBAR]);
    const radiusAt = (ratio: number) => 6 / Math.sqrt(ratio);
    const cam = fitCamera({ xy, view: VIEW, free, ux, uy, radiusAt });
    const r = radiusAt(cam.ratio);
    for (let i = 0; i < xy.length; i += 2) {
      const p = toViewport(cam, ux, uy, xy[i]!, xy[i + 1]!);
      expect(p.y - r).toBeGreaterThanOrEqual(free.y0 - 1e-6);
      expect(p.y + r).toBeLessThanOrEqual(free.y1 + 1e-6);
    }
  });

  it('centres one paper in the free rectangle at the closest zoom it allows', () => {
    const free: Box = { x0: 300, y0: 100, x1: 900, y1: 500 };
    const cam = fitCamera({ xy: new Float32Array([0.3, 0.7]), view: VIEW, free, ux, uy, radiusAt: () => 5 });
    expect(cam.ratio).toBe(FIT_MIN_RATIO);
    const p = toViewport(cam, ux, uy, 0.3, 0.7);
    expect(p.x).toBeCloseTo(600, 3);
    expect(p.y).toBeCloseTo(300, 3);
  });

  it('answers sigma’s home camera for no papers', () => {
    expect(
      fitCamera({ xy: new Float32Array(0), view: VIEW, free: freeRect(VIEW, []), ux, uy, radiusAt: () => 5 }),
    ).toEqual({ x: 0.5, y: 0.5, ratio: 1, angle: 0 });
  });
});
