// kill -9 during a 100,000-entry import, 20 times (quick: twice, 10,000 entries): after each kill the
// library passes integrity_check and holds all of that import or none of it.
import { join } from 'node:path';
import { killDuringImport } from '../../unit/library/helpers/kill-run';
import type { BenchCase } from '../harness';

const bench: BenchCase = {
  name: 'library-kill',
  description: 'kill -9 at a random moment of a 100,000-item import, 20 times: integrity_check and all-or-nothing',
  async run({ tmpDir, quick, log }) {
    const runs = quick ? 2 : 20;
    const n = quick ? 10_000 : 100_000;
    const file = join(tmpDir, 'citewise.sqlite');
    // Kill moments spread over the whole import; a first uninterrupted run measures how long that is.
    const started = performance.now();
    const full = await killDuringImport(file, n, 999, 3_600_000);
    const fullMs = performance.now() - started;
    if (!full.committed || full.integrity !== 'ok') throw new Error('the uninterrupted import failed');
    log(`an uninterrupted import of ${n} items takes ${(fullMs / 1000).toFixed(1)} s (with start-up)`);
    let ok = 0;
    let committed = 0;
    for (let run = 0; run < runs; run++) {
      const killAfter = Math.floor(Math.random() * fullMs);
      const o = await killDuringImport(file, n, 1000 + run, killAfter);
      const allOrNothing = o.itemsAfter === o.itemsBefore || o.itemsAfter === o.itemsBefore + n;
      if (o.integrity === 'ok' && allOrNothing) ok++;
      if (o.itemsAfter !== o.itemsBefore) committed++;
      log(`run ${run + 1}: killed after ${killAfter} ms, integrity ${o.integrity}, items ${o.itemsBefore} → ${o.itemsAfter}`);
    }
    return [
      { metric: `kill -9 runs with integrity_check ok and all-or-nothing (${n.toLocaleString('en')}-item import)`, value: ok, unit: 'count', target: `${runs} of ${runs}`, pass: ok === runs, note: `${committed} of the killed imports had committed before the kill` },
    ];
  },
};

export default bench;
