// The full-text index of attached PDFs end to end in plain Node: PDFs written with pdf-lib with known
// text on known pages, captured offline into a real library, read in the real PDF worker, searched with
// `fulltext:` through the library worker; resumed after a cancel and after a killed process; the caps
// tested on both sides; pages without a text layer reported.
import { spawn } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryClient } from '../../../electron/core/library/client';
import { capturePdfs } from '../../../electron/core/pdf/capture';
import { indexFulltext, type FulltextFileReport } from '../../../electron/core/pdf/fulltext';
import { PdfReader } from '../../../electron/core/pdf/run-in-worker';
import { bodyLines, makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { libraryDir, type TestLibraryDir } from '../enrich/helpers';

let files: ReturnType<typeof tempDir>;
let reader: PdfReader;

beforeAll(() => {
  files = tempDir('citewise-fulltext-');
  reader = new PdfReader({ timeLimitMs: 60_000 });
});
afterAll(async () => {
  await reader?.close();
  files?.remove();
});

async function write(name: string, spec: Parameters<typeof makePdf>[0]): Promise<string> {
  const path = join(files.path, name);
  writeFileSync(path, await makePdf(spec));
  return path;
}

/** Captures the files offline (no service) into the library, each becoming an item; their ids in order. */
async function capture(lib: LibraryClient, paths: readonly string[], storeDir: string): Promise<number[]> {
  const reports = await capturePdfs(paths, { library: lib, service: null, reader }, { mode: 'copy', storeDir });
  return reports.map((r) => {
    if (r.status !== 'added') throw new Error(`not added: ${JSON.stringify(r)}`);
    return r.itemId;
  });
}

const byStatus = (reports: readonly FulltextFileReport[]) => reports.map((r) => [r.status, r.pages, r.note]);

describe('the PDF full-text index', () => {
  let dir: TestLibraryDir;
  let lib: LibraryClient;
  afterEach(async () => {
    await lib?.close();
    dir?.remove();
  });

  it('finds phrases on the page they are on, with a snippet, and notes the pages without text', async () => {
    dir = libraryDir();
    lib = await dir.open();
    const genes = await write('genes.pdf', {
      title: 'A study of yeast',
      byline: 'A. Author',
      pages: [
        ['The introduction says nothing special.'],
        ['Here we measured gene expression in budding yeast cells.', ...bodyLines(2, 5)],
        ['The ribosome profiles are in the supplement.'],
      ],
    });
    const other = await write('other.pdf', {
      title: 'Another paper',
      pages: [['A gene here and an expression there.'], ['Gene expression appears on page two too.']],
    });
    // Two pages of text and two scanned pages (no text layer at all).
    const partScan = await write('part-scan.pdf', {
      title: 'Partly scanned',
      pages: [['Typed first page about hydrogenation.']],
      blankPages: 2,
    });
    const scan = await write('scan.pdf', { blankPages: 3, pages: [[]] });
    const [g, o, p, s] = await capture(lib, [genes, other, partScan, scan], join(dir.dir, 'files'));

    const progress: string[] = [];
    const run = await indexFulltext(lib.fulltext, {
      reader,
      onFile: (r, done, total) => progress.push(`${done}/${total} ${r.status}`),
    });
    expect(progress).toEqual(['1/4 indexed', '2/4 indexed', '3/4 indexed', '4/4 no-text']);
    expect(byStatus(run.files)).toEqual([
      ['indexed', 3, null],
      ['indexed', 2, null],
      ['indexed', 3, 'no text layer on 2 pages (a scan?); those pages are not searchable'],
      ['no-text', 4, 'no text layer on 4 pages (a scan?); it needs OCR to be searchable'],
    ]);
    expect(await lib.fulltext.summary()).toEqual({
      pdfs: 4,
      byStatus: { indexed: 3, 'no-text': 1, 'too-big': 0, unreadable: 0 },
      pending: 0,
      pages: 6,
    });
    expect((await lib.fulltext.notes()).map((n) => [n.itemId, n.status])).toEqual([
      [p, 'indexed'],
      [s, 'no-text'],
    ]);

    const ids = async (query: string) => (await lib.listing.list({ query })).rows.map((r) => r.id).sort();
    expect(await ids('fulltext:"gene expression"')).toEqual([g, o].sort());
    expect(await ids('fulltext:ribosome')).toEqual([g]);
    expect(await ids('fulltext:hydrogenation')).toEqual([p]);
    expect(await ids('fulltext:"budding yeast" title:yeast')).toEqual([g]);
    const hits = await lib.fulltext.hits('fulltext:"gene expression"', [g!, o!]);
    expect(hits.find((h) => h.itemId === g)).toEqual({
      itemId: g,
      // The attachment holding the page: the reader opens that file there.
      attachmentId: (await lib.lib.getItem(g!)).attachments[0]!.id,
      page: 2,
      snippet: expect.stringContaining('Here we measured «gene expression» in budding yeast'),
    });
    expect(hits.filter((h) => h.itemId === o).map((h) => h.page)).toEqual([2]);

    // Nothing new: a second run reads nothing; a rebuild reads all four again and finds the same.
    const again = await indexFulltext(lib.fulltext, { reader });
    expect(again).toEqual({ files: [], skipped: 4 });
    const rebuilt = await indexFulltext(lib.fulltext, { reader, rebuild: true });
    expect(rebuilt.files).toHaveLength(4);
    expect(await ids('fulltext:"gene expression"')).toEqual([g, o].sort());
  }, 240_000);

  it('skips files over the page cap or the size cap and indexes those at it', async () => {
    dir = libraryDir();
    lib = await dir.open();
    const three = await write('three.pdf', { title: 'Three pages', pages: [['alpha'], ['bravo'], ['charlie']] });
    const four = await write('four.pdf', { title: 'Four pages', pages: [['delta'], ['echo'], ['foxtrot'], ['golf']] });
    await capture(lib, [three, four], join(dir.dir, 'files'));
    const pages = await indexFulltext(lib.fulltext, { reader, limits: { maxPages: 3 } });
    expect(byStatus(pages.files)).toEqual([
      ['indexed', 3, null],
      ['too-big', 4, 'not searchable: it has 4 pages; the full-text limit is 3'],
    ]);
    expect((await lib.listing.list({ query: 'fulltext:charlie' })).rows).toHaveLength(1);
    expect((await lib.listing.list({ query: 'fulltext:delta' })).rows).toHaveLength(0);

    // Size: a cap of exactly the file's size lets it in; one byte less keeps it out.
    const size = statSync(three).size;
    const at = await indexFulltext(lib.fulltext, { reader, rebuild: true, limits: { maxBytes: size } });
    expect(at.files.map((f) => f.status)).toEqual(['indexed', 'too-big']);
    const below = await indexFulltext(lib.fulltext, { reader, rebuild: true, limits: { maxBytes: size - 1 } });
    expect(byStatus(below.files)[0]).toEqual([
      'too-big',
      0,
      expect.stringMatching(/^not searchable: the file is 0\.0 MB; the full-text limit is 0\.0 MB$/),
    ]);
    expect((await lib.listing.list({ query: 'fulltext:charlie' })).rows).toHaveLength(0);
  }, 120_000);

  it('stops on cancel keeping what was indexed, and the next run continues from there', async () => {
    dir = libraryDir();
    lib = await dir.open();
    const paths = await Promise.all(
      [0, 1, 2, 3].map((i) => write(`c${i}.pdf`, { title: `Cancel paper ${i}`, pages: [[`word${i} here`]] })),
    );
    await capture(lib, paths, join(dir.dir, 'files'));
    const stop = new AbortController();
    await expect(
      indexFulltext(lib.fulltext, { reader, signal: stop.signal, onFile: (_r, done) => done === 2 && stop.abort() }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect((await lib.fulltext.summary()).pending).toBe(2);
    const rest = await indexFulltext(lib.fulltext, { reader });
    expect(rest.skipped).toBe(2);
    expect(rest.files).toHaveLength(2);
    expect((await lib.listing.list({ query: 'fulltext:word0 OR fulltext:word3' })).rows).toHaveLength(2);
    // A cancel while a file is being read stops that read too, and leaves the file pending.
    await lib.fulltext.clear();
    const now = new AbortController();
    const running = indexFulltext(lib.fulltext, { reader, signal: now.signal });
    now.abort();
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' });
    expect((await lib.fulltext.summary()).pending).toBe(4);
  }, 120_000);

  it('resumes after the indexing process is killed, reading only what it had not recorded', async () => {
    dir = libraryDir();
    lib = await dir.open();
    const n = 8;
    const paths = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        write(`k${i}.pdf`, {
          title: `Killed run ${i}`,
          pages: [[`marker${i} on page one`], bodyLines(i, 30), bodyLines(i + 1, 30)],
        }),
      ),
    );
    await capture(lib, paths, join(dir.dir, 'files'));
    await lib.close();

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, '..', '..', 'helpers', 'fulltext-child.ts'), dir.file],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/indexed 2\//.test(out)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () =>
        /indexed 2\//.test(out) ? resolve() : reject(new Error(`the child ended early: ${out}`)),
      );
    });
    await new Promise((r) => child.once('exit', r).exitCode !== null && r(null));
    expect(out).not.toContain('finished');

    lib = await dir.open();
    const recorded = n - (await lib.fulltext.summary()).pending;
    expect(recorded).toBeGreaterThanOrEqual(2);
    expect(recorded).toBeLessThan(n);
    const rest = await indexFulltext(lib.fulltext, { reader });
    expect(rest.skipped).toBe(recorded);
    expect(rest.files).toHaveLength(n - recorded);
    expect(await lib.fulltext.summary()).toMatchObject({ pending: 0, pages: 3 * n });
    for (const i of [0, n - 1]) expect((await lib.listing.list({ query: `fulltext:marker${i}` })).rows).toHaveLength(1);
  }, 240_000);
});
