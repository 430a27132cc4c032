// Issue 41, point 7: a 4 MB PDF whose FlateDecode content stream inflates to 4 GiB took the process to
// 4.5 GB before its time limit ended it: pdf.js holds a decoded stream in one growing buffer, outside the
// heap the worker's resourceLimits bound. The PDF worker now caps the buffer one stream may need and how
// much the thread's buffers may grow for one document (expansion-cap.ts); a PDF over a cap is reported
// as "this PDF expands beyond N MB when read; its text was not read", and a captured one is still kept.
// An ordinary large PDF (one 12 MB text stream, 7 MB in the file) is read whole under the same caps.
// The PDFs are written here with node:zlib (pdf-bomb.ts).
import { existsSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturePdfs } from '../../../electron/core/pdf/capture';
import { DEFAULT_EXPANSION_CAPS } from '../../../electron/core/pdf/expansion-cap';
import { indexFulltext } from '../../../electron/core/pdf/fulltext';
import { PdfReader, type ReadOutcome } from '../../../electron/core/pdf/run-in-worker';
import { tempDir } from '../../helpers/tmp';
import { libraryDir } from '../enrich/helpers';
import { contentOfSize, inflatingTo, pdfWithContents, textContent } from './pdf-bomb';

const MiB = 1024 * 1024;
const firstPage = () => deflateSync(textContent(1, 40, 80, 'An ordinary first page'));

/** Reads `pdf` while sampling this process's resident memory; its growth over the read, in MiB. */
async function measured(reader: PdfReader, pdf: Uint8Array): Promise<{ out: ReadOutcome; grewMiB: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const out = await reader.read(pdf, 3);
    return { out, grewMiB: (peak - before) / MiB };
  } finally {
    clearInterval(sample);
  }
}

const failure = (out: ReadOutcome) => (out.ok ? null : out.failure);

let files: ReturnType<typeof tempDir>;
beforeAll(() => {
  files = tempDir('citewise-pdf-memory-');
});
afterAll(() => files?.remove());

describe('a PDF cannot take more memory than its caps allow', { timeout: 400_000 }, () => {
  it('stops a 4 MB decompression bomb (4 GiB inflated) at the stream cap, far below the memory it took', async () => {
    expect(DEFAULT_EXPANSION_CAPS).toEqual({ streamBytes: 128 * MiB, documentBytes: 512 * MiB });
    const bomb = pdfWithContents([firstPage(), inflatingTo(4096 * MiB)]);
    expect(bomb.length).toBeLessThan(5 * MiB);
    // The time limit is far off: the cap, not the clock, ends this read.
    const reader = new PdfReader({ timeLimitMs: 300_000 });
    try {
      const { out, grewMiB } = await measured(reader, bomb);
      expect(failure(out)).toEqual({
        code: 'too-large',
        message: 'this PDF expands beyond 128 MB when read; its text was not read',
      });
      // One 128 MiB buffer, the halves it grew through, and pdf.js's heap: not gigabytes (before: 4.5 GB).
      expect(grewMiB).toBeLessThan(1024);
      // The reader goes on with the next file (in a fresh worker: the bomb's buffers are gone with the old one).
      const next = await reader.read(pdfWithContents([firstPage()]), 3);
      expect(next.ok && next.facts.title).toBe('An ordinary first page');
    } finally {
      await reader.close();
    }
  });

  it('reads an ordinary large PDF (a 12 MB text stream, 7 MB in the file) whole under the same caps', async () => {
    const large = pdfWithContents([firstPage(), deflateSync(textContent(2, 6000, 2000))]);
    expect(large.length).toBeGreaterThan(6 * MiB);
    const reader = new PdfReader({ timeLimitMs: 300_000 });
    try {
      const { out } = await measured(reader, large);
      expect(failure(out)).toBeNull();
      if (!out.ok) return;
      expect(out.facts.pageCount).toBe(2);
      expect(out.facts.title).toBe('An ordinary first page');
      expect(out.facts.pages[1]!.text.length).toBeGreaterThan(10_000);
      expect(out.facts.pages[1]!.text).toMatch(/^[a-z]{6} [a-z]{6} /);
    } finally {
      await reader.close();
    }
  });

  it('a stream may decode to exactly the stream cap, not a byte more', async () => {
    const reader = new PdfReader({
      timeLimitMs: 300_000,
      expansion: { streamBytes: 8 * MiB, documentBytes: 256 * MiB },
    });
    try {
      const outcomes: [number, unknown][] = [];
      for (const size of [8 * MiB - 1, 8 * MiB, 8 * MiB + 1]) {
        const out = await reader.read(pdfWithContents([contentOfSize(size, 'At the edge')]), 3);
        outcomes.push([size - 8 * MiB, out.ok ? out.facts.pages[0]!.text : out.failure]);
      }
      expect(outcomes).toEqual([
        [-1, 'At the edge'],
        [0, 'At the edge'],
        [1, { code: 'too-large', message: 'this PDF expands beyond 8 MB when read; its text was not read' }],
      ]);
    } finally {
      await reader.close();
    }
  });

  it('the document cap bounds what the buffers hold together, below a stream cap that would allow more', async () => {
    const reader = new PdfReader({
      timeLimitMs: 300_000,
      expansion: { streamBytes: 64 * MiB, documentBytes: 16 * MiB },
    });
    try {
      const small = await reader.read(pdfWithContents([contentOfSize(4 * MiB, 'Four')]), 3);
      expect(small.ok && small.facts.pages[0]!.text).toBe('Four');
      const big = await reader.read(pdfWithContents([contentOfSize(12 * MiB, 'Twelve')]), 3);
      expect(failure(big)).toEqual({
        code: 'too-large',
        message: 'this PDF expands beyond 16 MB when read; its text was not read',
      });
      // A cap met by one document is not held against the next.
      const again = await reader.read(pdfWithContents([contentOfSize(4 * MiB, 'Four again')]), 3);
      expect(again.ok && again.facts.pages[0]!.text).toBe('Four again');
    } finally {
      await reader.close();
    }
  });

  it('a captured bomb is kept and attached, its text unread; the full-text index notes why', async () => {
    const reader = new PdfReader({
      timeLimitMs: 300_000,
      expansion: { streamBytes: 8 * MiB, documentBytes: 256 * MiB },
    });
    const dir = libraryDir();
    const lib = await dir.open();
    try {
      const path = join(files.path, 'expanding.pdf');
      writeFileSync(path, pdfWithContents([firstPage(), inflatingTo(256 * MiB)]));
      const [report] = await capturePdfs(
        [path],
        { library: lib, service: null, reader },
        { mode: 'copy', storeDir: join(dir.dir, 'attachments') },
      );
      expect(report!.status).toBe('added');
      if (report!.status !== 'added') return;
      expect(report!.evidence[0]).toEqual({
        method: 'none',
        matched: '',
        detail: 'this PDF expands beyond 8 MB when read; its text was not read',
      });
      const item = await lib.lib.getItem(report!.itemId);
      expect(item.attachments).toHaveLength(1);
      expect(existsSync(item.attachments[0]!.path)).toBe(true);

      const indexed = await indexFulltext(lib.fulltext, { reader });
      expect(indexed.files.map((f) => [f.status, f.note])).toEqual([
        ['unreadable', 'not searchable: this PDF expands beyond 8 MB when read; its text was not read'],
      ]);
      expect((await lib.lib.getItem(report!.itemId)).attachments).toHaveLength(1);
    } finally {
      await lib.close();
      dir.remove();
      await reader.close();
    }
  });
});
