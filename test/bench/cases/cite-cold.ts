// Formatting cold, as a user meets it: `citewise export --format text --style apa` (the built CLI,
// process start to exit, a fresh process every time) against `pandoc --citeproc` on the same items
// (the library's own CSL-JSON export) and the very style file Citewise ships (out/csl/styles/apa.csl),
// alternated in one run so that the machine's load falls on both alike. 1,000 items, then 10,000.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchCase, BenchMetric } from '../harness';
import { library } from './formats-cite-apa';

function timed(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const p = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${err.slice(0, 1000)}`))));
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const bench: BenchCase = {
  name: 'cite-cold',
  description: 'citewise export --format text --style apa (a fresh process) against pandoc --citeproc on the same items and style file, in one run',
  async run({ root, tmpDir, quick, log }) {
    if (!existsSync(join(root, 'out/cli/index.js'))) throw new Error('out/cli is missing: run `npm run build` first (npm run bench does)');
    const style = join(root, 'out/csl/styles/apa.csl');
    const hasPandoc = spawnSync('pandoc', ['--version']).status === 0;
    if (!hasPandoc) log('pandoc is not installed: only Citewise is measured (apt-get install pandoc)');
    const sizes = quick ? [100] : [1_000, 10_000];
    const rounds = quick ? 1 : 3;
    const cli = join(root, 'bin/citewise.mjs');
    const metrics: BenchMetric[] = [];
    for (const n of sizes) {
      const size = n.toLocaleString('en');
      const dataDir = join(tmpDir, `data-${n}`);
      const source = join(tmpDir, `items-${n}.json`);
      writeFileSync(source, JSON.stringify(library(n)));
      execFileSync(process.execPath, [cli, 'import', source, '--data-dir', dataDir], { stdio: 'ignore' });
      // pandoc reads what the library holds, exported by Citewise, so both format the same records.
      const items = join(tmpDir, `library-${n}.json`);
      execFileSync(process.execPath, [cli, 'export', '--format', 'csl-json', '--data-dir', dataDir, '-o', items], { stdio: 'ignore' });
      const doc = join(tmpDir, 'nocite.md');
      writeFileSync(doc, '---\nnocite: "@*"\n---\n');
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let i = 0; i < rounds; i++) {
        ours.push(await timed(process.execPath, [cli, 'export', '--format', 'text', '--style', 'apa', '--data-dir', dataDir, '-o', join(tmpDir, 'out.txt')], root));
        if (hasPandoc) theirs.push(await timed('pandoc', [doc, '--citeproc', '--bibliography', items, '--csl', style, '-t', 'plain', '-o', join(tmpDir, 'pandoc.txt')], root));
      }
      const a = median(ours);
      log(`${size}: citewise ${ours.map((t) => t.toFixed(0)).join(', ')} ms${hasPandoc ? `; pandoc ${theirs.map((t) => t.toFixed(0)).join(', ')} ms` : ''}`);
      metrics.push({
        metric: `citewise export --format text --style apa, ${size} items, cold (median of ${rounds})`,
        value: a / 1000,
        unit: 's',
        ...(n === 10_000 ? { target: '≤ 3 s', pass: a <= 3000 } : {}),
        note: `a fresh process each time: start, open, engine, every entry rendered, file written; runs ${ours.map((t) => (t / 1000).toFixed(2)).join(', ')} s`,
      });
      if (hasPandoc) {
        const b = median(theirs);
        metrics.push(
          { metric: `pandoc --citeproc, the same ${size} items and apa.csl (median of ${rounds})`, value: b / 1000, unit: 's', note: `runs ${theirs.map((t) => (t / 1000).toFixed(2)).join(', ')} s` },
          { metric: `citewise / pandoc, ${size} items cold`, value: a / b, unit: 'ratio', ...(n === 1_000 ? { target: '≤ 1', pass: a <= b } : {}) },
        );
      }
    }
    return metrics;
  },
};

export default bench;
