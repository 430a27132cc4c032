// The one way the core finds a worker thread's script (library, formats, citations), in every way it
// runs:
// - bundled (out/main for Electron, out/cli for the CLI and browser mode): each worker is an entry of its
//   own, `<name>.js` at the root of the output folder. The build writes the path from the chunk that
//   holds this code to that root into BUNDLE_ROOT (scripts/worker-bundles.ts), so it is right whichever
//   chunk or folder the code lands in, and the build fails when a worker entry is missing;
// - from sources (vitest, tsx): the worker's TypeScript file, loaded through tsx's API (Node 20 does
//   not apply `--import tsx` hooks to a worker's entry).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CoreError } from './errors';
import { stderrLogger, type Logger } from './log';
import { WORKER_SOURCES, type WorkerName } from './worker-names';

export { WORKER_SOURCES, type WorkerName } from './worker-names';

export interface WorkerEntry {
  /** The script's file URL, or code to evaluate (`eval: true`) that loads it. */
  script: URL | string;
  eval?: true;
}

// Replaced at build time (see worker-names.ts); a string literal of its own so the build sees it.
const BUNDLE_ROOT: string = '__CITEWISE_BUNDLE_ROOT__/';
const HERE = import.meta.url;

const WHAT: Record<WorkerName, string> = {
  'library-worker': 'library worker',
  'formats-worker': 'import worker',
  'cite-worker': 'citation worker',
  'pdf-worker': 'PDF reader',
};

export interface LocateOptions {
  /** Where the absolute path of a missing file is logged (never shown to the user). */
  log?: Logger;
  /** This module's URL; for tests that place a copy of the code elsewhere. */
  from?: string;
  /** The bundle root as the build wrote it; for tests. */
  bundleRoot?: string;
}

/** Whether this code runs from its TypeScript sources rather than a bundle. */
export function runningFromSources(from: string = HERE): boolean {
  return /\.ts$/.test(new URL(from).pathname);
}

/**
 * The script of a worker. Throws a CoreError (INTERNAL) that says what to do when the file is missing;
 * the missing path goes to the log only.
 */
export function locateWorker(name: WorkerName, options: LocateOptions = {}): WorkerEntry {
  const from = options.from ?? HERE;
  const log = options.log ?? stderrLogger;
  const missing = (detail: string): CoreError => {
    log.error(`the ${WHAT[name]} cannot start: ${detail}`);
    return new CoreError(
      'INTERNAL',
      `Citewise cannot start its ${WHAT[name]}: a file of the app is missing. Reinstall Citewise, or run \`npm run build\` in a source checkout. The log has details.`,
    );
  };
  if (runningFromSources(from)) {
    // This file is electron/core/worker-entry.ts; the table's paths are from the repository root.
    const ts = new URL(`../../${WORKER_SOURCES[name]}`, from);
    if (!existsSync(fileURLToPath(ts))) throw missing(`${fileURLToPath(ts)} does not exist`);
    return {
      script: `import(${JSON.stringify(tsxApi())}).then((api) => api.tsImport(${JSON.stringify(ts.href)}, ${JSON.stringify(from)}));`,
      eval: true,
    };
  }
  const root = options.bundleRoot ?? BUNDLE_ROOT;
  if (root.includes('__CITEWISE_BUNDLE_ROOT__'))
    throw missing(`${from} was bundled without scripts/worker-bundles.ts, so it cannot tell where its workers are`);
  const url = new URL(`${root}${name}.js`, from);
  if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url)))
    throw missing(`${url.protocol === 'file:' ? fileURLToPath(url) : url.href} does not exist`);
  return { script: url };
}

/** tsx's ESM API as a file URL, found through its package.json exports (require.resolve would pick the CommonJS build). */
function tsxApi(): string {
  const pkgFile = createRequire(HERE).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
}
