// The local service with its default corpus: from spawning `test/service/main.ts` to its "listening"
// line, cold (the corpus is generated) and warm (the cached corpus is reused).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { percentile, type BenchCase } from '../harness';
import { spawnService } from '../../service/bench/client';
import { DEFAULT_OPTIONS } from '../../service/options';

const bench: BenchCase = {
  name: 'service-startup',
  description: `local service start-up with the default corpus (${DEFAULT_OPTIONS.papers} papers): process spawn → listening`,
  async run({ root, tmpDir, quick, log }) {
    const runs = quick ? 1 : 5;
    const db = join(tmpDir, 'default.db');
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      rmSync(db, { force: true });
      const a = await spawnService(root, ['--db', db, '--quiet']);
      cold.push(a.readyMs);
      await a.stop();
      const b = await spawnService(root, ['--db', db, '--quiet']);
      warm.push(b.readyMs);
      await b.stop();
      log(`run ${i + 1}: cold ${Math.round(a.readyMs)} ms, warm ${Math.round(b.readyMs)} ms`);
    }
    cold.sort((x, y) => x - y);
    warm.sort((x, y) => x - y);
    const coldMax = cold[cold.length - 1]!;
    return [
      {
        metric: 'cold start, corpus generated (worst run)',
        value: coldMax / 1000,
        unit: 's',
        target: '< 3 s',
        pass: coldMax < 3000,
        note: `${runs} runs, median ${(percentile(cold, 50) / 1000).toFixed(2)} s`,
      },
      {
        metric: 'warm start, cached corpus (median)',
        value: percentile(warm, 50) / 1000,
        unit: 's',
        target: '< 3 s',
        pass: percentile(warm, 50) < 3000,
      },
    ];
  },
};

export default bench;
