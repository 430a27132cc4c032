// The build side of locateWorker (electron/core/worker-entry.ts), for both builds (electron.vite.config.ts
// and vite.node.config.ts): every worker of electron/core/worker-names.ts becomes an entry `<name>.js`
// at the root of the output folder, and each chunk that holds locateWorker gets the relative path from
// itself to that root. The build fails when that cannot be right.
import { posix, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { BUNDLE_ROOT_MARKER, WORKER_SOURCES } from '../electron/core/worker-names';

/** The rollup inputs of the workers, to spread into a build's `input`. */
export function workerInputs(root = process.cwd()): Record<string, string> {
  return Object.fromEntries(Object.entries(WORKER_SOURCES).map(([name, source]) => [name, resolve(root, source)]));
}

/** From a chunk's file name (relative to the output folder) to the folder's root: './', '../', … */
export function rootFrom(chunkFileName: string): string {
  const dir = posix.dirname(chunkFileName.replaceAll('\\', '/'));
  if (dir === '.') return './';
  return `${posix.relative(dir, '.')}/`;
}

const QUOTED = /(["'`])__CITEWISE_BUNDLE_ROOT__\/\1/g;

export function workerBundles(): Plugin {
  let located = 0;
  return {
    name: 'citewise:worker-bundles',
    apply: 'build',
    buildStart() {
      located = 0;
    },
    renderChunk(code, chunk) {
      if (!code.includes(BUNDLE_ROOT_MARKER)) return null;
      located++;
      const root = rootFrom(chunk.fileName);
      // Same line, no lines moved: the chunk's source map stays valid (map: null keeps it).
      return { code: code.replace(QUOTED, (_m, q: string) => `${q}${root}${q}`), map: null };
    },
    generateBundle(_options, bundle) {
      if (located === 0) return;
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type === 'chunk' && output.code.includes(BUNDLE_ROOT_MARKER))
          this.error(`${fileName} still holds the worker-root marker: it must be a quoted string of its own`);
      }
      const missing = Object.keys(WORKER_SOURCES).filter((name) => !(`${name}.js` in bundle));
      if (missing.length)
        this.error(
          `this build locates workers but does not emit ${missing.map((n) => `${n}.js`).join(', ')}: add workerInputs() to its input`,
        );
    },
  };
}
