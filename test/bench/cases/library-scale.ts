// The library store at 100,000 items (quick: 10,000): the bulk insert through the library worker
// (with creators, citation keys, tags and the FTS index, in one transaction), the longest stall of
// the thread that answers the UI meanwhile, peak memory, then fielded search p95 and the first page
// of every sort, each measured as the UI sees it: a round trip to the worker.
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { LibraryClient } from '../../../electron/core/library/client';
import type { CslItem } from '../../../shared/model/csl';
import { SORT_COLUMNS } from '../../../electron/core/library/types';
import { generatedTallies, generateItems } from '../../unit/library/helpers/generate-items';
import { percentile, type BenchCase, type BenchMetric } from '../harness';

/** Queries a researcher types: words, prefixes, phrases, fields, ranges, evidence filters, booleans. */
export const QUERIES = [
  'learning',
  'neural net',
  'prot',
  '"climate change"',
  'author:müller',
  'author:smith year:2010..2020',
  'title:"neural network"',
  'title:protein year:>2015',
  'tag:review',
  'tag:review type:article-journal',
  'type:book year:<1990',
  'key:garcia*',
  'doi:10.5555/gen.1.4242',
  'journal:nature cancer',
  'supporting:>10',
  'contrasting:>0 year:2020..2025',
  'mentioning:>20 tag:methods',
  'retracted:yes',
  'notice:any',
  'climate OR ocean',
  'cancer -therapy',
  '(author:wang OR author:li) quantum',
  'collection:Thesis',
  'vaccine immune response',
  'bayesian inference NOT type:book',
];

