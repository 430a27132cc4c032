// `citewise manuscript` on a real library built here: items imported from BibTeX, then the service's
// notices, tallies and preprint links stored as enrichment stores them. Exit codes, the report, the
// contrasting threshold on both sides, the .bib written (re-imported: exactly the cited items) and
// bad input (nothing written).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManuscriptReport } from '../../../shared/model/manuscript';
import { UsageError } from '../../../electron/cli/command';
import { runManuscriptCommand } from '../../../electron/cli/commands/manuscript';
import { withLibrary } from '../../../electron/cli/library-session';
import { CoreError } from '../../../electron/core/errors';
import { docx, paragraph, zoteroField } from '../../unit/manuscript/docx-fixture';
import { collector, run, tempDir, type RunResult } from './helpers';

const BIB = String.raw`
@article{fine2019, title = {A Fine Paper}, author = {Fine, Ada}, year = {2019}, journal = {J}, doi = {10.1000/fine}}
@article{retracted2015, title = {A Retracted Paper}, author = {Wrong, Bo}, year = {2015}, journal = {J}, doi = {10.1000/retracted}}
@article{concern2016, title = {A Paper Under Concern}, author = {Doubt, Cy}, year = {2016}, journal = {J}, doi = {10.1000/concern}}
@article{disputed2018, title = {A Disputed Paper}, author = {Argue, Di}, year = {2018}, journal = {J}, doi = {10.1000/disputed}}
@article{fewcontra2018, title = {Slightly Disputed}, author = {Argue, Ed}, year = {2018}, journal = {J}, doi = {10.1000/fewcontra}}
@article{preprint2020, title = {A Preprint}, author = {Early, Fi}, year = {2020}, journal = {bioRxiv}, doi = {10.1101/2020.01.01.000001}}
@article{published2021, title = {The Published Version}, author = {Early, Fi}, year = {2021}, journal = {Nature}, doi = {10.1038/published}}
@book{uncited2000, title = {Never Cited}, author = {Nobody, Gu}, year = {2000}, publisher = {P}}
`;

async function manuscript(dataDir: string, ...args: string[]): Promise<RunResult> {
  const out = collector();
  const err = collector();
  const code = await runManuscriptCommand(['manuscript', ...args], { dataDir, stdout: out.stream, stderr: err.stream });
  return { code, stdout: out.text(), stderr: err.text() };
}

