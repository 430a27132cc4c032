// Reference checks: a document (multipart .bib, .ris, .txt or .pdf, or file_url) is read, its
// references are extracted and matched to the corpus by DOI or title, and the result lists them with
// their matched DOI, the cited papers (with editorial notices) and their tallies.
import { randomUUID, createHmac } from 'node:crypto';
import type {
  OperationId,
  ReferenceCheckTask,
  ReferenceCheckResult,
  ReferenceCheckCitation,
  Paper,
  Tally,
  TallyCounts,
  TaskStatus,
} from '../../../shared/service/index';
import { HttpError, ok, type Context, type Handler } from '../http';
import { Corpus, normalizeDoi, type PaperRow } from '../store';
import { words } from './search';

export interface FoundReference {
  index: number;
  text: string;
  doi: string | null;
  title: string | null;
  matchedDoi: string | null;
  matchedBy: 'doi' | 'title' | null;
}

export interface ReferenceCheckState {
  id: string;
  token: string;
  createdAt: number;
  polls: number;
  cancelled: boolean;
  fail: string | null;
  filetype: string;
  filename: string;
  /** Set once the document is read (file_url downloads finish later). */
  text: Promise<string>;
  result?: {
    result: ReferenceCheckResult & { references: FoundReference[] };
    papers: Record<string, Paper>;
    tallies: Record<string, Tally>;
    overall: TallyCounts;
  };
}

const STEPS = ['Reading document', 'Extracting references', 'Matching references', 'Retrieving citation tallies'];
const DOI_RE = /\b(10\.\d{4,9}\/[^\s"<>{}]+)/gi;

function cleanDoi(raw: string): string {
  return normalizeDoi(raw.replace(/[.,;)\]]+$/, ''));
}

/** The readable text of a simple PDF: literal strings of text-showing operators, plus anything DOI-like. */
export function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const parts: string[] = [];
  for (const m of raw.matchAll(/\((?:\\.|[^\\)])*\)\s*Tj|\[(?:[^\]]*)\]\s*TJ/g)) {
    const strings = m[0].match(/\((?:\\.|[^\\)])*\)/g) ?? [];
    parts.push(strings.map((s) => s.slice(1, -1).replace(/\\([()\\])/g, '$1')).join(''));
  }
  const text = parts.join('\n');
  const dois = [...new Set([...raw.matchAll(DOI_RE)].map((m) => m[1]!.replace(/[.,;)\]]+$/, '')))].filter(
    (d) => !text.includes(d),
  );
  return `${text}\n${dois.join('\n')}`;
}

export function parseReferences(
  text: string,
  filetype: string,
): Array<{ text: string; doi: string | null; title: string | null; year?: number }> {
  if (filetype === 'bib') {
    return [...text.matchAll(/@\w+\s*\{[^,]*,([\s\S]*?)\n\}/g)].map((m) => {
      const field = (name: string): string | null => {
        const f = new RegExp(`\\b${name}\\s*=\\s*[{"]([\\s\\S]*?)[}"]\\s*,?\\s*\\n`, 'i').exec(`${m[1]}\n`);
        return f ? f[1]!.replace(/[{}]/g, '').replace(/\s+/g, ' ').trim() : null;
      };
      return { text: m[0].trim(), doi: field('doi'), title: field('title'), year: Number(field('year')) || undefined };
    });
  }
  if (filetype === 'ris') {
    return text
      .split(/^ER\s+-.*$/m)
      .filter((r) => /^TY\s+-/m.test(r))
      .map((r) => {
        const tag = (t: string): string | null => new RegExp(`^${t}\\s+-\\s*(.*)$`, 'm').exec(r)?.[1]?.trim() ?? null;
        return {
          text: r.trim(),
          doi: tag('DO'),
          title: tag('TI') ?? tag('T1'),
          year: Number((tag('PY') ?? tag('Y1') ?? '').slice(0, 4)) || undefined,
        };
      });
  }
  // Plain text (and PDF text): the lines after a References heading, or every line with a DOI.
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const start = lines.findIndex((l) => /^(references|bibliography|works cited|literature cited)\b/i.test(l));
  const candidates =
    start >= 0 ? lines.slice(start + 1) : lines.filter((l) => DOI_RE.test(l) || /^\[?\d+[\].]\s/.test(l));
  DOI_RE.lastIndex = 0;
  return candidates.map((line) => {
    DOI_RE.lastIndex = 0;
    const doi = DOI_RE.exec(line)?.[1] ?? null;
    const title =
      /["“](.+?)[”"]/.exec(line)?.[1] ??
      /\(\d{4}[a-z]?\)\.?\s*([^.]+[.?])/.exec(line)?.[1] ??
      /^\[?\d+[\].]\s*[^.]+\.\s*([^.]+)\./.exec(line)?.[1] ??
      null;
    return {
      text: line,
      doi,
      title,
      year: Number(/\((\d{4})[a-z]?\)|\b(19|20)\d{2}\b/.exec(line)?.[0]?.replace(/\D/g, '')) || undefined,
    };
  });
}

