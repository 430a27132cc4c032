// Enrichment end to end (library worker, service client, local service): DOIs per second, the
// longest single write the library worker does for it (what a UI request may wait behind), and how
// long finding stale data takes on a large library (what the background refresh does each interval).
import { join } from 'node:path';
import { Enricher } from '../../../electron/core/jobs/enrich';
import { LibraryClient } from '../../../electron/core/library/client';
import { openLibrary } from '../../../electron/core/library/open';
import { ServiceClient } from '../../../electron/core/service';
import { startService } from '../../service/server';
import { generateItems } from '../../unit/library/helpers/generate-items';
import type { BenchCase, BenchMetric } from '../harness';

const DAY = 24 * 60 * 60_000;

const bench: BenchCase = {
  name: 'enrich',
  description:
    'Enrichment: DOIs per second end to end with item filling, longest library write, and the stale-data query on a large library',
  async run({ quick, tmpDir, log }) {
    const metrics: BenchMetric[] = [];

    // 1. End to end on the default corpus: every paper as a bare item (a DOI and a title) to fill.
    const svc = await startService({ port: 0 });
    const key = svc.keys.find((k) => k.scopes.has('*'))!.token;
    const dois = svc.corpus.db
      .prepare('SELECT doi FROM papers ORDER BY id LIMIT ?')
      .pluck()
      .all(quick ? 1000 : 3000) as string[];
    const lib = await LibraryClient.start({ file: join(tmpDir, 'e2e.sqlite') });
    const client = new ServiceClient({ baseUrl: () => svc.url, getKey: async () => key });
    try {
      await lib.importItems(dois.map((d, i) => ({ id: `b${i}`, type: 'article-journal', title: `Bare ${i}`, DOI: d })));
      let longest = 0;
      const library = new Proxy(lib.enrichment, {
        get: (target, name: keyof typeof lib.enrichment) =>
          name === 'applyBatch'
            ? async (...args: Parameters<typeof target.applyBatch>) => {
                const t = performance.now();
                try {
                  return await target.applyBatch(...args);
                } finally {
                  longest = Math.max(longest, performance.now() - t);
                }
              }
            : target[name],
      });
      const enricher = new Enricher({ library, service: client });
      const t0 = performance.now();
      const { outcome } = await enricher.enrich({ kind: 'library' });
      const seconds = (performance.now() - t0) / 1000;
      log(`${dois.length} DOIs in ${seconds.toFixed(2)} s, ${outcome!.run.filled} items filled`);
      metrics.push(
        {
          metric: `Enrich ${dois.length.toLocaleString('en')} bare items (papers + tallies + fill)`,
          value: Math.round(dois.length / seconds),
          unit: 'ops/s',
          note: 'DOIs per second, with a key',
        },
        {
          metric: 'Longest library write during enrichment',
          value: Math.round(longest),
          unit: 'ms',
          note: 'one applyBatch: 100 DOIs per transaction',
        },
      );
      const t1 = performance.now();
      await enricher.refreshStale();
      metrics.push({
        metric: `Stale check right after (${dois.length.toLocaleString('en')} items, nothing stale)`,
        value: Math.round(performance.now() - t1),
        unit: 'ms',
      });
      await enricher.close();
    } finally {
      client.close();
      await lib.close();
      await svc.close();
    }

    // 2. The stale-data query on a large library, all of it cached, some of it stale.
    const n = quick ? 10_000 : 100_000;
    const opened = openLibrary(join(tmpDir, 'big.sqlite'), { skipIntegrityCheck: true });
    try {
      const session = opened.library.beginImport({ source: 'bench' });
      for (let o = 0; o < n; o += 10_000) session.add(generateItems(Math.min(10_000, n - o), 5, o));
      session.commit();
      opened.library.checkpoint();
      const now = Date.UTC(2026, 0, 10);
      // Tallies of one item in fifty are eight days old; everything else was fetched today.
      opened.db.exec(`
        INSERT INTO service_papers (doi, found, fetched_at) SELECT DISTINCT doi, 0, ${now} FROM items WHERE doi IS NOT NULL;
        INSERT INTO service_notices (doi, found, fetched_at) SELECT DISTINCT doi, 0, ${now} FROM items WHERE doi IS NOT NULL;
        INSERT INTO service_tallies (doi, found, fetched_at) SELECT DISTINCT doi, 0, CASE WHEN id % 50 = 0 THEN ${now - 8 * DAY} ELSE ${now} END FROM items WHERE doi IS NOT NULL;`);
      const cutoffs = { papers: now - 30 * DAY, tallies: now - 7 * DAY, notices: now - DAY };
      const t2 = performance.now();
      const found = opened.enrichment.enqueueStale(cutoffs, 2000);
      const ms = performance.now() - t2;
      log(`${n} items: ${found.run?.total ?? 0} stale DOIs queued in ${ms.toFixed(0)} ms`);
      metrics.push({
        metric: `Find and queue stale data (${n.toLocaleString('en')} items, 2% stale, limit 2,000)`,
        value: Math.round(ms),
        unit: 'ms',
      });
    } finally {
      opened.close();
    }
    return metrics;
  },
};

export default bench;
