import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp';
import { killDuringImport } from './helpers/kill-run';

// The full 20-run version is the library-kill benchmark (test/bench/cases/library-kill.ts).
describe('kill -9 during a 100,000-item import', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir('citewise-kill-');
  });
  afterAll(() => dir.remove());

  it('leaves an intact library holding all of the import or none of it, 3 times', { timeout: 120_000 }, async () => {
    const file = join(dir.path, 'citewise.sqlite');
    for (let run = 0; run < 3; run++) {
      const outcome = await killDuringImport(file, 100_000, 100 + run, 300 + Math.floor(Math.random() * 1500));
      expect(outcome.integrity).toBe('ok');
      expect([outcome.itemsBefore, outcome.itemsBefore + 100_000]).toContain(outcome.itemsAfter);
      if (outcome.killed) expect(outcome.itemsAfter).toBe(outcome.itemsBefore);
    }
  });
});
