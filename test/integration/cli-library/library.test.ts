// The library commands of the CLI, called directly against a temporary data directory.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { FIXTURES, run, tempDir } from './helpers';

const BIB = join(FIXTURES, 'library.bib');
const RIS = join(FIXTURES, 'sample.ris');

let data: ReturnType<typeof tempDir>;
// The user's own folder for exports: the library's folder is refused as an export target.
let mine: ReturnType<typeof tempDir>;
beforeEach(() => {
  data = tempDir();
  mine = tempDir();
});
afterEach(() => {
  data.remove();
  mine.remove();
});

describe('citewise import', () => {
  it('imports, and a second import of the same file adds nothing', async () => {
    const first = await run(data.path, 'import', BIB, '--json');
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as {
      added: number;
      duplicates: number;
      errors: number;
      files: { format: string }[];
    };
    expect(report.added).toBe(13);
    expect(report.files[0]!.format).toBe('bibtex');

    const again = await run(data.path, 'import', BIB);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('0 items added, 13 duplicates skipped');
    expect(again.stdout).toMatch(
      /library\.bib:10: duplicate watson1953 \(the same entry as imported before as item 1\)/,
    );

    const stats = JSON.parse((await run(data.path, 'stats', '--json')).stdout) as { items: number };
    expect(stats.items).toBe(13);
  });

  it('reads Title Case titles as Settings → Import says, or as --sentence-case says', async () => {
    const bib = join(data.path, 'titles.bib');
    writeFileSync(
      bib,
      '@article{a, title = {Deep Learning for {DNA} Sequencing}}\n@article{b, title = {Keira Drake Reads the Book of the Year}}\n',
    );
    const titles = async (dir = data.path): Promise<string[]> => {
      const out = join(mine.path, 'out.json');
      expect((await run(dir, 'export', '--format', 'csl-json', '-o', out)).code).toBe(0);
      return (JSON.parse(readFileSync(out, 'utf8')) as { title: string }[]).map((i) => i.title).sort();
    };
    // The default, "protected": only the title that braces its proper nouns.
    expect((await run(data.path, 'import', bib)).code).toBe(0);
    expect(await titles()).toEqual([
      'Deep learning for <span class="nocase">DNA</span> sequencing',
      'Keira Drake Reads the Book of the Year',
    ]);
    // The setting as the app stored it in the library.
    const db = new Database(join(data.path, 'citewise.sqlite'));
    db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('sentenceCase', '\"off\"')").run();
    db.close();
    writeFileSync(bib, '@article{c, title = {Deep Learning for {RNA} Sequencing}}\n');
    expect((await run(data.path, 'import', bib)).code).toBe(0);
    expect(await titles()).toContain('Deep Learning for <span class="nocase">RNA</span> Sequencing');
    const other = tempDir();
    try {
      const r = await run(other.path, 'import', bib, '--sentence-case', 'always');
      expect(r.code).toBe(0);
      expect(await titles(other.path)).toEqual(['Deep learning for <span class="nocase">RNA</span> sequencing']);
      const bad = await run(other.path, 'import', bib, '--sentence-case', 'sometimes');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--sentence-case must be one of protected, always, off, not "sometimes"');
    } finally {
      other.remove();
    }
  });

  it('reports bad entries with file:line and keeps the good ones', async () => {
    const file = join(data.path, 'mixed.bib');
    writeFileSync(
      file,
      [
        '@article{good1, title = {A good entry}, author = {Lovelace, Ada}, year = 1843}',
        '',
        '@article{broken, title = {Never closed',
        '',
        '@book{good2, title = {Another good one}, author = {Babbage, Charles}, year = 1864}',
        '',
      ].join('\n'),
    );
    const r = await run(data.path, 'import', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/mixed\.bib \(bibtex\): \d+ items? added/);
    expect(r.stderr).toMatch(/mixed\.bib:3: /);
    expect(r.stderr).toMatch(/with errors (was|were) not imported/);
    const found = await run(data.path, 'search', 'Lovelace', '--json');
    expect((JSON.parse(found.stdout) as { total: number }).total).toBe(1);
  });

  it('exits 1 when a file cannot be read at all, 2 without a file', async () => {
    const missing = await run(data.path, 'import', join(data.path, 'nope.bib'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.bib: not imported');
    const binary = join(data.path, 'binary.bib');
    writeFileSync(binary, Buffer.from([0, 1, 2, 3, 0, 0, 255, 0, 7, 8]));
    expect((await run(data.path, 'import', binary)).code).toBe(1);
    expect((await run(data.path, 'import')).code).toBe(2);
    expect((await run(data.path, 'import', BIB, '--bogus')).code).toBe(2);
  });
});

describe('citewise search and export', () => {
  beforeEach(async () => {
    expect((await run(data.path, 'import', BIB, RIS)).code).toBe(0);
  });

  it('finds items with the fielded query language', async () => {
    const r = await run(data.path, 'search', 'author:watson', '--json');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as {
      total: number;
      items: { citationKey: string; year: number; doi: string }[];
    };
    expect(result.total).toBe(1);
    expect(result.items[0]).toMatchObject({ citationKey: 'watson1953', year: 1953, doi: '10.1038/171737a0' });
    const text = await run(data.path, 'search', 'year:<1935');
    expect(text.stdout).toContain('Goedel1931');
    expect(text.stdout).not.toContain('<span');
  });

  it('exits 2 on a malformed query, with the position', async () => {
    const r = await run(data.path, 'search', 'title:(unclosed');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/malformed query at position \d+/);
    expect(r.stderr).toContain('^');
    expect((await run(data.path, 'export', '--query', 'year:')).code).toBe(2);
  });

  it('round-trips through BibTeX: keys kept, re-import adds nothing', async () => {
    const out = join(mine.path, 'out.bib');
    const r = await run(data.path, 'export', '--format', 'bibtex', '-o', out);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('@article{watson1953,');
    expect(text).toContain('Goedel1931');
    expect(readdirSync(mine.path).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const again = JSON.parse((await run(data.path, 'import', out, '--json')).stdout) as { added: number };
    expect(again.added).toBe(0);
  });

  it('exports every format, and formatted bibliographies in a style', async () => {
    const apa = await run(data.path, 'export', '--format', 'text', '--style', 'apa');
    expect(apa.code).toBe(0);
    expect(apa.stdout).toContain('Watson, J. D., & Crick, F. H. C. (1953)');
    const ieee = await run(data.path, 'export', '--format', 'html', '--style', 'ieee', '--query', 'author:watson');
    expect(ieee.stdout).toContain('csl-entry');
    expect(ieee.stdout).toContain('Watson');
    const rtf = await run(data.path, 'export', '--format', 'rtf', '--query', 'author:watson');
    expect(rtf.stdout.startsWith('{\\rtf1')).toBe(true);
    const ris = await run(data.path, 'export', '--format', 'ris', '--query', 'author:watson');
    expect(ris.stdout).toMatch(/^TY {2}- JOUR/m);
    const csl = JSON.parse(
      (await run(data.path, 'export', '--format', 'csl-json', '--query', 'author:watson')).stdout,
    ) as { id: string }[];
    expect(csl).toHaveLength(1);
    expect(csl[0]!.id).toBe('watson1953');
    const biblatex = await run(data.path, 'export', '--format', 'biblatex', '--query', 'author:watson');
    expect(biblatex.stdout).toContain('journaltitle');
    expect((await run(data.path, 'export', '--format', 'docx')).code).toBe(2);
    expect((await run(data.path, 'export', '--format', 'bibtex', '--style', 'apa')).code).toBe(2);
    const noCollection = await run(data.path, 'export', '--collection', 'Thesis');
    expect(noCollection.code).toBe(1);
    expect(noCollection.stderr).toContain('no collection is called "Thesis"');
  });

  it('counts items in stats', async () => {
    const r = await run(data.path, 'stats', '--json');
    expect(r.code).toBe(0);
    const stats = JSON.parse(r.stdout) as {
      items: number;
      byType: Record<string, number>;
      withDoi: number;
      withTallies: number;
      retracted: number;
    };
    expect(stats.items).toBe(17);
    expect(Object.values(stats.byType).reduce((a, b) => a + b, 0)).toBe(17);
    expect(stats.byType['article-journal']).toBeGreaterThan(0);
    expect(stats.withDoi).toBe(3);
    expect(stats.withTallies).toBe(0);
    expect(stats.retracted).toBe(0);
    const text = await run(data.path, 'stats');
    expect(text.stdout).toMatch(/Items:\s+17/);
  });
});

describe('citewise backup and restore', () => {
  it('backs up, and restores the latest backup after a change', async () => {
    expect((await run(data.path, 'restore')).code).toBe(1);
    await run(data.path, 'import', BIB);
    const backup = await run(data.path, 'backup', '--json');
    expect(backup.code).toBe(0);
    const info = JSON.parse(backup.stdout) as { file: string; verified: boolean };
    expect(info.verified).toBe(true);
    expect(existsSync(info.file)).toBe(true);

    await run(data.path, 'import', RIS);
    expect((JSON.parse((await run(data.path, 'stats', '--json')).stdout) as { items: number }).items).toBe(17);

    const restore = await run(data.path, 'restore');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain('Restored the library from');
    expect(restore.stdout).toContain('(13 items)');
    expect(restore.stdout).toMatch(/pre-restore/);
    expect((JSON.parse((await run(data.path, 'stats', '--json')).stdout) as { items: number }).items).toBe(13);

    // The pre-restore copy undoes it.
    const undo = /citewise restore (\S+)" undoes this/.exec(restore.stdout)![1]!;
    expect((await run(data.path, 'restore', undo)).code).toBe(0);
    expect((JSON.parse((await run(data.path, 'stats', '--json')).stdout) as { items: number }).items).toBe(17);
  });

  it('refuses a backup that is not a good library and changes nothing', async () => {
    await run(data.path, 'import', BIB);
    const bad = join(data.path, 'bad.sqlite');
    writeFileSync(bad, 'not a database at all');
    const r = await run(data.path, 'restore', bad);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing was changed');
    expect((await run(data.path, 'restore', join(data.path, 'missing.sqlite'))).code).toBe(1);
    expect((JSON.parse((await run(data.path, 'stats', '--json')).stdout) as { items: number }).items).toBe(13);
  });
});