function matchTitle(corpus: Corpus, title: string, year?: number): PaperRow | undefined {
  const ws = words(title).filter((w) => w.length > 2);
  if (ws.length < 2) return undefined;
  const rows = corpus.db
    .prepare(
      'SELECT p.* FROM papers_fts JOIN papers p ON p.id = papers_fts.rowid WHERE papers_fts MATCH ? ORDER BY papers_fts.rank LIMIT 10',
    )
    .all(`title : (${ws.map((w) => `"${w}"`).join(' OR ')})`) as PaperRow[];
  // Identical titles happen (a preprint and its version of record, or two papers): prefer the stated year.
  if (year) rows.sort((a, b) => Number(b.year === year) - Number(a.year === year));
  for (const row of rows) {
    const have = new Set(words(row.title));
    const hits = ws.filter((w) => have.has(w)).length;
    if (hits / ws.length >= 0.7 && hits / Math.max(1, have.size) >= 0.5) return row;
  }
  return undefined;
}

function check(
  corpus: Corpus,
  text: string,
  filetype: string,
  baseUrl: string,
  id: string,
): NonNullable<ReferenceCheckState['result']> {
  const refs = parseReferences(text, filetype);
  const found: FoundReference[] = [];
  const papers: Record<string, Paper> = {};
  const tallies: Record<string, Tally> = {};
  const citations: ReferenceCheckCitation[] = [];
  const overall: TallyCounts = {
    total: 0,
    supporting: 0,
    contradicting: 0,
    mentioning: 0,
    unclassified: 0,
    citingPublications: 0,
  };
  refs.forEach((r, i) => {
    let row = r.doi ? corpus.paperByDoi(cleanDoi(r.doi)) : undefined;
    const by: FoundReference['matchedBy'] = row ? 'doi' : null;
    if (!row && r.title) row = matchTitle(corpus, r.title, r.year);
    found.push({
      index: i + 1,
      text: r.text.slice(0, 2000),
      doi: r.doi ? cleanDoi(r.doi) : null,
      title: r.title,
      matchedDoi: row?.doi ?? null,
      matchedBy: row ? (by ?? 'title') : null,
    });
    if (!row) return;
    citations.push({
      source: `refcheck:${id}`,
      target: row.doi,
      snippet: `<cite data-doi="${row.doi}">${r.text.slice(0, 300).replace(/[<>&]/g, ' ')}</cite>`,
      refLocation: `reference ${i + 1}`,
      section: 'references',
    });
    if (!papers[row.doi]) {
      papers[row.doi] = corpus.paper(row);
      tallies[row.doi] = corpus.tally(row);
      Corpus.addTally(overall, corpus.tallyCounts(row));
    }
  });
  const firstLine = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 10 && !/^[@%]|^TY\s+-/.test(l));
  const result = {
    metadata: {
      title:
        filetype === 'bib' || filetype === 'ris'
          ? `Bibliography (${refs.length} entries)`
          : (firstLine ?? 'Untitled document').slice(0, 300),
      authors: [],
      keywords: [],
    },
    filetype,
    citations,
    references: found,
    reportUrl: `${baseUrl}/reference-check/${id}`,
  } as ReferenceCheckResult & { references: FoundReference[] };
  return { result, papers, tallies, overall };
}

function view(job: ReferenceCheckState, ctx: Context): ReferenceCheckTask {
  if (job.cancelled) return { status: 'CANCELLED' };
  const stage =
    ctx.options.referenceCheckMs <= 0
      ? job.polls
      : Math.floor(((Date.now() - job.createdAt) / ctx.options.referenceCheckMs) * (STEPS.length + 1));
  if (job.fail && stage >= 2) return { status: 'FAILURE', error: job.fail };
  if (stage <= 0) return { status: 'PENDING' };
  if (stage <= STEPS.length || !job.result) {
    const step = Math.min(stage, STEPS.length);
    return { status: 'STARTED', info: { description: STEPS[step - 1]!, step, totalSteps: STEPS.length } };
  }
  return {
    status: 'SUCCESS',
    result: job.result.result,
    papers: job.result.papers,
    tallies: job.result.tallies,
    overallTally: job.result.overall,
  };
}