const bench: BenchCase = {
  name: 'library-scale',
  description:
    'library store on 100,000 items: bulk insert via the worker, UI-thread stall, peak memory, fielded search p95, first page of every sort',
  async run({ tmpDir, quick, log }) {
    const n = quick ? 10_000 : 100_000;
    const size = n.toLocaleString('en');
    // Items arrive in chunks, as the formats worker delivers a parsed file: a real import never holds
    // 100,000 parsed entries at once. Each chunk is generated just before it is sent.
    const CHUNK = 2_000;
    async function* chunks(): AsyncGenerator<CslItem[]> {
      for (let offset = 0; offset < n; offset += CHUNK) {
        yield generateItems(Math.min(CHUNK, n - offset), 1, offset);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const client = await LibraryClient.start({ file: join(tmpDir, 'citewise.sqlite') });
    const metrics: BenchMetric[] = [];
    try {
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
      const delay = monitorEventLoopDelay({ resolution: 5 });
      let last = performance.now();
      let maxGap = 0;
      const beat = setInterval(() => {
        const now = performance.now();
        maxGap = Math.max(maxGap, now - last);
        last = now;
      }, 10);
      delay.enable();
      const t0 = performance.now();
      const result = await client.importItems(chunks(), { source: 'bench' });
      const importS = (performance.now() - t0) / 1000;
      delay.disable();
      clearInterval(beat);
      clearInterval(sampler);
      if (result.added !== n) throw new Error(`imported ${result.added} of ${n}`);
      const stallMs = Math.max(delay.max / 1e6, maxGap - 10);
      log(
        `imported ${size} items in ${importS.toFixed(2)} s; longest UI-thread stall ${stallMs.toFixed(1)} ms; peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`,
      );
      metrics.push(
        // The store's side only, fed from this thread; the import of a file, the issue's target (10 s and
        // 500 MB from file to committed library), is measured end to end by library-import.
        {
          metric: `bulk insert of ${size} CSL items (creators, keys, tags, FTS), one transaction`,
          value: importS,
          unit: 's',
          note: 'items generated here and cloned to the library worker; a file import is measured by library-import',
        },
        {
          metric: 'longest stall of the UI thread during the import',
          value: stallMs,
          unit: 'ms',
          target: '≤ 100 ms',
          pass: stallMs <= 100,
        },
        {
          metric: 'peak memory (RSS, main + library worker, items streamed in chunks)',
          value: peak / 2 ** 20,
          unit: 'MB',
          note: `${((peak - baseline) / 2 ** 20).toFixed(0)} MB above the ${(baseline / 2 ** 20).toFixed(0)} MB held before the import (the started worker; items are generated chunk by chunk in this process during the import); a file import's peak is measured by library-import`,
        },
      );

      // Evidence, notices and a collection, so every query has something to find.
      const found = generatedTallies(n);
      await client.serviceCache.putTallies({ found, unknown: [`10.5555/gen.1.1`] });
      for (let i = 0; i < 200; i += 1)
        await client.serviceCache.putNotices(`10.5555/gen.1.${i * 97}`, [
          { status: i % 4 === 0 ? 'Retracted' : 'Has correction' },
        ]);
      const thesis = await client.lib.createCollection('Thesis');
      const page = await client.listing.list({ sort: { column: 'year', direction: 'desc' }, limit: 500 });
      await client.lib.addToCollection(
        thesis,
        page.rows.map((r) => r.id),
      );
      await client.lib.optimize();

      const times: number[] = [];
      const perQuery: string[] = [];
      const rounds = quick ? 3 : 10;
      for (const q of QUERIES) await client.listing.list({ query: q, limit: 100 }); // warm the page cache
      for (const q of QUERIES) {
        const own: number[] = [];
        for (let r = 0; r < rounds; r++) {
          const t = performance.now();
          await client.listing.list({ query: q, limit: 100 });
          own.push(performance.now() - t);
        }
        own.sort((a, b) => a - b);
        perQuery.push(`${q}: ${percentile(own, 50).toFixed(1)}`);
        times.push(...own);
      }
      times.sort((a, b) => a - b);
      log(`search p50 per query (ms): ${perQuery.join('; ')}`);
      const p95 = percentile(times, 95);
      metrics.push({
        metric: `fielded search p95, first page of 100 (${size} items, ${QUERIES.length} queries × ${rounds})`,
        value: p95,
        unit: 'ms',
        target: '≤ 10 ms',
        pass: p95 <= 10,
        note: `p50 ${percentile(times, 50).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
      });

      let worst = 0;
      const sorts: string[] = [];
      for (const column of SORT_COLUMNS) {
        for (const direction of ['asc', 'desc'] as const) {
          const t = performance.now();
          const first = await client.listing.list({ sort: { column, direction }, limit: 100 });
          const ms = performance.now() - t;
          if (first.rows.length !== 100) throw new Error(`sort ${column} ${direction} gave ${first.rows.length} rows`);
          worst = Math.max(worst, ms);
          sorts.push(`${column} ${direction} ${ms.toFixed(1)}`);
        }
      }
      log(`first page per sort (ms): ${sorts.join('; ')}`);
      metrics.push({
        metric: `first page of 100 rows, slowest of ${SORT_COLUMNS.length * 2} sorts (${size} items)`,
        value: worst,
        unit: 'ms',
        target: '≤ 50 ms',
        pass: worst <= 50,
        note: sorts.join(', '),
      });

      // Every search sorted every way: a filter changes which index SQLite can use, and a wrong choice
      // (a skip-scan per matching id, a walk of the whole table) once took seconds.
      const combos: number[] = [];
      const slowest: { what: string; ms: number }[] = [];
      for (const q of QUERIES) {
        for (const column of SORT_COLUMNS) {
          for (const direction of ['asc', 'desc'] as const) {
            const t = performance.now();
            await client.listing.list({ query: q, sort: { column, direction }, limit: 100 });
            const ms = performance.now() - t;
            combos.push(ms);
            slowest.push({ what: `${q} by ${column} ${direction}`, ms });
          }
        }
      }
      combos.sort((a, b) => a - b);
      slowest.sort((a, b) => b.ms - a.ms);
      const comboP95 = percentile(combos, 95);
      log(
        `search × sort first pages: p50 ${percentile(combos, 50).toFixed(1)} ms, p95 ${comboP95.toFixed(1)} ms; slowest ${slowest
          .slice(0, 5)
          .map((x) => `${x.what} ${x.ms.toFixed(0)}`)
          .join('; ')}`,
      );
      metrics.push({
        metric: `first page of 100 rows of every search in every sort, p95 (${QUERIES.length} queries × ${SORT_COLUMNS.length * 2} sorts, ${size} items)`,
        value: comboP95,
        unit: 'ms',
        target: '≤ 50 ms',
        pass: comboP95 <= 50,
        note: `p50 ${percentile(combos, 50).toFixed(1)} ms; slowest: ${slowest
          .slice(0, 3)
          .map((x) => `${x.what} ${x.ms.toFixed(0)} ms`)
          .join(', ')}`,
      });
    } finally {
      await client.close();
    }
    return metrics;
  },
};

export default bench;
