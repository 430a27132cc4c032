// `citewise styles` and `export --style ID`: a style added from a .csl file is checked, kept in the
// data folder and used by later commands; a bad file is refused with its reason and changes nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, run, tempDir } from './helpers';

const TINY_LAB = join(__dirname, '..', '..', 'fixtures', 'cite', 'tiny-lab.csl');
let data: ReturnType<typeof tempDir>;

beforeAll(async () => {
  data = tempDir();
  expect((await run(data.path, 'import', join(FIXTURES, 'library.bib'))).code).toBe(0);
});
afterAll(() => data?.remove());

describe('citewise styles', () => {
  it('adds a style from a .csl file, exports with it in a later command, and removes it', async () => {
    const added = await run(data.path, 'styles', 'add', TINY_LAB);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('added "Tiny Lab Style" as tiny-lab');
    const list = JSON.parse((await run(data.path, 'styles', '--json')).stdout) as {
      styles: { id: string; builtIn: boolean }[];
      skipped: unknown[];
    };
    expect(list.styles.map((s) => s.id)).toEqual([
      'apa',
      'ieee',
      'mla',
      'ama',
      'chicago',
      'harvard',
      'vancouver',
      'bibtex',
      'tiny-lab',
    ]);
    expect(list.styles.at(-1)!.builtIn).toBe(false);
    expect(list.skipped).toEqual([]);

    const text = await run(data.path, 'export', '--format', 'text', '--style', 'tiny-lab', '--query', 'author:watson');
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('MOLECULAR STRUCTURE OF NUCLEIC ACIDS: A STRUCTURE FOR DEOXYRIBOSE NUCLEIC ACID (1953)\n');

    expect((await run(data.path, 'styles', 'remove', 'tiny-lab')).code).toBe(0);
    const gone = await run(data.path, 'export', '--format', 'text', '--style', 'tiny-lab');
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('citewise styles add FILE');
    expect((await run(data.path, 'styles', 'remove', 'tiny-lab')).code).toBe(1);
    expect((await run(data.path, 'styles', 'remove', 'apa')).stderr).toContain('built-in style');
  });

  it('refuses a file that is not a usable CSL style, says why, and keeps nothing', async () => {
    const bad = join(data.path, 'page.csl');
    writeFileSync(bad, '<html><body>not a style</body></html>');
    const r = await run(data.path, 'styles', 'add', bad, join(data.path, 'missing.csl'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('page.csl: not added: This is not a CSL style');
    expect(r.stderr).toContain('missing.csl: not added:');
    const list = JSON.parse((await run(data.path, 'styles', '--json')).stdout) as { styles: { id: string }[] };
    expect(list.styles).toHaveLength(8);
    expect((await run(data.path, 'styles', 'frob')).code).toBe(2);
    expect((await run(data.path, 'styles', 'add')).code).toBe(2);
  });

  it('skips a saved style that no longer passes the checks, and says which', async () => {
    writeFileSync(join(data.path, 'styles', 'broken.csl'), '<style>truncated');
    const r = await run(data.path, 'styles');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/broken\.csl was skipped: This is not a CSL style/);
    const used = await run(data.path, 'export', '--format', 'text', '--style', 'broken');
    expect(used.code).toBe(1);
    expect(used.stderr).toContain('the style "broken"');
  });
});

describe('citewise export --locale', () => {
  it('formats in any shipped CSL locale, and refuses one it does not ship', async () => {
    const de = await run(
      data.path,
      'export',
      '--format',
      'text',
      '--style',
      'chicago',
      '--locale',
      'de-DE',
      '--query',
      'author:watson',
    );
    expect(de.code).toBe(0);
    const en = await run(
      data.path,
      'export',
      '--format',
      'text',
      '--style',
      'chicago',
      '--locale',
      'en-US',
      '--query',
      'author:watson',
    );
    expect(en.code).toBe(0);
    expect(de.stdout).not.toBe(en.stdout);
    expect(de.stdout).toMatch(/ und |Nr\.|S\. /);
    const bad = await run(data.path, 'export', '--format', 'text', '--locale', 'xx-XX');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--locale must be a CSL locale Citewise ships');
    expect((await run(data.path, 'export', '--format', 'bibtex', '--locale', 'de-DE')).code).toBe(2);
  });
});
