// `citewise export --notes`: the notes of a library imported from a Zotero data folder (notes as
// Zotero 7's editor writes them) go into RIS N1 lines and BibTeX/BibLaTeX annote, as the app's Export
// dialog does with "Include notes"; without the flag they stay out, and a format with no place for
// notes (CSL-JSON, a formatted bibliography) refuses it with the reason.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleZoteroLibrary, writeZoteroFolder } from '../../helpers/zotero-db';
import { run, tempDir } from './helpers';

describe('citewise export --notes', () => {
  const data = tempDir();
  const zotero = tempDir();

  beforeAll(async () => {
    const folder = join(zotero.path, 'Zotero');
    writeZoteroFolder(folder, await sampleZoteroLibrary());
    const r = await run(data.path, 'import', folder);
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);
  afterAll(() => {
    data.remove();
    zotero.remove();
  });

  it('writes the notes as RIS N1 lines, and none without --notes', async () => {
    const plain = await run(data.path, 'export', '--format', 'ris');
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toContain('<h1>Photo 51</h1>');

    const r = await run(data.path, 'export', '--format', 'ris', '--notes');
    expect(r.code, r.stderr).toBe(0);
    const n1 = r.stdout.split(/\r?\n/).filter((l) => l.startsWith('N1  - '));
    const photo = n1.find((l) => l.includes('Photo 51'));
    expect(photo).toBeDefined();
    // The note's HTML on one line, cleaned as on import: no script, no handler.
    expect(photo).toContain('<h1>Photo 51</h1>');
    expect(photo).not.toMatch(/<script|onclick/);
  });

  it('writes the notes into BibTeX and BibLaTeX annote', async () => {
    for (const format of ['bibtex', 'biblatex']) {
      const plain = await run(data.path, 'export', '--format', format);
      expect(plain.stdout).not.toMatch(/annote\s*=\s*\{[^}]*Photo 51/);
      const r = await run(data.path, 'export', '--format', format, '--notes');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/annote\s*=\s*\{[^}]*Photo 51/);
    }
  });

  it('refuses --notes where the format has no place for notes, saying which formats have', async () => {
    for (const args of [
      ['--format', 'csl-json'],
      ['--format', 'text'],
    ]) {
      const r = await run(data.path, 'export', ...args, '--notes');
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('--notes applies to --format bibtex, biblatex or ris only');
      expect(r.stdout).toBe('');
    }
  });

  it('with -o, writes the notes to the file', async () => {
    const out = tempDir();
    try {
      const target = join(out.path, 'refs.ris');
      const r = await run(data.path, 'export', '--format', 'ris', '--notes', '-o', target);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(target, 'utf8')).toContain('<h1>Photo 51</h1>');
    } finally {
      out.remove();
    }
  });
});
