// `node --cpu-prof` on the CLI must profile the citation workers too: that is where an uncached
// bibliography spends its time (docs/cite-cold.md). Only the profiler's flags reach a worker.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { profilerFlags } from '../../../../electron/core/formats/cite/pool';
import { buildCslDir, ROOT } from './helpers';

describe('profilerFlags', () => {
  it('keeps the CPU and heap profiler flags, in both spellings of a value', () => {
    expect(
      profilerFlags([
        '--cpu-prof',
        '--cpu-prof-dir=/tmp/p',
        '--cpu-prof-interval',
        '500',
        '--heap-prof',
        '--heap-prof-dir',
        '/tmp/h',
      ]),
    ).toEqual([
      '--cpu-prof',
      '--cpu-prof-dir=/tmp/p',
      '--cpu-prof-interval',
      '500',
      '--heap-prof',
      '--heap-prof-dir',
      '/tmp/h',
    ]);
  });

  it('leaves out everything else: loaders, conditions, memory limits, and a profile name two workers would share', () => {
    expect(
      profilerFlags([
        '--import',
        'tsx',
        '--conditions=development',
        '--max-old-space-size=4096',
        '--cpu-prof-name',
        'x.cpuprofile',
        '--inspect',
      ]),
    ).toEqual([]);
    expect(profilerFlags([])).toEqual([]);
  });
});

describe('node --cpu-prof with a citation worker', () => {
  it('writes a profile of the worker, with citeproc-js in it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'citewise-prof-'));
    const profiles = join(dir, 'profiles');
    const script = join(dir, 'run.mts');
    const cite = pathToFileURL(join(ROOT, 'electron/core/formats/cite/index.ts')).href;
    writeFileSync(
      script,
      `import { createCiteFormatter, directoryAssets } from ${JSON.stringify(cite)};
const f = createCiteFormatter({ assets: directoryAssets(${JSON.stringify(buildCslDir())}), workers: 1, workerThreshold: 1 });
await f.formatBibliography([{ id: 'a', type: 'book', title: 'Profiled', author: [{ family: 'Kim', given: 'Ana' }], issued: { 'date-parts': [[2020]] } }], { style: 'apa' });
await f.close();
`,
    );
    execFileSync(process.execPath, ['--import', 'tsx', '--cpu-prof', `--cpu-prof-dir=${profiles}`, script], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    const withCiteproc = readdirSync(profiles).filter((name) => {
      const profile = JSON.parse(readFileSync(join(profiles, name), 'utf8')) as {
        nodes: Array<{ callFrame: { url: string } }>;
      };
      return profile.nodes.some((n) => n.callFrame.url.includes('citeproc_commonjs'));
    });
    // This thread never loads citeproc-js (the job went to the worker), so the profile with it is the worker's.
    expect(withCiteproc).toHaveLength(1);
  }, 180_000);
});
