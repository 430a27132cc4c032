// A command on a big library costs what it costs on a small one: `citewise search author:smith` (the
// built CLI, process start to exit) on 100,000 items against the same on 1,000, run alternately in
// one run so that the machine's load falls on both alike, as a ratio. The command opens the library
// (no full integrity_check on an ordinary open: health.ts), runs one ranked search and prints a page.
// A second pair does the same for `citewise export --query` of one item, which reads no index page
// the search needs, and a third for `citewise stats`. Then one open after an unclean shutdown, which
// runs the full check, for scale.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openMarkName, stateDir } from '../../../electron/core/library/health';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import type { BenchCase, BenchMetric } from '../harness';
import { importGenerated } from '../library-setup';

function run(root: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const p = spawn(process.execPath, [join(root, 'bin/citewise.mjs'), ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`citewise ${args.join(' ')} exited with ${code}: ${err.slice(0, 1000)}`)),
    );
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const bench: BenchCase = {
  name: 'library-open',
  description: 'a command on 100,000 items against the same command on 1,000 (built CLI, alternated in one run)',
  async run({ root, tmpDir, quick, log }) {
    if (!existsSync(join(root, 'out/cli/index.js')))
      throw new Error('out/cli is missing: run `npm run build` first (npm run bench does)');
    const small = 1_000;
    const big = quick ? 10_000 : 100_000;
    const dirs: Record<number, string> = {};
    for (const n of [small, big]) {
      dirs[n] = join(tmpDir, `data-${n}`);
      await importGenerated(n, tmpDir, dirs[n]!, (file, dataDir) => run(root, ['import', file, '--data-dir', dataDir]));
    }
    const rounds = quick ? 2 : 9;
    const metrics: BenchMetric[] = [];
    const commands: [string, string[]][] = [
      ['citewise search author:smith', ['search', 'author:smith']],
      ['citewise export --query of one item', ['export', '--format', 'csl-json', '--query', 'key:smith1990*']],
      // Counting is one pass over an index or two (counts.ts): it grows with the library, by little.
      ['citewise stats', ['stats']],
    ];
    for (const [label, args] of commands) {
      const times: Record<number, number[]> = { [small]: [], [big]: [] };
      for (let i = 0; i < rounds; i++) {
        // Alternate which size goes first, so neither always follows the other's cache warm-up.
        for (const n of i % 2 ? [big, small] : [small, big])
          times[n]!.push(await run(root, [...args, '--data-dir', dirs[n]!]));
      }
      const a = median(times[small]!);
      const b = median(times[big]!);
      log(
        `${label}: ${small.toLocaleString('en')} items ${a.toFixed(0)} ms, ${big.toLocaleString('en')} items ${b.toFixed(0)} ms (medians of ${rounds})`,
      );
      metrics.push(
        {
          metric: `${label}, ${big.toLocaleString('en')} items, wall (median of ${rounds})`,
          value: b,
          unit: 'ms',
          note: `process start to exit; runs ${times[big]!.map((t) => t.toFixed(0)).join(', ')} ms`,
        },
        {
          metric: `${label}, ${small.toLocaleString('en')} items, wall (median of ${rounds})`,
          value: a,
          unit: 'ms',
          note: `runs ${times[small]!.map((t) => t.toFixed(0)).join(', ')} ms`,
        },
        {
          metric: `${label}: ${big.toLocaleString('en')} items / ${small.toLocaleString('en')} items`,
          value: b / a,
          unit: 'ratio',
          ...(quick ? {} : { target: '≤ 1.2', pass: b / a <= 1.2 }),
        },
      );
    }
    // For scale: the same command right after a process died with the big library open.
    // The mark of a process that is gone (pid 999999999 is above any pid_max). It was named
    // "open-999999999-bench", which is not a mark's name (the suffix is hex): no check ran, and the
    // "unclean" open measured an ordinary one. The check removes the mark once it passed.
    const mark = join(stateDir(join(dirs[big]!, LIBRARY_FILE)), openMarkName(999_999_999));
    writeFileSync(mark, '');
    const unclean = await run(root, ['search', 'author:smith', '--data-dir', dirs[big]!]);
    if (existsSync(mark))
      throw new Error(
        'the open after an unclean shutdown did not run the integrity check (the dead process’s mark is still there)',
      );
    metrics.push({
      metric: `citewise search author:smith, ${big.toLocaleString('en')} items, after an unclean shutdown (runs the full integrity_check once)`,
      value: unclean,
      unit: 'ms',
    });
    return metrics;
  },
};

export default bench;
