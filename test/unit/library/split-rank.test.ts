// Ranking a broad search on two threads must give exactly the pages one thread gives: same rows, same
// order (score, then id), at every depth, with scope filters, and when the helper is gone.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLibrary, type OpenedLibrary } from '../../../electron/core/library/open';
import { workerEntry } from '../../../electron/core/worker-entry';
import { QUERIES } from '../../bench/cases/library-scale';
import { tempDir } from '../../helpers/tmp';
import { generateItems } from './helpers/generate-items';
import { clock } from './helpers/lib';

const RANK_WORKER = workerEntry(new URL('../../../electron/core/library/', import.meta.url).href, 'no-bundle.js', './rank-worker.ts', 'search helper');

let dir: ReturnType<typeof tempDir>;
let one: OpenedLibrary;
let two: OpenedLibrary;
let helperErrors: Error[];

function waitFor(check: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = (): void => {
      if (check()) return resolve();
      if (Date.now() - started > 30_000) return reject(new Error('the search helper did not start'));
      setTimeout(tick, 20);
    };
    tick();
  });
}

beforeAll(async () => {
  dir = tempDir('citewise-split-');
  const file = join(dir.path, 'citewise.sqlite');
  one = openLibrary(file, { now: clock(), skipIntegrityCheck: true });
  one.library.importItems(generateItems(4_000, 7));
  const thesis = one.library.createCollection('Thesis');
  one.library.addToCollection(thesis, one.library.list({ sort: { column: 'year', direction: 'desc' }, limit: 700 }).rows.map((r) => r.id));
  one.library.trashItems(one.library.list({ query: 'learning', limit: 40 }).rows.map((r) => r.id));
  helperErrors = [];
  // The same file, with a search helper and a low threshold, so most queries take the two-thread path.
  // The helper is never overtaken here, so every second half comes from it.
  two = openLibrary(file, { now: clock(), skipIntegrityCheck: true, rankWorker: RANK_WORKER, rankTakeBack: false, onRankWorkerError: (e) => helperErrors.push(e), paging: { splitMin: 20 } });
  await waitFor(() => two.ranker?.ready === true);
}, 60_000);

afterAll(() => {
  two?.close();
  one?.close();
  dir?.remove();
});

describe('ranking broad searches on two threads', () => {
  it('gives the same pages as one thread, for every benchmark query, at several depths and scopes', () => {
    const thesis = one.library.listCollections().find((c) => c.name === 'Thesis')!.id;
    let compared = 0;
    for (const query of [...QUERIES, 'learn', 'a', 'the OR of']) {
      for (const scope of [{}, { collectionId: thesis }, { trash: true }, { unfiled: true }]) {
        let cursorOne: string | null | undefined;
        let cursorTwo: string | null | undefined;
        for (let page = 0; page < 3; page++) {
          const a = one.library.list({ query, limit: 50, ...scope, ...(cursorOne ? { cursor: cursorOne } : {}) });
          const b = two.library.list({ query, limit: 50, ...scope, ...(cursorTwo ? { cursor: cursorTwo } : {}) });
          expect(b.rows.map((r) => r.id), `${query} ${JSON.stringify(scope)} page ${page}`).toEqual(a.rows.map((r) => r.id));
          expect(b.rows).toEqual(a.rows);
          expect(b.nextCursor).toEqual(a.nextCursor);
          compared += a.rows.length;
          if (!a.nextCursor) break;
          cursorOne = a.nextCursor;
          cursorTwo = b.nextCursor;
        }
      }
    }
    expect(compared).toBeGreaterThan(2_000);
    expect(two.ranker!.sent).toBeGreaterThan(50);
    expect(two.ranker!.helped).toBe(two.ranker!.sent);
    expect(helperErrors).toEqual([]);
  });

  it('gives the same pages when this thread takes back halves the helper has not started', async () => {
    const three = openLibrary(join(dir.path, 'citewise.sqlite'), { now: clock(), skipIntegrityCheck: true, rankWorker: RANK_WORKER, paging: { splitMin: 20 } });
    try {
      await waitFor(() => three.ranker?.ready === true);
      for (const query of QUERIES) {
        expect(three.library.list({ query, limit: 100 }).rows.map((r) => r.id), query).toEqual(one.library.list({ query, limit: 100 }).rows.map((r) => r.id));
      }
      expect(three.ranker!.sent).toBeGreaterThan(10);
    } finally {
      three.close();
    }
  });

  it('still answers, the same, when the helper has stopped', async () => {
    const ranker = two.ranker!;
    await ranker.close();
    expect(ranker.ready).toBe(false);
    const sent = ranker.sent;
    for (const query of ['learning', 'climate OR ocean', 'prot year:>2000']) {
      expect(two.library.list({ query, limit: 100 }).rows.map((r) => r.id)).toEqual(one.library.list({ query, limit: 100 }).rows.map((r) => r.id));
    }
    expect(ranker.sent).toBe(sent);
  });
});