describe('citewise manuscript', () => {
  let data: ReturnType<typeof tempDir>;
  let work: ReturnType<typeof tempDir>;
  beforeEach(async () => {
    data = tempDir();
    work = tempDir('citewise-ms-');
    writeFileSync(join(work.path, 'library.bib'), BIB);
    expect((await run(data.path, 'import', join(work.path, 'library.bib'))).code).toBe(0);
    await withLibrary(data.path, async (client) => {
      await client.serviceCache.putNotices(
        '10.1000/retracted',
        [{ doi: '10.1000/retracted', status: 'Retracted', date: '2020-01-01', noticeDoi: '10.1000/notice' }],
        true,
      );
      await client.serviceCache.putNotices(
        '10.1000/concern',
        [{ doi: '10.1000/concern', status: 'Has expression of concern' }],
        false,
      );
      await client.serviceCache.putNotices('10.1000/fine', [], false);
      await client.serviceCache.putTallies({
        found: {
          '10.1000/fine': { total: 30, supporting: 10, contrasting: 0, mentioning: 20, unclassified: 0 },
          '10.1000/disputed': { total: 40, supporting: 2, contrasting: 5, mentioning: 33, unclassified: 0 },
          '10.1000/fewcontra': { total: 40, supporting: 2, contrasting: 4, mentioning: 34, unclassified: 0 },
        },
      });
      // The service's paper record for the preprint links its published version.
      await client.serviceCache.putPapers({
        found: {
          '10.1101/2020.01.01.000001': { publicationLinks: [{ publishedDoi: '10.1038/PUBLISHED' }], preprintLinks: [] },
        },
      });
    });
  });
  afterEach(() => {
    data.remove();
    work.remove();
  });

  const MD = [
    '---',
    'title: Draft',
    'author: ada@example.org',
    '---',
    'Fine [@fine2019, p. 3]. Retracted @retracted2015; concern [see @concern2016].', // 5
    'Disputed [@disputed2018; @fewcontra2018] and a preprint -@preprint2020.',
    'Missing [@nobody1999]. Code: `@fine2019` and https://x.org/@user.',
    'Again @fine2019.',
  ].join('\n');

  it('reports each flag, exits 3, and writes exactly the cited items in the library as BibTeX', async () => {
    const file = join(work.path, 'draft.md');
    writeFileSync(file, MD);
    const out = join(work.path, 'cited.bib');
    const r = await manuscript(data.path, file, '--json', '--write-bib', out);
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout) as ManuscriptReport;
    expect(report.format).toBe('markdown');
    expect(report.citations).toBe(8);
    const byRef = Object.fromEntries(report.cited.map((e) => [e.ref, e]));
    expect(report.cited.map((e) => e.ref)).toEqual([
      'fine2019',
      'retracted2015',
      'concern2016',
      'disputed2018',
      'fewcontra2018',
      'preprint2020',
      'nobody1999',
    ]);
    expect(byRef.fine2019!.places).toEqual(['line 5', 'line 8']);
    expect(byRef.fine2019!.flags).toEqual([]);
    expect(byRef.retracted2015!.flags).toEqual(['retracted']);
    expect(byRef.concern2016!.flags).toEqual(['expression-of-concern']);
    // The threshold, both sides: 5 contrasting is many, 4 is not.
    expect(report.contrastingThreshold).toBe(5);
    expect(byRef.disputed2018!.flags).toEqual(['contrasting']);
    expect(byRef.fewcontra2018!.flags).toEqual([]);
    expect(byRef.preprint2020!.flags).toEqual(['published-version']);
    expect(byRef.preprint2020!.item!.publishedVersions).toEqual([
      { doi: '10.1038/published', citationKey: 'published2021' },
    ]);
    expect(byRef.nobody1999).toMatchObject({ item: null, flags: ['missing'], line: 7 });
    expect(report.counts).toMatchObject({
      missing: 1,
      retracted: 1,
      'expression-of-concern': 1,
      contrasting: 1,
      'published-version': 1,
    });

    // The .bib holds the six cited items the library has, and nothing else: imported into an empty
    // library, it gives back exactly their keys.
    const fresh = tempDir();
    try {
      expect((await run(fresh.path, 'import', out)).code).toBe(0);
      const exported = await run(fresh.path, 'export', '--format', 'csl-json');
      const keys = (JSON.parse(exported.stdout) as { 'citation-key': string }[]).map((i) => i['citation-key']).sort();
      expect(keys).toEqual([
        'concern2016',
        'disputed2018',
        'fewcontra2018',
        'fine2019',
        'preprint2020',
        'retracted2015',
      ]);
    } finally {
      fresh.remove();
    }
  });

  it('flags 4 contrasting statements with --contrasting 4, and exits 0 for a clean manuscript', async () => {
    const file = join(work.path, 'clean.md');
    writeFileSync(file, 'Only fine work [@fine2019] and @fewcontra2018.\n');
    const clean = await manuscript(data.path, file);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('✓ fine2019 (line 1): Fine, 2019, A Fine Paper doi:10.1000/fine');
    expect(clean.stdout).toContain('Nothing to look at');
    const strict = await manuscript(data.path, file, '--contrasting', '4', '--json');
    expect(strict.code).toBe(3);
    expect((JSON.parse(strict.stdout) as ManuscriptReport).cited[1]!.flags).toEqual(['contrasting']);
  });

  it('checks LaTeX with its .aux, and writes CSL-JSON of the cited items', async () => {
    const tex = join(work.path, 'paper.tex');
    writeFileSync(
      tex,
      '\\documentclass{article}\n\\begin{document}\nAs \\citet[p.~2]{fine2019} and \\parencite{published2021}.\n\\input{chapter}\n\\end{document}\n',
    );
    // The chapter's citations are known from the .aux only.
    writeFileSync(
      join(work.path, 'paper.aux'),
      '\\relax\n\\citation{fine2019}\n\\citation{published2021}\n\\citation{concern2016}\n',
    );
    const out = join(work.path, 'cited.json');
    const r = await manuscript(data.path, tex, '--write-csljson', out);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('! concern2016 (paper.aux): Doubt, 2016, A Paper Under Concern');
    expect(r.stdout).toContain('fine2019 (line 3)');
    expect(r.stdout).toMatch(/Note: 1 of the keys come from .*paper\.aux only/);
    const items = JSON.parse(readFileSync(out, 'utf8')) as { id: string }[];
    expect(items.map((i) => i.id)).toEqual(['fine2019', 'published2021', 'concern2016']);
  });

  it('maps a Zotero .docx by citation key, DOI and title', async () => {
    const file = join(work.path, 'paper.docx');
    writeFileSync(
      file,
      docx([
        paragraph(
          'Text ',
          zoteroField(
            [{ itemData: { type: 'article-journal', title: 'whatever', DOI: 'https://doi.org/10.1000/RETRACTED' } }],
            '(Wrong, 2015)',
            60,
          ),
        ),
        paragraph(
          zoteroField(
            [
              { itemData: { type: 'article-journal', title: 'A fine paper.' } },
              { itemData: { type: 'book', title: 'x', 'citation-key': 'uncited2000' } },
            ],
            '(Fine, 2019; Nobody, 2000)',
          ),
        ),
        paragraph(zoteroField([{ itemData: { type: 'book', title: 'Not In This Library' } }], '(Who, 1990)')),
      ]),
    );
    const r = await manuscript(data.path, file, '--json');
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout) as ManuscriptReport;
    expect(report.cited.map((e) => [e.ref, e.matchedBy, e.item?.citationKey ?? null, e.places])).toEqual([
      ['https://doi.org/10.1000/RETRACTED', 'doi', 'retracted2015', ['paragraph 1']],
      ['A fine paper.', 'title', 'fine2019', ['paragraph 2']],
      ['uncited2000', 'key', 'uncited2000', ['paragraph 2']],
      ['Not In This Library', null, null, ['paragraph 3']],
    ]);
  });

  // Issue 32: LaTeX pasted under "Markdown" gave "0 citations … Nothing to look at", a false all-clear;
  // the report printed titles with raw <span class="nocase"> and DOIs lower-cased.
  it('reads LaTeX given as Markdown as LaTeX, says when no citation syntax was found, and prints plain titles and DOIs as written', async () => {
    const extra = join(work.path, 'extra.bib');
    writeFileSync(
      extra,
      '@article{dna2022, title = {The {DNA} of soil under drought}, author = {Soil, Sam}, year = {2022}, doi = {10.1000/DNA.Soil}}\n',
    );
    expect((await run(data.path, 'import', extra)).code).toBe(0);
    const md = join(work.path, 'pasted.md');
    writeFileSync(md, 'As shown \\citep{fine2019}, and in \\cite[p.~3]{dna2022}.\n');
    const r = await manuscript(data.path, md, '--json');
    const report = JSON.parse(r.stdout) as ManuscriptReport;
    expect(report.format).toBe('latex');
    expect(report.cited.map((e) => e.ref)).toEqual(['fine2019', 'dna2022']);
    expect(report.notes[0]).toBe(
      'Read as LaTeX: it has no Markdown citations ([@key], @key) but LaTeX ones (\\cite{key}, \\parencite{key}…).',
    );
    const text = await manuscript(data.path, md);
    expect(text.stdout).toContain('✓ dna2022 (line 1): Soil, 2022, The DNA of soil under drought doi:10.1000/DNA.Soil');
    expect(text.stdout).not.toContain('nocase');
    // No citations in any syntax: said so, never "Nothing to look at".
    const none = join(work.path, 'none.md');
    writeFileSync(none, 'A draft without a single citation yet.\n');
    const empty = await manuscript(data.path, none);
    expect(empty.stdout).toContain('No citations were found, so nothing was checked.');
    expect(empty.stdout).not.toContain('Nothing to look at');
    expect(empty.stdout).toContain(
      'Note: No citation syntax was found: no Markdown citations ([@key], @key), nor LaTeX, Markdown or Typst ones. Nothing was checked.',
    );
    // One citation in the named format is read as that format.
    writeFileSync(none, 'Only [@fine2019].\n');
    expect((JSON.parse((await manuscript(data.path, none, '--json')).stdout) as ManuscriptReport).format).toBe(
      'markdown',
    );
  }, 180_000);

  it('refuses bad input with what and where, writing nothing', async () => {
    const out = join(work.path, 'never.bib');
    const missing = await manuscript(data.path, join(work.path, 'nope.md'), '--write-bib', out).catch(
      (e: unknown) => e,
    );
    expect(missing).toBeInstanceOf(CoreError);
    expect((missing as Error).message).toMatch(/nope\.md: no such file/);

    const binary = join(work.path, 'binary.md');
    writeFileSync(binary, Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02]));
    await expect(manuscript(data.path, binary, '--write-bib', out)).rejects.toThrow(
      /binary\.md is a binary file, not a Markdown manuscript \(byte 2 is NUL\)/,
    );

    const latin1 = join(work.path, 'latin1.tex');
    writeFileSync(latin1, Buffer.concat([Buffer.from('ok\n\\cite{a}\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    await expect(manuscript(data.path, latin1)).rejects.toThrow(
      /latin1\.tex is not UTF-8 text \(line 3 has bytes that are not UTF-8\)/,
    );

    const huge = join(work.path, 'huge.md');
    writeFileSync(huge, '');
    truncateSync(huge, 21 * 1024 * 1024);
    await expect(manuscript(data.path, huge, '--write-bib', out)).rejects.toThrow(
      /huge\.md is 22,020,096 bytes, more than the 20 MB/,
    );

    const corrupt = join(work.path, 'corrupt.docx');
    writeFileSync(corrupt, docx([paragraph('x')]).subarray(0, 60));
    await expect(manuscript(data.path, corrupt, '--write-bib', out)).rejects.toThrow(
      /corrupt\.docx: it is not a Word \.docx file: it is not a zip package/,
    );

    writeFileSync(join(work.path, 'notes.pdf'), '%PDF-1.7');
    await expect(manuscript(data.path, join(work.path, 'notes.pdf'))).rejects.toThrow(
      /notes\.pdf: the manuscript check reads \.md, .*\.docx files, not "\.pdf"/,
    );
    expect(existsSync(out)).toBe(false);

    await expect(manuscript(data.path)).rejects.toThrow(UsageError);
    await expect(manuscript(data.path, 'a.md', '--contrasting', '0')).rejects.toThrow(
      /--contrasting must be a whole number of at least 1/,
    );
    await expect(manuscript(data.path, 'a.md', '--bogus')).rejects.toThrow(UsageError);
  });
});

