// Full-text search over the pages of N ten-page PDFs (the pdf-capture case's files, each with a
// marker word on one page): `fulltext:` queries through the library worker (the paged list, its
// count and the page snippets `citewise search` prints) against a scan of the same page texts held in
// memory (what `grep -c` over the extracted text does), alternated in one run, as a ratio of p95s.
// Also reported: indexing time (every page read in the PDF worker and stored). N is 1,000 by default;
// PDF_FULLTEXT_N sets another (the run's size is in the metric names).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { percentile, type BenchCase, type BenchMetric } from '../harness';

const bench: BenchCase = {
  name: 'pdf-fulltext',
  description:
    'fulltext: search p95 over the pages of N ten-page PDFs (FTS5, via the library worker) against a scan of the same text in memory',
  async run({ tmpDir, quick, log }) {
    const { makePdf, bodyLines } = await import('../../helpers/pdfs');
    const { indexFulltext } = await import('../../../electron/core/pdf/fulltext');
    const { PdfReader } = await import('../../../electron/core/pdf/run-in-worker');
    const { LibraryClient } = await import('../../../electron/core/library/client');
    const n = quick ? 20 : Number(process.env.PDF_FULLTEXT_N ?? 1000);
    if (!Number.isInteger(n) || n < 10)
      throw new Error(`PDF_FULLTEXT_N must be a whole number of at least 10 (got "${process.env.PDF_FULLTEXT_N}")`);
    const lib = await LibraryClient.start({ file: join(tmpDir, 'lib.sqlite') });
    const reader = new PdfReader({ timeLimitMs: 60_000 });
    try {
      // The files and their items (stored as a capture stores them; capture itself is the pdf-capture case).
      let t = performance.now();
      for (let i = 0; i < n; i++) {
        const markerPage = i % 10;
        const pages = Array.from({ length: 10 }, (_, p) => {
          const body =
            p === 0 ? [`https://doi.org/10.5555/bench.${i}`, ...bodyLines(i, 30)] : bodyLines(i * 10 + p, 40);
          return p === markerPage
            ? [...body.slice(0, 20), `the marker term zq${i}x appears once`, ...body.slice(20)]
            : body;
        });
        const bytes = await makePdf({ title: `Benchmark paper number ${i}`, byline: 'A. Author, B. Author', pages });
        const file = join(tmpDir, `paper-${i}.pdf`);
        writeFileSync(file, bytes);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        await lib.lib.capturePdf({
          csl: { id: `b${i}`, type: 'article-journal', title: `Benchmark paper number ${i}` },
          attachment: { path: file, sha256, size: bytes.byteLength, stored: 'linked' },
          method: 'none',
          state: 'needs-review',
          confidence: 0,
          evidence: [],
          candidates: [],
        });
      }
      log(`${n} PDFs written and attached in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      // Warm the worker (its start and pdf.js's load are paid once per session, not per file).
      await reader.read(new Uint8Array(Buffer.from('%PDF-1.4\n')), 1);
      t = performance.now();
      const run = await indexFulltext(lib.fulltext, { reader });
      const indexMs = performance.now() - t;
      const summary = await lib.fulltext.summary();
      if (summary.byStatus.indexed !== n || summary.pages !== n * 10)
        throw new Error(
          `indexed ${summary.byStatus.indexed} of ${n} PDFs, ${summary.pages} pages: ${JSON.stringify(run.files.find((f) => f.status !== 'indexed'))}`,
        );
      log(`indexed ${n} PDFs (${summary.pages} pages) in ${(indexMs / 1000).toFixed(1)} s`);

      // The scan's text: the same pages, as extracted, in memory.
      const texts = (await lib.fulltext.pageTexts()).map((p) => p.toLowerCase());
      // A unique word (one page), a phrase on many pages, a word on every page.
      const terms = (k: number): { query: string; needle: string } => {
        switch (k % 3) {
          case 0: {
            const i = (k * 37) % n;
            return { query: `fulltext:zq${i}x`, needle: `zq${i}x` };
          }
          case 1:
            return { query: 'fulltext:"quantum spin"', needle: 'quantum spin' };
          default:
            return { query: 'fulltext:"protein folding"', needle: 'protein folding' };
        }
      };
      const rounds = quick ? 30 : 150;
      const fts: number[] = [];
      const scan: number[] = [];
      let agree = 0;
      for (let k = 0; k < rounds; k++) {
        const { query, needle } = terms(k);
        let s = performance.now();
        const page = await lib.listing.list({ query, limit: 50 });
        const total = await lib.listing.count({ query });
        await lib.fulltext.hits(
          query,
          page.rows.map((r) => r.id),
        );
        fts.push(performance.now() - s);
        s = performance.now();
        let pagesFound = 0;
        for (const text of texts) if (text.includes(needle)) pagesFound++;
        scan.push(performance.now() - s);
        if (k % 3 === 0 && total === 1 && pagesFound === 1) agree++;
      }
      if (agree !== Math.ceil(rounds / 3))
        throw new Error(`the unique terms were found on ${agree} of ${Math.ceil(rounds / 3)} rounds`);
      fts.sort((a, b) => a - b);
      scan.sort((a, b) => a - b);
      const p95 = percentile(fts, 95);
      const scanP95 = percentile(scan, 95);
      log(
        `fulltext: p95 ${p95.toFixed(1)} ms (median ${percentile(fts, 50).toFixed(1)}), in-memory scan p95 ${scanP95.toFixed(1)} ms`,
      );
      const metrics: BenchMetric[] = [
        {
          metric: `fulltext: search p95 over ${n} ten-page PDFs (list + count + snippets, via the worker)`,
          value: p95,
          unit: 'ms',
          ...(quick || n < 1000 ? {} : { target: '≤ 20 ms', pass: p95 <= 20 }),
          note: `median ${percentile(fts, 50).toFixed(1)} ms, ${rounds} queries`,
        },
        { metric: `scan of the same ${n * 10} pages in memory (grep -c), p95`, value: scanP95, unit: 'ms' },
        { metric: 'fulltext: search / in-memory scan (p95)', value: p95 / scanP95, unit: 'ratio' },
        {
          metric: `indexing ${n} ten-page PDFs (every page, PDF worker, store)`,
          value: indexMs / 1000,
          unit: 's',
          note: `${(indexMs / n).toFixed(0)} ms per PDF`,
        },
      ];
      return metrics;
    } finally {
      await reader.close();
      await lib.close();
    }
  },
};

export default bench;
