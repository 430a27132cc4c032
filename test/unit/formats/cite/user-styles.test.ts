// UserStyles: a style the user adds is kept as a file, written atomically; a failed save leaves
// neither a registration nor a stray file behind.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCiteFormatter, directoryAssets, type CiteFormatter } from '../../../../electron/core/formats/cite';
import { UserStyles } from '../../../../electron/core/formats/cite/user-styles';
import { buildCslDir, ROOT } from './helpers';

const XML = readFileSync(join(ROOT, 'test/fixtures/cite/tiny-lab.csl'), 'utf8');
let f: CiteFormatter;
let dir: string;

beforeAll(() => {
  f = createCiteFormatter({ assets: directoryAssets(buildCslDir()), workers: 0 });
  dir = mkdtempSync(join(tmpdir(), 'citewise-user-styles-'));
});
afterAll(async () => {
  await f.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('UserStyles', () => {
  it('saves an added style as <id>.csl and loads it into a new formatter', async () => {
    const styles = new UserStyles(join(dir, 'saved'));
    expect(styles.add(f, XML)).toMatchObject({ id: 'tiny-lab', builtIn: false });
    expect(readdirSync(styles.dir)).toEqual(['tiny-lab.csl']);
    expect(readFileSync(join(styles.dir, 'tiny-lab.csl'), 'utf8')).toBe(XML);
    const fresh = createCiteFormatter({ assets: directoryAssets(buildCslDir()), workers: 0 });
    try {
      expect(styles.loadInto(fresh)).toEqual([]);
      expect(fresh.styles().map((s) => s.id)).toContain('tiny-lab');
    } finally {
      await fresh.close();
    }
    styles.remove(f, 'tiny-lab');
  });

  it('a save that fails says where, takes the registration back and leaves no file behind', () => {
    const styles = new UserStyles(join(dir, 'blocked'));
    // A folder where the style's file would go: the final rename fails.
    mkdirSync(join(styles.dir, 'tiny-lab.csl'), { recursive: true });
    expect(() => styles.add(f, XML)).toThrow(`The style could not be saved in ${styles.dir}`);
    expect(f.styles().map((s) => s.id)).not.toContain('tiny-lab');
    expect(readdirSync(styles.dir)).toEqual(['tiny-lab.csl']);
  });
});
