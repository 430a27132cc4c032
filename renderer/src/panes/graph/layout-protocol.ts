// Messages between the graph pane and its layout worker. Positions travel as transferred typed arrays,
// so a 5,000-node update costs the UI thread a pointer swap, not a copy.

export interface LayoutStart {
  type: 'start';
  run: number;
  /** x0, y0, x1, y1… for every node, in index order. */
  positions: Float32Array;
  /** Each node's size (larger nodes repel more with adjustSizes off it only sets mass). */
  masses: Float32Array;
  /** source index, target index, … for every edge. */
  edges: Uint32Array;
  iterations: number;
  /** Stop after this much computing time even if iterations remain (a big graph on a slow machine). */
  budgetMs: number;
}

export interface LayoutStop {
  type: 'stop';
  run: number;
}

export type LayoutRequest = LayoutStart | LayoutStop;

export interface LayoutProgress {
  type: 'positions';
  run: number;
  positions: Float32Array;
  iteration: number;
  done: boolean;
  /** Milliseconds the worker spent computing so far. */
  elapsedMs: number;
}

export type LayoutMessage = LayoutProgress;
