// The browser's Worker for Node, so that a state class that starts a module worker (the graph's
// layout) runs its real worker code, from its TypeScript source, in a real thread: the worker gets
// the `postMessage`/`addEventListener` globals of a dedicated worker, and the class gets `message`
// events carrying `data`. Node 20 has no Web Worker, and does not apply tsx to a worker's entry,
// so the entry is loaded through tsx's API (as electron/core/worker-entry.ts does for the core's).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker as NodeWorker, type TransferListItem } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const pkgFile = require.resolve('tsx/package.json');
const tsxEsmApi = pathToFileURL(
  join(
    dirname(pkgFile),
    (JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports[
      './esm/api'
    ]!.import.default,
  ),
).href;

const bootstrap = (entry: string): string => `
const { parentPort } = require('node:worker_threads');
globalThis.postMessage = (data, options) => parentPort.postMessage(data, Array.isArray(options) ? options : options?.transfer);
globalThis.addEventListener = (type, listener) => { if (type === 'message') parentPort.on('message', (data) => listener({ data })); };
import(${JSON.stringify(tsxEsmApi)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}));
`;

export class NodeWebWorker extends EventTarget {
  readonly #thread: NodeWorker;

  constructor(url: URL | string) {
    super();
    this.#thread = new NodeWorker(bootstrap(String(url)), { eval: true });
    this.#thread.unref();
    this.#thread.on('message', (data: unknown) => this.dispatchEvent(Object.assign(new Event('message'), { data })));
    this.#thread.on('error', (error) => this.dispatchEvent(Object.assign(new Event('error'), { error })));
  }

  postMessage(
    data: unknown,
    transfer?: readonly TransferListItem[] | { transfer?: readonly TransferListItem[] },
  ): void {
    this.#thread.postMessage(
      data,
      Array.isArray(transfer)
        ? transfer
        : (transfer as { transfer?: readonly TransferListItem[] } | undefined)?.transfer,
    );
  }

  terminate(): void {
    void this.#thread.terminate();
  }
}

/** Makes `Worker` the Node one while a test file runs; returns the disposer. */
export function installWebWorker(): () => void {
  const g = globalThis as { Worker?: unknown };
  const before = g.Worker;
  g.Worker = NodeWebWorker;
  return () => {
    g.Worker = before;
  };
}
