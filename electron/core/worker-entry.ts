// Where a worker thread's script is. Bundled, each worker is an entry of its own in
// electron.vite.config.ts and vite.node.config.ts, written beside the bundle that starts it (or one
// folder up, when the starting code landed in a shared chunk). From sources (tests, tsx) it is the
// TypeScript file, loaded through tsx's API: Node 20 does not apply `--import tsx` hooks to a
// worker's entry.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CoreError } from './errors';

export interface WorkerEntry {
  script: URL | string;
  eval?: true;
}

/**
 * @param from the starting module's import.meta.url
 * @param bundled the bundle's file name, e.g. 'library-worker.js'
 * @param source the TypeScript entry relative to `from`, e.g. './worker.ts'
 * @param what how an error names the worker
 */
export function workerEntry(from: string, bundled: string, source: string, what: string): WorkerEntry {
  for (const candidate of [`./${bundled}`, `../${bundled}`]) {
    const url = new URL(candidate, from);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return { script: url };
  }
  const ts = new URL(source, from);
  if (ts.protocol === 'file:' && existsSync(fileURLToPath(ts))) {
    return { script: `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(ts.href)}, ${JSON.stringify(from)}))`, eval: true };
  }
  throw new CoreError('INTERNAL', `The ${what} (${bundled}) is missing from this build.`);
}
