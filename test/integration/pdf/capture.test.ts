// PDF capture end to end in plain Node: PDFs written with pdf-lib, read in the real PDF worker,
// identified through the real service client against the local service over HTTP, stored in a real
// library through its worker. This set is the one docs/pdfs.md reports the accuracy of.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryClient } from '../../../electron/core/library/client';
import {
  captureServiceOf,
  capturePdfs,
  storedPathOf,
  type CaptureFileReport,
} from '../../../electron/core/pdf/capture';
import { PdfReader } from '../../../electron/core/pdf/run-in-worker';
import type { ServiceClient } from '../../../electron/core/service';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { fastClient, libraryDir, type TestLibraryDir } from '../enrich/helpers';
import { service } from '../service-client/helpers';
import { storedCaptures } from '../../helpers/captures';

let svc: Awaited<ReturnType<typeof service>>;
let client: ServiceClient;
let files: ReturnType<typeof tempDir>;
let reader: PdfReader;

interface CorpusPaper {
  doi: string;
  title: string;
  family: string;
}

let papers: CorpusPaper[];

beforeAll(async () => {
  svc = await service();
  client = fastClient(() => svc.url, svc.fullKey);
  files = tempDir('citewise-pdfs-');
  reader = new PdfReader({ timeLimitMs: 60_000 });
  const rows = svc.corpus.db.prepare('SELECT * FROM papers ORDER BY id LIMIT 8').all() as Parameters<
    typeof svc.corpus.paper
  >[0][];
  papers = rows.map((r) => {
    const p = svc.corpus.paper(r);
    return { doi: p.doi, title: p.title, family: p.authors[0]?.family ?? '' };
  });
});
afterAll(async () => {
  await reader?.close();
  client?.close();
  await svc?.close();
  files?.remove();
});

async function write(name: string, bytes: Uint8Array | string): Promise<string> {
  const path = join(files.path, name);
  writeFileSync(path, bytes);
  return path;
}

function added(r: CaptureFileReport): Extract<CaptureFileReport, { status: 'added' | 'attached' }> {
  if (r.status !== 'added' && r.status !== 'attached')
    throw new Error(`expected an added item, got ${JSON.stringify(r)}`);
  return r;
}

