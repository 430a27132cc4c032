// The pane's side of the layout worker: it sends the current nodes and edges, receives positions slice
// by slice and hands them on. A new start supersedes the run in progress (the worker drops it).
import type { LayoutMessage, LayoutRequest } from './layout-protocol';

export interface LayoutInput {
  ids: readonly string[];
  positions: Float32Array;
  masses: Float32Array;
  edges: Uint32Array;
  iterations: number;
  budgetMs: number;
}

export interface LayoutTick {
  ids: readonly string[];
  positions: Float32Array;
  iteration: number;
  done: boolean;
  elapsedMs: number;
}

export class LayoutRunner {
  #worker: Worker | null = null;
  #run = 0;
  #ids: readonly string[] = [];
  readonly #onTick: (tick: LayoutTick) => void;

  constructor(onTick: (tick: LayoutTick) => void) {
    this.#onTick = onTick;
  }

  #ensure(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./layout.worker.ts', import.meta.url), {
      type: 'module',
      name: 'citewise-graph-layout',
    });
    worker.addEventListener('message', (event: MessageEvent<LayoutMessage>) => {
      const msg = event.data;
      if (msg.run !== this.#run) return;
      this.#onTick({
        ids: this.#ids,
        positions: msg.positions,
        iteration: msg.iteration,
        done: msg.done,
        elapsedMs: msg.elapsedMs,
      });
    });
    this.#worker = worker;
    return worker;
  }

  start(input: LayoutInput): number {
    const worker = this.#ensure();
    this.#run++;
    this.#ids = input.ids;
    const msg: LayoutRequest = {
      type: 'start',
      run: this.#run,
      positions: input.positions,
      masses: input.masses,
      edges: input.edges,
      iterations: input.iterations,
      budgetMs: input.budgetMs,
    };
    worker.postMessage(msg, [input.positions.buffer, input.masses.buffer, input.edges.buffer]);
    return this.#run;
  }

  stop(): void {
    if (!this.#worker) return;
    this.#run++;
    const msg: LayoutRequest = { type: 'stop', run: this.#run };
    this.#worker.postMessage(msg);
  }

  dispose(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }
}
