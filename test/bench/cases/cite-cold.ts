// Formatting cold, as a user meets it: `citewise export --format text --style apa` (the built CLI,
// process start to exit, a fresh process every time) against `pandoc --citeproc` on the same items
// (the library's own CSL-JSON export) and the very style file Citewise ships (out/csl/styles/apa.csl),
// alternated in one run so that the machine's load falls on both alike. 1,000 items, then 10,000.
// Each round runs Citewise twice: first with the library's bibliography cache emptied (a set never
// formatted before: every entry rendered), then again (the set comes from the library's cite_cache,
// as it does for every export of an unchanged set after the first; electron/core/library/cite-cache.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import type { BenchCase, BenchMetric } from '../harness';
import { findPandoc, timedCpu } from '../probes/pandoc';
import { library } from './formats-cite-apa';

/** Empties the library's bibliography cache (migration 0015), so the next export renders every entry. */
function emptyCache(file: string): void {
  const db = new Database(file);
  try {
    db.exec('DELETE FROM cite_cache');
  } finally {
    db.close();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const bench: BenchCase = {
  name: 'cite-cold',
  description:
    'citewise export --format text --style apa (a fresh process; the library cache emptied, then warm) against pandoc --citeproc on the same items and style file, in one run',
  async run({ root, tmpDir, quick, log }) {
    if (!existsSync(join(root, 'out/cli/index.js')))
      throw new Error('out/cli is missing: run `npm run build` first (npm run bench does)');
    const style = join(root, 'out/csl/styles/apa.csl');
    const hasPandoc = findPandoc(log);
    const sizes = quick ? [100] : [1_000, 10_000];
    const cli = join(root, 'bin/citewise.mjs');
    const metrics: BenchMetric[] = [];
    for (const n of sizes) {
      const size = n.toLocaleString('en');
      // One round at 10,000: three uncached renders of 10,000 took minutes on this shared machine.
      const rounds = quick || n >= 10_000 ? 1 : 3;
      const dataDir = join(tmpDir, `data-${n}`);
      const source = join(tmpDir, `items-${n}.json`);
      writeFileSync(source, JSON.stringify(library(n)));
      execFileSync(process.execPath, [cli, 'import', source, '--data-dir', dataDir], { stdio: 'ignore' });
      // pandoc reads what the library holds, exported by Citewise, so both format the same records.
      const items = join(tmpDir, `library-${n}.json`);
      execFileSync(process.execPath, [cli, 'export', '--format', 'csl-json', '--data-dir', dataDir, '-o', items], {
        stdio: 'ignore',
      });
      const doc = join(tmpDir, 'nocite.md');
      writeFileSync(doc, '---\nnocite: "@*"\n---\n');
      const uncached: number[] = [];
      const cached: number[] = [];
      const theirs: number[] = [];
      // CPU time (user + system, every thread) of the same runs: on a loaded machine the fairer measure.
      const uncachedCpu: number[] = [];
      const theirsCpu: number[] = [];
      const exportArgs = [
        cli,
        'export',
        '--format',
        'text',
        '--style',
        'apa',
        '--data-dir',
        dataDir,
        '-o',
        join(tmpDir, 'out.txt'),
      ];
      for (let i = 0; i < rounds; i++) {
        emptyCache(join(dataDir, LIBRARY_FILE));
        const ours = await timedCpu(process.execPath, exportArgs, root);
        uncached.push(ours.wall);
        if (ours.cpu !== undefined) uncachedCpu.push(ours.cpu);
        cached.push((await timedCpu(process.execPath, exportArgs, root)).wall);
        if (hasPandoc) {
          const pandoc = await timedCpu(
            'pandoc',
            [
              doc,
              '--citeproc',
              '--bibliography',
              items,
              '--csl',
              style,
              '-t',
              'plain',
              '-o',
              join(tmpDir, 'pandoc.txt'),
            ],
            root,
          );
          theirs.push(pandoc.wall);
          if (pandoc.cpu !== undefined) theirsCpu.push(pandoc.cpu);
        }
      }
      const a = median(uncached);
      const c = median(cached);
      const runs = (xs: number[]): string => xs.map((t) => (t / 1000).toFixed(2)).join(', ');
      log(
        `${size}: citewise uncached ${runs(uncached)} s; cached ${runs(cached)} s${hasPandoc ? `; pandoc ${runs(theirs)} s` : ''}`,
      );
      const big = n === 10_000;
      metrics.push(
        {
          metric: `citewise export --format text --style apa, ${size} items, cold, uncached (median of ${rounds})`,
          value: a / 1000,
          unit: 's',
          ...(big ? { target: '≤ 3 s', pass: a <= 3000 } : {}),
          note: `a fresh process, the library's bibliography cache emptied: start, open, engine, every entry rendered, file written; runs ${runs(uncached)} s`,
        },
        {
          metric: `citewise export --format text --style apa, ${size} items, cold, cached (median of ${rounds})`,
          value: c / 1000,
          unit: 's',
          ...(big ? { target: '≤ 3 s', pass: c <= 3000 } : {}),
          note: `a fresh process, the same set exported before: the bibliography comes from the library; runs ${runs(cached)} s`,
        },
        { metric: `citewise cached / uncached, ${size} items`, value: c / a, unit: 'ratio' },
      );
      if (hasPandoc) {
        const b = median(theirs);
        const thousand = n === 1_000;
        metrics.push(
          {
            metric: `pandoc --citeproc, the same ${size} items and apa.csl (median of ${rounds})`,
            value: b / 1000,
            unit: 's',
            note: `runs ${runs(theirs)} s`,
          },
          {
            metric: `citewise uncached / pandoc, ${size} items cold`,
            value: a / b,
            unit: 'ratio',
            ...(thousand ? { target: '≤ 1', pass: a <= b } : {}),
          },
          {
            metric: `citewise cached / pandoc, ${size} items cold`,
            value: c / b,
            unit: 'ratio',
            ...(thousand ? { target: '≤ 1', pass: c <= b } : {}),
          },
        );
        if (uncachedCpu.length === rounds && theirsCpu.length === rounds) {
          const ac = median(uncachedCpu);
          const bc = median(theirsCpu);
          metrics.push(
            {
              metric: `citewise uncached CPU, ${size} items cold (median of ${rounds})`,
              value: ac / 1000,
              unit: 's',
              note: `user + system, every thread; runs ${runs(uncachedCpu)} s; load average ${loadavg()[0]!.toFixed(1)} at the end`,
            },
            {
              metric: `pandoc --citeproc CPU, the same ${size} items (median of ${rounds})`,
              value: bc / 1000,
              unit: 's',
              note: `runs ${runs(theirsCpu)} s`,
            },
            {
              metric: `citewise uncached / pandoc CPU, ${size} items cold`,
              value: ac / bc,
              unit: 'ratio',
              note: 'the fairer comparison when the machine is loaded',
            },
          );
        }
      }
    }
    return metrics;
  },
};

export default bench;