describe('capturing the test set online', () => {
  let dir: TestLibraryDir;
  let lib: LibraryClient;
  let reports: CaptureFileReport[];
  let paths: Record<string, string>;

  beforeAll(async () => {
    dir = libraryDir();
    lib = await dir.open();
    const [a, b, c, d, e, f, g] = papers;
    paths = {
      xmp: await write('xmp.pdf', await makePdf({ title: 'Words that match nothing', xmpDoi: a!.doi })),
      info: await write('info.pdf', await makePdf({ title: 'Other words entirely', infoSubject: `doi:${b!.doi}` })),
      text1: await write(
        'text1.pdf',
        await makePdf({ title: 'Some title', pages: [[`Available at https://doi.org/${c!.doi}.`]] }),
      ),
      text2: await write(
        'text2.pdf',
        await makePdf({
          title: 'Another title',
          pages: [['Abstract without identifiers.'], [`Cite as doi:${d!.doi}`]],
        }),
      ),
      arxiv: await write(
        'arxiv.pdf',
        await makePdf({ title: 'A preprint on lattices', pages: [['arXiv:2301.01234v2 [cs.LG] 3 Jan 2023']] }),
      ),
      title: await write(
        'title.pdf',
        await makePdf({
          title: e!.title,
          byline: `A. ${e!.family}, B. Nobody`,
          pages: [['Introduction. This paper has no identifier printed on it.']],
        }),
      ),
      two: await write(
        'two.pdf',
        await makePdf({ title: 'Two identifiers', pages: [[`This article: ${f!.doi}`, `Corrigendum: ${g!.doi}`]] }),
      ),
      scan: await write('scan.pdf', await makePdf({ blankPages: 2 })),
      corrupt: await write(
        'corrupt.pdf',
        '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF garbage',
      ),
      encrypted: await write('encrypted.pdf', await makePdf({ title: 'Locked', encrypted: true })),
      notPdf: await write('notes.pdf', 'These are plain notes saved with the wrong extension.\n'),
    };
    paths.copy = await write('copy-of-xmp.pdf', readFileSync(paths.xmp!));
    paths.sameDoi = await write(
      'same-doi.pdf',
      await makePdf({ title: 'A different file of the same paper', infoSubject: a!.doi }),
    );
    reports = await capturePdfs(
      Object.values(paths),
      { library: lib, service: captureServiceOf(client), reader },
      { mode: 'copy', storeDir: join(dir.dir, 'attachments') },
    );
  }, 120_000);
  afterAll(async () => {
    await lib?.close();
    dir?.remove();
  });

  const report = (name: string): CaptureFileReport => reports[Object.keys(paths).indexOf(name)]!;

  it('identifies DOIs in XMP, document info, first-page text and page 2, and fills the item from the service', async () => {
    const [a, b, c, d] = papers;
    const cases: [string, CorpusPaper, string, number][] = [
      ['xmp', a!, 'xmp', 0.98],
      ['info', b!, 'info', 0.95],
      ['text1', c!, 'text', 0.9],
      ['text2', d!, 'text', 0.8],
    ];
    for (const [name, paper, method, confidence] of cases) {
      const r = added(report(name));
      expect(r).toMatchObject({
        status: 'added',
        state: 'identified',
        method,
        confidence,
        doi: paper.doi.toLowerCase(),
        title: paper.title,
      });
      const item = await lib.lib.getItem(r.itemId);
      expect(item.csl.title).toBe(paper.title);
      expect(storedCaptures(dir.file, r.itemId)[0]).toMatchObject({
        method,
        evidence: [
          { method, matched: expect.stringMatching(new RegExp(paper.doi.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i')) },
        ],
      });
    }
    expect(added(report('text2')).evidence[0]).toMatchObject({ page: 2 });
  });

  it('an arXiv id becomes its arXiv DOI; the service does not know it, so the title on the page stands', () => {
    expect(added(report('arxiv'))).toMatchObject({
      state: 'identified',
      method: 'text',
      doi: '10.48550/arxiv.2301.01234',
      title: 'A preprint on lattices',
      evidence: [{ matched: 'arXiv:2301.01234' }],
    });
  });

  it('without an identifier, the title and byline find the paper through the service search', () => {
    const e = papers[4]!;
    const r = added(report('title'));
    expect(r).toMatchObject({ state: 'identified', method: 'title-search', doi: e.doi.toLowerCase(), title: e.title });
    expect(r.confidence).toBeGreaterThanOrEqual(0.85);
    expect(r.evidence[0]!.matched).toBe(e.title);
  });

  it('two different DOIs land in Needs review with both candidates, titled from the service', async () => {
    const [f, g] = [papers[5]!, papers[6]!];
    const r = added(report('two'));
    expect(r).toMatchObject({ state: 'needs-review', confidence: 0.5, doi: null, title: 'Two identifiers' });
    expect(r.candidates.map((c) => [c.doi, c.title])).toEqual([
      [f.doi.toLowerCase(), f.title],
      [g.doi.toLowerCase(), g.title],
    ]);
    const review = await lib.lib.unsettledCaptures();
    expect(review.map((c) => c.itemId)).toContain(r.itemId);
  });

  it('a PDF without text (a scan) is kept for review under its file name', () => {
    expect(added(report('scan'))).toMatchObject({
      state: 'needs-review',
      method: 'none',
      confidence: 0,
      title: 'scan',
      evidence: [{ detail: expect.stringContaining('no text') }],
    });
  });

  it('corrupt, encrypted and non-PDF files fail with a message naming the file and the reason, and add nothing', async () => {
    expect(report('corrupt')).toMatchObject({
      status: 'failed',
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^corrupt\.pdf was not added: it is damaged/),
    });
    expect(report('encrypted')).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^encrypted\.pdf was not added: it is encrypted with a password/),
    });
    expect(report('notPdf')).toMatchObject({
      status: 'failed',
      message: 'notes.pdf was not added: it is not a PDF (it does not start with a PDF header).',
    });
    const addedCount = reports.filter((r) => r.status === 'added').length;
    expect(await lib.listing.count()).toBe(addedCount);
  });

  it('the same file again, or another file with the same DOI, is not added twice', () => {
    const first = added(report('xmp'));
    expect(report('copy')).toEqual({ file: paths.copy, status: 'duplicate', itemId: first.itemId, reason: 'checksum' });
    expect(report('sameDoi')).toMatchObject({ status: 'duplicate', itemId: first.itemId, reason: 'doi' });
  });

  it('copies each PDF into the library folder under its SHA-256, with its checksum kept', async () => {
    const r = added(report('xmp'));
    const [att] = (await lib.lib.getItem(r.itemId)).attachments;
    expect(att!.path).toBe(storedPathOf(join(dir.dir, 'attachments'), att!.sha256!));
    expect(readFileSync(att!.path)).toEqual(readFileSync(paths.xmp!));
    // The duplicate left no file of its own behind.
    const dup = readFileSync(paths.sameDoi!);
    const { createHash } = await import('node:crypto');
    expect(existsSync(storedPathOf(join(dir.dir, 'attachments'), createHash('sha256').update(dup).digest('hex')))).toBe(
      false,
    );
  });

  it('states the accuracy on the set: every readable PDF identified or sent to review as expected', () => {
    const expected: Record<string, string> = {
      xmp: 'identified',
      info: 'identified',
      text1: 'identified',
      text2: 'identified',
      arxiv: 'identified',
      title: 'identified',
      two: 'needs-review',
      scan: 'needs-review',
      corrupt: 'failed',
      encrypted: 'failed',
      notPdf: 'failed',
      copy: 'duplicate',
      sameDoi: 'duplicate',
    };
    const got = Object.fromEntries(
      Object.keys(paths).map((k) => {
        const r = report(k);
        return [k, r.status === 'added' || r.status === 'attached' ? r.state : r.status];
      }),
    );
    expect(got).toEqual(expected);
  });
});

