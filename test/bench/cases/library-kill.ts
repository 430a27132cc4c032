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
    // Kill moments spread over the whole import: its length is taken from the last import that got to
    // commit (the library grows, and the machine's load changes, so a first measurement goes stale).
    const full = await killDuringImport(file, n, 999, 3_600_000);
    if (!full.committed || full.integrity !== 'ok' || full.importMs === null)
      throw new Error('the uninterrupted import failed');
    let importMs = full.importMs;
    log(`an uninterrupted import of ${n} items takes ${(importMs / 1000).toFixed(1)} s`);
    let ok = 0;
    let committed = 0;
    for (let run = 0; run < runs; run++) {
      const killAfter = Math.floor(Math.random() * importMs);
      const o = await killDuringImport(file, n, 1000 + run, killAfter);
      if (o.importMs !== null) importMs = o.importMs;
      const allOrNothing = o.itemsAfter === o.itemsBefore || o.itemsAfter === o.itemsBefore + n;
      if (o.integrity === 'ok' && allOrNothing) ok++;
      if (o.itemsAfter !== o.itemsBefore) committed++;
      log(
        `run ${run + 1}: kill after ${killAfter} ms${o.committed ? ' (the import had committed)' : ''}, integrity ${o.integrity}, items ${o.itemsBefore} → ${o.itemsAfter}`,
      );
    }
    return [
      {
        metric: `kill -9 runs with integrity_check ok and all-or-nothing (${n.toLocaleString('en')}-item import)`,
        value: ok,
        unit: 'count',
        target: `${runs} of ${runs}`,
        pass: ok === runs,
        note: `${runs - committed} killed inside the transaction, ${committed} after it had committed`,
      },
    ];
  },
};

export default bench;
