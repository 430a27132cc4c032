// Capturing N ten-page PDFs (a DOI on the first page; no service, so each becomes a DOI placeholder,
// copied into the library folder by SHA-256) against the floor of the same work: pdf.js reading the
// same first three pages of the same files in-process, with nothing stored. Alternated in one run,
// as a ratio. pdftotext (poppler) would be the outside baseline; it is not installed on this machine.
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchCase, BenchMetric } from '../harness';

const bench: BenchCase = {
  name: 'pdf-capture',
  description: 'capture of N ten-page PDFs (worker, checksum, store, library) against raw pdf.js extraction of the same pages',
  async run({ tmpDir, quick, log }) {
    const { makePdf, bodyLines } = await import('../../helpers/pdfs');
    const { extractPdf } = await import('../../../electron/core/pdf/extract');
    const { capturePdfs } = await import('../../../electron/core/pdf/capture');
    const { PdfReader } = await import('../../../electron/core/pdf/run-in-worker');
    const { LibraryClient } = await import('../../../electron/core/library/client');
    const n = quick ? 20 : 1000;
    const files: string[] = [];
    for (let i = 0; i < n; i++) {
      const pages = Array.from({ length: 10 }, (_, p) => (p === 0 ? [`https://doi.org/10.5555/bench.${i}`, ...bodyLines(i, 30)] : bodyLines(i * 10 + p, 40)));
      const file = join(tmpDir, `paper-${i}.pdf`);
      writeFileSync(file, await makePdf({ title: `Benchmark paper number ${i}`, byline: 'A. Author, B. Author', pages }));
      files.push(file);
    }
    const reader = new PdfReader({ timeLimitMs: 60_000 });
    // Warm both (the worker's start and pdf.js's load are paid once per session, not per file).
    await reader.read(new Uint8Array(await readFile(files[0]!)), 3);
    await extractPdf(new Uint8Array(await readFile(files[0]!)), { maxPages: 3 });
    // One round: 1,000 ten-page PDFs take minutes on this machine, and the two sides alternate per run.
    const rounds = 1;
    const capture: number[] = [];
    const floor: number[] = [];
    try {
      for (let r = 0; r < rounds; r++) {
        let t = performance.now();
        for (const f of files) await extractPdf(new Uint8Array(await readFile(f)), { maxPages: 3 });
        floor.push(performance.now() - t);
        const lib = await LibraryClient.start({ file: join(tmpDir, `lib-${r}.sqlite`) });
        try {
          t = performance.now();
          const reports = await capturePdfs(files, { library: lib, service: null, reader }, { mode: 'copy', storeDir: join(tmpDir, `store-${r}`) });
          capture.push(performance.now() - t);
          const added = reports.filter((x) => x.status === 'added').length;
          if (added !== n) throw new Error(`only ${added} of ${n} PDFs were captured: ${JSON.stringify(reports.find((x) => x.status !== 'added'))}`);
        } finally {
          await lib.close();
        }
      }
    } finally {
      await reader.close();
    }
    const c = Math.min(...capture);
    const f = Math.min(...floor);
    log(`${n} PDFs: capture ${(c / 1000).toFixed(1)} s, raw pdf.js ${(f / 1000).toFixed(1)} s`);
    const perThousand = (c / n) * 1000;
    const metrics: BenchMetric[] = [
      { metric: `capture of ${n} ten-page PDFs (worker, SHA-256, copy, library)`, value: c / 1000, unit: 's', note: `${(c / n).toFixed(0)} ms per PDF` },
      { metric: `raw pdf.js text of the same first 3 pages, in-process (floor)`, value: f / 1000, unit: 's' },
      { metric: 'capture / raw pdf.js', value: c / f, unit: 'ratio' },
      { metric: 'capture of 1,000 ten-page PDFs (projected from this run)', value: perThousand / 1000, unit: 's', ...(quick ? {} : { target: '≤ 60 s', pass: perThousand <= 60_000 }) },
    ];
    return metrics;
  },
};

export default bench;