describe('capturing offline', () => {
  it('a DOI becomes a placeholder for enrichment titled from the PDF, a PDF without one waits as pending; linked files stay where they are', async () => {
    const dir = libraryDir();
    const lib = await dir.open();
    const offline = fastClient(() => 'http://127.0.0.1:9', svc.fullKey);
    try {
      const doi = papers[0]!.doi;
      const withDoi = await write('offline-doi.pdf', await makePdf({ title: 'Offline one', pages: [[`doi:${doi}`]] }));
      const withTitle = await write(
        'offline-title.pdf',
        await makePdf({ title: papers[1]!.title, pages: [['no identifier']] }),
      );
      const [r1, r2] = await capturePdfs(
        [withDoi, withTitle],
        { library: lib, service: captureServiceOf(offline), reader },
        { mode: 'link', storeDir: join(dir.dir, 'unused') },
      );
      expect(r1).toMatchObject({ status: 'added', state: 'identified', doi: doi.toLowerCase(), title: 'Offline one' });
      const item = await lib.lib.getItem(added(r1!).itemId);
      expect(item.csl).toMatchObject({
        DOI: doi.toLowerCase(),
        title: 'Offline one',
        custom: { citewise: { pendingMetadata: true, provisional: ['title'] } },
      });
      expect(item.attachments[0]!.path).toBe(withDoi);
      expect(r2).toMatchObject({ status: 'added', state: 'pending', method: 'none', title: papers[1]!.title });
      expect((await lib.lib.unsettledCaptures()).map((c) => c.state)).toEqual(['pending']);
      expect(existsSync(join(dir.dir, 'unused'))).toBe(false);
    } finally {
      offline.close();
      await lib.close();
      dir.remove();
    }
  }, 60_000);
});

