// ForceAtlas2 in a Web Worker (a module worker from the app's own origin: the CSP allows no blob:
// workers, so the package's own /worker helper is not used). It runs iterations in slices, posts the
// positions after each slice, and stops when told or after the iterations asked for.
import iterate from 'graphology-layout-forceatlas2/iterate.js';
import type { LayoutMessage, LayoutRequest, LayoutStart } from './layout-protocol';

const PPN = 10;
const PPE = 3;
/** Time per slice before positions are posted and messages (stop, a new start) are read. */
const SLICE_MS = 40;

let current = 0;

function settingsFor(order: number) {
  // inferSettings' choices, with Barnes-Hut from a few hundred nodes: O(n log n) per iteration.
  return {
    linLogMode: false,
    outboundAttractionDistribution: false,
    adjustSizes: false,
    edgeWeightInfluence: 1,
    scalingRatio: order > 100 ? 2 : 10,
    strongGravityMode: true,
    gravity: 0.05,
    slowDown: 1 + Math.log(Math.max(1, order)),
    barnesHutOptimize: order > 300,
    // A coarser approximation for big graphs: twice as fast per iteration, and the picture barely differs.
    barnesHutTheta: order > 2000 ? 1.2 : 0.6,
  };
}

function run(msg: LayoutStart): void {
  const n = msg.positions.length / 2;
  const nodes = new Float32Array(n * PPN);
  for (let i = 0; i < n; i++) {
    const j = i * PPN;
    nodes[j] = msg.positions[i * 2]!;
    nodes[j + 1] = msg.positions[i * 2 + 1]!;
    nodes[j + 6] = 1; // mass: 1 + degree, below
    nodes[j + 7] = 1; // convergence
    nodes[j + 8] = msg.masses[i] ?? 1; // size
  }
  const m = msg.edges.length / 2;
  const edges = new Float32Array(m * PPE);
  for (let e = 0; e < m; e++) {
    const s = msg.edges[e * 2]! * PPN;
    const t = msg.edges[e * 2 + 1]! * PPN;
    edges[e * PPE] = s;
    edges[e * PPE + 1] = t;
    edges[e * PPE + 2] = 1;
    nodes[s + 6]! += 1;
    nodes[t + 6]! += 1;
  }
  const settings = settingsFor(n);
  const started = performance.now();
  let done = 0;
  const slice = (): void => {
    if (msg.run !== current) return;
    const until = performance.now() + SLICE_MS;
    while (done < msg.iterations && performance.now() < until && performance.now() - started < msg.budgetMs) {
      iterate(settings, nodes, edges);
      done++;
    }
    const out = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      out[i * 2] = nodes[i * PPN]!;
      out[i * 2 + 1] = nodes[i * PPN + 1]!;
    }
    const finished = done >= msg.iterations || performance.now() - started >= msg.budgetMs;
    const progress: LayoutMessage = {
      type: 'positions',
      run: msg.run,
      positions: out,
      iteration: done,
      done: finished,
      elapsedMs: performance.now() - started,
    };
    postMessage(progress, { transfer: [out.buffer] });
    if (!finished) setTimeout(slice, 0);
  };
  slice();
}

addEventListener('message', (event: MessageEvent<LayoutRequest>) => {
  const msg = event.data;
  current = msg.run;
  if (msg.type === 'start') run(msg);
});
