// prepareBibliography: the worker builds a style's bibliography engine before the items arrive (the
// CLI does it while the library reads them, docs/cite-cold.md). What follows must print what a fresh
// engine prints, and must run in that worker even below the worker threshold, where the engine waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCiteFormatter,
  directoryAssets,
  type CiteFormatter,
  type CslAssets,
} from '../../../../electron/core/formats/cite';
import { WorkerPool } from '../../../../electron/core/formats/cite/pool';
import { locateWorker } from '../../../../electron/core/worker-entry';
import { buildCslDir, corpus } from './helpers';

let assets: CslAssets;
let local: CiteFormatter;
const items = corpus();

beforeAll(() => {
  assets = directoryAssets(buildCslDir());
  local = createCiteFormatter({ assets, workers: 0 });
});
afterAll(async () => {
  await local.close();
});

describe('prepareBibliography', () => {
  it(
    'builds the engine in the worker: a prepared style renders there below the threshold, byte for byte as one thread does; an unprepared one stays in this thread',
    { timeout: 120_000 },
    async () => {
      expect(items.length).toBeLessThan(100);
      const f = createCiteFormatter({ assets, workers: 1 });
      try {
        await f.prepareBibliography({ style: 'apa', format: 'html' });
        for (const format of ['html', 'text'] as const) {
          const bib = await f.formatBibliography(items, { style: 'apa', format });
          expect(bib.document).toBe((await local.formatBibliography(items, { style: 'apa', format })).document);
        }
        // Nothing rendered in this thread: both formats went to the prepared engine (one per style and locale).
        expect(f.stats()).toMatchObject({ engines: 0, rendered: 0 });
        const ieee = await f.formatBibliography(items, { style: 'ieee' });
        expect(ieee.document).toBe((await local.formatBibliography(items, { style: 'ieee' })).document);
        expect(f.stats()).toMatchObject({ engines: 1, rendered: items.length });
      } finally {
        await f.close();
      }
    },
  );

  it('builds nothing for bibtex or without workers, and refuses an unknown style as a bibliography would', async () => {
    const f = createCiteFormatter({ assets, workers: 1 });
    const oneThread = createCiteFormatter({ assets, workers: 0 });
    try {
      await f.prepareBibliography({ style: 'bibtex' });
      await oneThread.prepareBibliography({ style: 'apa' });
      expect(oneThread.stats().engines).toBe(0);
      await expect(f.prepareBibliography({ style: 'no-such-style' })).rejects.toThrow(/no-such-style/);
      await expect(f.prepareBibliography({ style: 'apa', locale: 'xx-YY' })).rejects.toThrow(
        /No CSL locale for "xx-YY"/,
      );
    } finally {
      await f.close();
      await oneThread.close();
    }
  });
});

describe('WorkerPool.start', () => {
  it("starts a slot's worker once, before any job, which then serves the first job; nothing after close", async () => {
    let spawned = 0;
    const pool = new WorkerPool(2, () => {
      spawned++;
      return locateWorker('cite-worker');
    });
    pool.start(1);
    expect(spawned).toBe(1);
    pool.start(1);
    const stats = await pool.run(1, () => ({ kind: 'stats' }));
    expect(stats).toMatchObject({ kind: 'stats', value: { engines: 0 } });
    expect(spawned).toBe(1);
    await pool.close();
    pool.start(0);
    expect(spawned).toBe(1);
  }, 60_000);
});