describe('limits', () => {
  it('a file over the size cap is refused before it is read; at the cap it is read', async () => {
    const dir = libraryDir();
    const lib = await dir.open();
    try {
      const path = await write('sized.pdf', await makePdf({ title: 'Sized', pages: [['doi:10.5555/sized.1']] }));
      const size = readFileSync(path).byteLength;
      const deps = { library: lib, service: null, reader };
      const [over] = await capturePdfs([path], deps, {
        mode: 'link',
        storeDir: dir.dir,
        limits: { maxBytes: size - 1 },
      });
      expect(over).toMatchObject({
        status: 'failed',
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/^sized\.pdf was not added: it is .* MB; PDFs larger than/),
      });
      expect(await lib.listing.count()).toBe(0);
      const [at] = await capturePdfs([path], deps, { mode: 'link', storeDir: dir.dir, limits: { maxBytes: size } });
      expect(at).toMatchObject({ status: 'added', doi: '10.5555/sized.1' });
    } finally {
      await lib.close();
      dir.remove();
    }
  }, 60_000);

  it('a file over the time limit is stopped (its worker ended) and the next file still reads', async () => {
    const bytes = await makePdf({ title: 'Slow', pages: [['doi:10.5555/slow.1']] });
    const hasty = new PdfReader({ timeLimitMs: 1 });
    try {
      expect(await hasty.read(bytes, 3)).toEqual({
        ok: false,
        failure: { code: 'timeout', message: 'reading it took longer than 0.001 s and was stopped' },
      });
    } finally {
      await hasty.close();
    }
    expect(await reader.read(bytes, 3)).toMatchObject({ ok: true, facts: { title: 'Slow' } });
  }, 60_000);

  it('moves the bytes to the worker when asked (no copy on this thread) and gives them back', async () => {
    const pdf = await makePdf({ title: 'Moved', pages: [['doi:10.5555/moved.1']] });
    const bytes = new Uint8Array(pdf);
    const moved = await reader.read(bytes, 3, undefined, { move: true, returnBytes: true });
    expect(moved).toMatchObject({ ok: true, facts: { title: 'Moved' } });
    // Moved, not copied: this thread's view is empty; what comes back is the same file.
    expect(bytes.byteLength).toBe(0);
    expect(moved.ok && moved.bytes && Buffer.from(moved.bytes).equals(Buffer.from(pdf))).toBe(true);
    // A view on part of a larger buffer (a small Buffer in Node's pool) is copied: the rest of the buffer stays usable.
    const shared = new Uint8Array(pdf.byteLength + 16);
    shared.set(pdf, 8);
    const part = shared.subarray(8, 8 + pdf.byteLength);
    expect(await reader.read(part, 3, undefined, { move: true })).toMatchObject({
      ok: true,
      facts: { title: 'Moved' },
    });
    expect(shared.byteLength).toBe(pdf.byteLength + 16);
    expect(Buffer.from(part).equals(Buffer.from(pdf))).toBe(true);
  }, 60_000);

  it('reads only the first pages for identifiers (the page cap)', async () => {
    const bytes = await makePdf({ title: 'Long', pages: [['one'], ['two'], ['three'], ['four doi:10.5555/late.4']] });
    const capped = await reader.read(bytes, 3);
    expect(capped).toMatchObject({ ok: true, facts: { pageCount: 4 } });
    expect(capped.ok && capped.facts.pages.map((p) => p.page)).toEqual([1, 2, 3]);
    const all = await reader.read(bytes, 4);
    expect(all.ok && all.facts.pages.at(-1)?.text).toContain('10.5555/late.4');
  }, 60_000);
});
