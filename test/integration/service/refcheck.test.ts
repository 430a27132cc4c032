// Reference checks: upload (BibTeX, RIS, text, PDF) or file_url, the task lifecycle, the result and its report link.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ReferenceCheckScheduled,
  ReferenceCheckTask,
  ReferenceCheckResultUrl,
} from '../../../shared/service/index';
import type { RunningService } from '../../service/server';
import type { PaperRow } from '../../service/store';
import { call, pollUntilDone, startTestService, TOKENS } from './helpers';

let service: RunningService;
let papers: PaperRow[];
let files: Server;
let filesUrl: string;

function minimalPdf(lines: string[]): Buffer {
  const stream = `BT /F1 10 Tf 50 750 Td ${lines.map((l) => `(${l.replace(/[()\\]/g, '\\$&')}) Tj 0 -14 Td`).join(' ')} ET`;
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /Contents 4 0 R >> endobj\n4 0 obj << /Length ${stream.length} >> stream\n${stream}\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
}

beforeAll(async () => {
  service = await startTestService();
  papers = service.corpus.db.prepare('SELECT * FROM papers WHERE retracted = 1 LIMIT 1').all() as PaperRow[];
  papers.push(
    ...(service.corpus.db
      .prepare(
        'SELECT * FROM papers WHERE retracted = 0 AND t_citing > 3 AND title IN (SELECT title FROM papers GROUP BY title HAVING count(*) = 1) LIMIT 3',
      )
      .all() as PaperRow[]),
  );
  files = createServer((req, res) => {
    if (req.url === '/paper.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(minimalPdf(['A manuscript', 'References', `1. Smith J. Something. doi:${papers[1]!.doi}`]));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  const a = files.address();
  filesUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(async () => {
  await service.close();
  await new Promise((r) => files.close(r));
});

async function submit(filename: string, content: string | Buffer, type = 'application/octet-stream'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type }), filename);
  const res = await call<ReferenceCheckScheduled>(service, 'submitReferenceCheck', { rawBody: { data: form } });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('reference check', () => {
  it('checks a BibTeX file: PENDING → STARTED steps → SUCCESS with matched DOIs, tallies and notices', async () => {
    const [retracted, a] = papers;
    const bib = `@article{one,\n  title = {${retracted!.title}},\n  doi = {${retracted!.doi.toUpperCase()}},\n  year = {${retracted!.year}}\n}\n@article{two,\n  title = {${a!.title}},\n  year = {${a!.year}}\n}\n@article{three,\n  title = {An entirely unrelated title about medieval pottery glazes},\n  year = {1999}\n}\n`;
    const id = await submit('refs.bib', bib);
    const statuses: string[] = [];
    const steps: number[] = [];
    const done = await pollUntilDone<ReferenceCheckTask>(service, 'getReferenceCheckTask', id, 20, (t) => {
      statuses.push(t.status);
      if (t.info) steps.push(t.info.step);
    });
    expect(statuses[0]).toBe('STARTED');
    expect(steps).toEqual([1, 2, 3, 4]);
    expect(done.status).toBe('SUCCESS');
    expect(done.result!.filetype).toBe('bib');
    const targets = done.result!.citations.map((c) => c.target);
    expect(targets).toEqual([retracted!.doi, a!.doi]);
    const found = (
      done.result as unknown as { references: Array<{ matchedDoi: string | null; matchedBy: string | null }> }
    ).references;
    expect(found.map((r) => r.matchedBy)).toEqual(['doi', 'title', null]);
    expect(done.papers![retracted!.doi]!.editorialNotices.some((n) => n.status === 'Retracted')).toBe(true);
    expect(done.tallies![a!.doi]!.doi).toBe(a!.doi);
    const url = await call<ReferenceCheckResultUrl>(service, 'getReferenceCheckResultUrl', { params: { task_id: id } });
    const report = await fetch(url.body.reportUrl);
    expect(await report.text()).toContain('3 references, 2 matched');
    expect(done.overallTally!.total).toBe(done.tallies![retracted!.doi]!.total + done.tallies![a!.doi]!.total);
  });

  it('reads RIS, plain text and PDF text', async () => {
    const [, a, b, c] = papers;
    const ris = `TY  - JOUR\nTI  - ${a!.title}\nDO  - ${a!.doi}\nER  - \nTY  - JOUR\nTI  - ${b!.title}\nPY  - ${b!.year}\nER  - \n`;
    const risTask = await pollUntilDone<ReferenceCheckTask>(
      service,
      'getReferenceCheckTask',
      await submit('refs.ris', ris),
    );
    expect(risTask.result!.citations.map((x) => x.target)).toEqual([a!.doi, b!.doi]);
    const txt = `My thesis chapter\n\nReferences\n[1] Doe J. (${c!.year}). ${c!.title}. Some Journal.\n[2] Roe R. Another paper. https://doi.org/${b!.doi}\n`;
    const txtTask = await pollUntilDone<ReferenceCheckTask>(
      service,
      'getReferenceCheckTask',
      await submit('chapter.txt', txt, 'text/plain'),
    );
    expect(txtTask.result!.citations.map((x) => x.target)).toEqual([c!.doi, b!.doi]);
    expect(txtTask.result!.metadata.title).toBe('My thesis chapter');
    const pdf = minimalPdf(['Draft manuscript', 'References', `1. Doe J. A study. doi:${a!.doi}`]);
    const pdfTask = await pollUntilDone<ReferenceCheckTask>(
      service,
      'getReferenceCheckTask',
      await submit('draft.pdf', pdf, 'application/pdf'),
    );
    expect(pdfTask.result!.filetype).toBe('pdf');
    expect(pdfTask.result!.citations.map((x) => x.target)).toEqual([a!.doi]);
  });

  it('downloads a file_url, and fails the task when the download fails', async () => {
    const res = await call<ReferenceCheckScheduled>(service, 'submitReferenceCheck', {
      query: { file_url: `${filesUrl}/paper.pdf` },
    });
    expect(res.status).toBe(201);
    const done = await pollUntilDone<ReferenceCheckTask>(service, 'getReferenceCheckTask', res.body.id);
    expect(done.result!.citations.map((x) => x.target)).toEqual([papers[1]!.doi]);
    const missing = await call<ReferenceCheckScheduled>(service, 'submitReferenceCheck', {
      query: { file_url: `${filesUrl}/missing.pdf` },
    });
    const failed = await pollUntilDone<ReferenceCheckTask>(service, 'getReferenceCheckTask', missing.body.id);
    expect(failed.status).toBe('FAILURE');
    expect(failed.error).toMatch(/download/);
  });

  it('cancels, injects failures, answers PENDING for unknown ids and gives a report link with a token', async () => {
    const id = await submit('refs.txt', `References\n1. ${papers[2]!.title}.`);
    const cancelled = await call<ReferenceCheckTask>(service, 'cancelReferenceCheckTask', { params: { task_id: id } });
    expect(cancelled.status).toBe(200);
    expect(
      (await call<ReferenceCheckTask>(service, 'getReferenceCheckTask', { params: { task_id: id } })).body.status,
    ).toBe('CANCELLED');
    const form = new FormData();
    form.append('file', new Blob(['References\n1. x']), 'a.txt');
    const faulty = await call<ReferenceCheckScheduled>(service, 'submitReferenceCheck', {
      rawBody: { data: form },
      headers: { 'x-citewise-fault': 'task-failure' },
    });
    expect((await pollUntilDone<ReferenceCheckTask>(service, 'getReferenceCheckTask', faulty.body.id)).status).toBe(
      'FAILURE',
    );
    expect(
      (await call<ReferenceCheckTask>(service, 'getReferenceCheckTask', { params: { task_id: 'unknown' } })).body
        .status,
    ).toBe('PENDING');
    const url = await call<ReferenceCheckResultUrl>(service, 'getReferenceCheckResultUrl', { params: { task_id: id } });
    expect(url.body.reportUrl).toMatch(new RegExp(`/reference-check/${id}\\?authToken=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
  });

  it('needs a file or file_url, a valid URL, and the reference-check scope', async () => {
    expect((await call(service, 'submitReferenceCheck', {})).status).toBe(422);
    expect((await call(service, 'submitReferenceCheck', { query: { file_url: 'not a url' } })).status).toBe(422);
    expect(
      (
        await call(service, 'submitReferenceCheck', {
          query: { file_url: `${filesUrl}/paper.pdf` },
          token: TOKENS.citations,
        })
      ).status,
    ).toBe(403);
  });
});