const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'citewise.mjs');
const built =
  existsSync(join(ROOT, 'out', 'cli', 'index.js')) &&
  execFileSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' }).includes('manuscript FILE');

describe.skipIf(!built)(
  `the built citewise manuscript command${built ? '' : ' (skipped: run `npm run build`)'}`,
  () => {
    it('exits 0 clean, 3 with problems, 1 on a file it cannot read, 2 on wrong usage', async () => {
      const data = tempDir();
      const work = tempDir('citewise-ms-');
      try {
        writeFileSync(join(work.path, 'library.bib'), BIB);
        expect((await run(data.path, 'import', join(work.path, 'library.bib'))).code).toBe(0);
        writeFileSync(join(work.path, 'ok.typ'), 'See @fine2019.\n');
        writeFileSync(join(work.path, 'bad.typ'), 'See @fine2019 and @ghost2000.\n');
        const exec = promisify(execFile);
        const cw = (...args: string[]) =>
          exec(process.execPath, [BIN, '--data-dir', data.path, 'manuscript', ...args], { timeout: 60_000 }).then(
            (r) => ({ code: 0, ...r }),
            (e: { code: number; stdout: string; stderr: string }) => e,
          );
        expect((await cw(join(work.path, 'ok.typ'))).code).toBe(0);
        const bad = await cw(join(work.path, 'bad.typ'));
        expect(bad.code).toBe(3);
        expect(bad.stdout).toContain('✗ ghost2000 (line 1): not in the library');
        const missing = await cw(join(work.path, 'gone.typ'));
        expect(missing).toMatchObject({ code: 1 });
        expect(missing.stderr).toMatch(/citewise: .*gone\.typ: no such file/);
        expect((await cw()).code).toBe(2);
      } finally {
        data.remove();
        work.remove();
      }
    });
  },
);
