// Issue 18, point 6: tests that do not test durability do not wait on the disk. The library's
// default stays synchronous=FULL (every commit fsynced); the test helper opens with durability 'off'.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/core/library/database';
import { openLibrary } from '../../../electron/core/library/open';
import { tempDir } from '../../helpers/tmp';
import { testLibrary } from '../../unit/library/helpers/lib';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir('citewise-durability-');
});
afterEach(() => dir.remove());

const FULL = 2;
const OFF = 0;

describe('durability of commits', () => {
  it('is FULL by default, for the app, the CLI and the durability tests', () => {
    const db = openDatabase(join(dir.path, 'a.sqlite'));
    expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
    db.close();
    const lib = openLibrary(join(dir.path, 'b.sqlite'), { skipIntegrityCheck: true });
    expect(lib.db.pragma('synchronous', { simple: true })).toBe(FULL);
    lib.close();
  });

  it("is OFF only when asked for ('off'), as the unit tests' library helper does", () => {
    const db = openDatabase(join(dir.path, 'c.sqlite'), { durability: 'off' });
    expect(db.pragma('synchronous', { simple: true })).toBe(OFF);
    db.close();
    const t = testLibrary();
    try {
      expect(t.db.pragma('synchronous', { simple: true })).toBe(OFF);
    } finally {
      t.dispose();
    }
  });
});
