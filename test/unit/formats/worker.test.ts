// The worker-thread path the core uses for big imports: same results as in-thread parsing, items
// streamed in chunks, whole-file failures as CoreErrors, and the thread that called it never blocked.
// From sources the worker entry is worker.ts loaded through tsx; bundled, it is formats-worker.js.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile, importText } from '../../../electron/core/formats';
import { importInWorker } from '../../../electron/core/formats/run-in-worker';
import { generateBibtex } from './corpus';
import { tempDir } from '../../helpers/tmp';

const FIXTURES = join(import.meta.dirname, '../../fixtures/formats');

describe('importInWorker', () => {
  it('gives the same result as parsing in the thread, from a path', async () => {
    const path = join(FIXTURES, 'library.bib');
    const inWorker = await importInWorker({ kind: 'path', path });
    const inThread = importFile(path);
    expect(inWorker.items).toEqual(inThread.items);
    expect(inWorker.errors).toEqual(inThread.errors);
    expect(inWorker.count).toBe(13);
    expect(inWorker.parseMs).toBeGreaterThan(0);
  });

  it('streams items in chunks while the calling thread stays responsive', async () => {
    const text = generateBibtex({ entries: 5000, seed: 11 });
    const chunks: number[] = [];
    // Turns of this thread's event loop, counted by a timer, and how many had passed when each chunk
    // arrived. A parse on this thread, or one whose chunks are only posted at its end, hands every
    // chunk over within one turn; a parse in a worker lets this thread's timers run between chunks.
    // Counted rather than timed: a wall-clock bound on the longest stall (250 ms) failed whenever the
    // shared 2-core machine was busy, though nothing here was blocked.
    let turns = 0;
    const turnsAtChunk: number[] = [];
    const ticker = setInterval(() => turns++, 1);
    try {
      const result = await importInWorker(
        { kind: 'bytes', bytes: new TextEncoder().encode(text) },
        {
          format: 'bibtex',
          chunkSize: 250,
          onItems: (c) => {
            chunks.push(c.length);
            turnsAtChunk.push(turns);
          },
        },
      );
      expect(result.items).toEqual([]);
      expect(result.count).toBe(5000);
      expect(result.encoding).toBe('utf-8');
    } finally {
      clearInterval(ticker);
    }
    expect(chunks.reduce((a, b) => a + b, 0)).toBe(5000);
    expect(Math.max(...chunks)).toBe(250);
    expect(turnsAtChunk.at(-1)! - turnsAtChunk[0]!).toBeGreaterThan(0);
  });

  it('reports whole-file problems as errors with codes', async () => {
    await expect(importInWorker({ kind: 'text', text: '\u0000\u0001\u0002 binary' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/binary/),
    });
    await expect(importInWorker({ kind: 'path', path: join(FIXTURES, 'missing.bib') })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const dir = tempDir('citewise-formats-');
    try {
      const big = join(dir.path, 'big.bib');
      writeFileSync(big, generateBibtex({ entries: 100 }));
      await expect(importInWorker({ kind: 'path', path: big }, { limits: { maxBytes: 1000 } })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/import limit/),
      });
    } finally {
      dir.remove();
    }
  });

  it('can be cancelled', async () => {
    const controller = new AbortController();
    const pending = importInWorker(
      { kind: 'text', text: generateBibtex({ entries: 2000 }) },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('keeps entry errors and warnings with their lines', async () => {
    const text = '@misc{a, title={A}}\n@misc{b, title={B}\n@misc{c, title=undefinedmacro}';
    const r = await importInWorker({ kind: 'text', text });
    expect(r).toMatchObject({ errors: importText(text).errors, warnings: importText(text).warnings, count: 2 });
  });
});
