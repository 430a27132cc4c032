// locateWorker, the one way the core finds its worker threads' scripts, and the build's side of it
// (scripts/worker-bundles.ts): from sources, from any chunk of a bundle, and with a file missing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { locateWorker, runningFromSources, WORKER_SOURCES, type WorkerName } from '../../../electron/core/worker-entry';
import { rootFrom, workerInputs } from '../../../scripts/worker-bundles';
import { tempDir } from '../../helpers/tmp';

const NAMES = Object.keys(WORKER_SOURCES) as WorkerName[];

function recorder() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      info: (m: string) => lines.push(m),
      warn: (m: string) => lines.push(m),
      error: (m: string) => lines.push(m),
    },
  };
}

describe('locateWorker', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('citewise-workers-');
  });
  afterEach(() => dir.remove());

  it('runs from sources here, and loads each worker TypeScript entry through tsx', async () => {
    expect(runningFromSources()).toBe(true);
    for (const name of NAMES) {
      const entry = locateWorker(name);
      expect(entry.eval).toBe(true);
      expect(entry.script).toContain(pathToFileURL(join(process.cwd(), WORKER_SOURCES[name])).href);
    }
    // The citation worker really starts from its source and answers.
    const entry = locateWorker('cite-worker');
    const worker = new Worker(entry.script, { eval: true, execArgv: [] });
    try {
      const answer = await new Promise((ok, fail) => {
        worker.once('message', ok).once('error', fail);
        worker.postMessage({ kind: 'stats', id: 7 });
      });
      expect(answer).toMatchObject({ type: 'reply', id: 7, ok: true, value: { kind: 'stats' } });
    } finally {
      await worker.terminate();
    }
  });

  // Where the build puts the code that calls locateWorker: the entry itself, a chunk folder, deeper.
  it.each([
    ['index.js', './'],
    ['assets/cite-abc.js', '../'],
    ['chunks/deep/x.js', '../../'],
  ])('in a bundle, from a chunk at %s, finds <name>.js at the output root', (chunk, root) => {
    expect(rootFrom(chunk)).toBe(root);
    const out = join(dir.path, 'out', 'cli');
    mkdirSync(join(out, chunk, '..'), { recursive: true });
    for (const name of NAMES) writeFileSync(join(out, `${name}.js`), '');
    const from = pathToFileURL(join(out, chunk)).href;
    for (const name of NAMES)
      expect(locateWorker(name, { from, bundleRoot: rootFrom(chunk) }).script).toEqual(
        pathToFileURL(join(out, `${name}.js`)),
      );
  });

  it('says what to do when a worker is missing, and logs the path instead of showing it', () => {
    const out = join(dir.path, 'out', 'cli');
    mkdirSync(join(out, 'assets'), { recursive: true });
    const { lines, log } = recorder();
    const from = pathToFileURL(join(out, 'assets', 'pool-x.js')).href;
    let error: unknown;
    try {
      locateWorker('cite-worker', { from, bundleRoot: '../', log });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CoreError);
    const message = (error as CoreError).message;
    expect(message).toMatch(/citation worker.*missing.*Reinstall Citewise/);
    expect(message).not.toContain(dir.path);
    expect(message).not.toMatch(/\/(tmp|home|work|usr)\//);
    expect(lines.join('\n')).toContain(join(out, 'cite-worker.js'));
  });

  it('refuses a bundle built without the worker-bundles plugin (the marker was never replaced)', () => {
    const { lines, log } = recorder();
    const from = pathToFileURL(join(dir.path, 'out', 'main', 'index.js')).href;
    expect(() => locateWorker('library-worker', { from, bundleRoot: '__CITEWISE_BUNDLE_ROOT__/', log })).toThrow(
      /library worker.*missing/,
    );
    expect(lines.join('\n')).toContain('bundled without scripts/worker-bundles.ts');
  });

  it('gives the builds one input per worker, each an existing source', () => {
    const inputs = workerInputs(process.cwd());
    expect(Object.keys(inputs).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) expect(inputs[name]).toBe(join(process.cwd(), WORKER_SOURCES[name]));
  });
});
