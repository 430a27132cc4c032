// The build side of locateWorker (scripts/worker-bundles.ts), through a real Vite build of a small
// fixture: the marker becomes the path from each chunk to the output root, and a build that locates
// workers without emitting all of them fails.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKER_SOURCES } from '../../../electron/core/worker-names';
import { workerBundles } from '../../../scripts/worker-bundles';
import { tempDir } from '../../helpers/tmp';

const NAMES = Object.keys(WORKER_SOURCES);

describe('the worker-bundles build plugin', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('citewise-worker-bundles-');
    // The entry loads the locating code lazily, so it lands in a chunk of its own under assets/.
    writeFileSync(join(dir.path, 'entry.js'), "export const load = () => import('./locate.js');\n");
    writeFileSync(
      join(dir.path, 'locate.js'),
      "export const ROOT = '__CITEWISE_BUNDLE_ROOT__/';\nexport const HERE = import.meta.url;\n",
    );
    for (const name of NAMES)
      writeFileSync(join(dir.path, `${name}.js`), `export const name = ${JSON.stringify(name)};\n`);
  });
  afterEach(() => dir.remove());

  const run = (inputs: string[]) =>
    build({
      configFile: false,
      logLevel: 'silent',
      plugins: [workerBundles()],
      build: {
        ssr: true,
        outDir: join(dir.path, 'out'),
        emptyOutDir: true,
        rollupOptions: {
          input: Object.fromEntries(inputs.map((n) => [n, join(dir.path, `${n}.js`)])),
          output: { format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'assets/[name]-[hash].js' },
        },
      },
    });

  it('writes the way from the chunk to the output root, beside which every worker is emitted', async () => {
    const out = (await run(['entry', ...NAMES])) as { output: { fileName: string; type: string; code?: string }[] };
    const chunk = out.output.find(
      (o) => o.type === 'chunk' && o.code?.includes('import.meta.url') && o.fileName.startsWith('assets/'),
    );
    expect(chunk, out.output.map((o) => o.fileName).join(', ')).toBeDefined();
    const code = readFileSync(join(dir.path, 'out', chunk!.fileName), 'utf8');
    expect(code).toMatch(/ROOT = "\.\.\/"/);
    expect(code).not.toContain('__CITEWISE_BUNDLE_ROOT__');
    for (const name of NAMES) expect(out.output.map((o) => o.fileName)).toContain(`${name}.js`);
  });

  it('fails the build when a worker is not an entry', async () => {
    await expect(run(['entry', ...NAMES.filter((n) => n !== 'cite-worker')])).rejects.toThrow(
      /does not emit cite-worker\.js/,
    );
  });
});