function filetypeOf(name: string, mimetype: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext === 'bib' || ext === 'bibtex') return 'bib';
  if (ext === 'ris') return 'ris';
  if (ext === 'pdf' || mimetype === 'application/pdf') return 'pdf';
  if (ext === 'docx') return 'docx';
  return 'txt';
}

async function download(url: string): Promise<{ bytes: Buffer; type: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return { bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') ?? '' };
}

const toText = (bytes: Buffer, filetype: string): string =>
  filetype === 'pdf' ? pdfText(bytes) : bytes.toString('utf8');

export function reportToken(id: string): string {
  const header = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'HS256' })).toString('base64url');
  const payload = Buffer.from(
    JSON.stringify({ iss: 'citewise-local-service', name: `refcheck/${id}`, reference_checks: [id] }),
  ).toString('base64url');
  const sig = createHmac('sha256', 'local-service').update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${sig}`;
}

export const referenceCheckHandlers = {
  submitReferenceCheck: async (req, ctx) => {
    const url = (req.query.file_url ?? req.query.pdf_url) as string | undefined;
    const id = randomUUID();
    let filetype = 'pdf';
    let filename: string;
    let text: Promise<string>;
    if (req.raw.isMultipart()) {
      const file = await req.raw.file();
      if (!file)
        throw new HttpError(422, [{ loc: ['body', 'file'], msg: 'field required', type: 'value_error.missing' }]);
      const bytes = await file.toBuffer();
      filename = file.filename;
      filetype = filetypeOf(file.filename, file.mimetype);
      text = Promise.resolve(toText(bytes, filetype));
    } else if (url) {
      filename = url.split('/').pop() || 'document';
      filetype = filetypeOf(filename, '');
      text = download(url).then(({ bytes, type }) => toText(bytes, type.includes('pdf') ? 'pdf' : filetype));
    } else {
      throw new HttpError(422, [
        { loc: ['body', 'file'], msg: 'either a multipart file or file_url is required', type: 'value_error.missing' },
      ]);
    }
    const forced = req.raw.headers['x-citewise-fault'];
    const injected = ctx.faults.taskFails(Array.isArray(forced) ? forced[0] : forced);
    const job: ReferenceCheckState = {
      id,
      token: req.key!.token,
      createdAt: Date.now(),
      polls: 0,
      cancelled: false,
      fail: injected ? 'Reference check failed while extracting references (injected fault)' : null,
      filetype,
      filename,
      text,
    };
    text.then(
      (t) => {
        if (filetype === 'docx')
          job.fail = 'DOCX documents are not supported by the local service; upload PDF, BibTeX, RIS or text';
        else job.result = check(ctx.corpus, t, filetype, req.baseUrl, id);
      },
      (e: Error) => {
        job.fail = `Could not download the document from file_url: ${e.message}`;
      },
    );
    await Promise.race([text.catch(() => ''), new Promise((r) => setTimeout(r, 50))]);
    ctx.state.referenceChecks.set(id, job);
    return ok({ id }, 201);
  },
  getReferenceCheckTask: (req, ctx) => {
    const job = ctx.state.referenceChecks.get(req.params.task_id!);
    if (!job) return ok({ status: 'PENDING' as TaskStatus });
    job.polls++;
    return ok(view(job, ctx));
  },
  cancelReferenceCheckTask: (req, ctx) => {
    const job = ctx.state.referenceChecks.get(req.params.task_id!);
    if (!job) return ok({ status: 'REVOKED' as TaskStatus });
    const current = view(job, ctx);
    if (current.status === 'PENDING' || current.status === 'STARTED') job.cancelled = true;
    return ok(view(job, ctx));
  },
  getReferenceCheckResultUrl: (req) => {
    const id = req.params.task_id!;
    return ok({ reportUrl: `${req.baseUrl}/reference-check/${encodeURIComponent(id)}?authToken=${reportToken(id)}` });
  },
} satisfies Partial<Record<OperationId, Handler>>;
