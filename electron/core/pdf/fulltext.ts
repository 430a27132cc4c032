// Building the full-text index of attached PDFs: every attached PDF whose checksum the index does not
// hold yet is read in the PDF worker (run-in-worker.ts, every page) and its pages stored in one
// transaction (FulltextStore.record). What is recorded is skipped next time, so a run stopped by a
// cancel, a crash or a kill resumes where it was. Files over the size or page cap are recorded as
// too big without their text; pages without a text layer (scans) are counted into a note.
import { readFile, stat } from 'node:fs/promises';
import { CoreError } from '../errors';
import type { AsyncFulltext } from '../library/client';
import type { FulltextOutcome, FulltextPending, FulltextStatus } from '../library/fulltext-store';
import { PdfReader } from './run-in-worker';

export interface FulltextLimits {
  /** Larger files are not indexed (recorded as too big). */
  maxBytes: number;
  /** Documents with more pages are not indexed (recorded as too big). */
  maxPages: number;
  /** Per file: reading it is stopped after this long (and it is recorded as unreadable). */
  timeLimitMs: number;
}

export const DEFAULT_FULLTEXT_LIMITS: FulltextLimits = {
  maxBytes: 100 * 1024 * 1024,
  maxPages: 2000,
  timeLimitMs: 120_000,
};

export interface FulltextFileReport {
  sha256: string;
  path: string;
  /** 'missing': the file is not where the attachment says; left pending, tried again next run. */
  status: FulltextStatus | 'missing';
  pages: number;
  note: string | null;
}

export interface FulltextIndexOptions {
  /** Empty the index first and read every attached PDF again. */
  rebuild?: boolean;
  limits?: Partial<FulltextLimits>;
  signal?: AbortSignal;
  /** Called after each file, with how many of this run's files are done. */
  onFile?: (report: FulltextFileReport, done: number, total: number) => void;
  /** A reader to reuse (closed by its owner); one is made and closed per call otherwise. */
  reader?: PdfReader;
}

export interface FulltextRunResult {
  files: FulltextFileReport[];
  /** PDFs already indexed before this run (skipped). */
  skipped: number;
}

const CANCELLED = 'The full-text indexing was cancelled; what was indexed is kept and the next run continues.';

const pagesWord = (n: number): string => `${n} page${n === 1 ? '' : 's'}`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function indexOne(
  pdf: FulltextPending,
  reader: PdfReader,
  limits: FulltextLimits,
  signal?: AbortSignal,
): Promise<FulltextOutcome | 'missing'> {
  const info = await stat(pdf.path).catch(() => null);
  if (!info || !info.isFile()) return 'missing';
  const base = { sha256: pdf.sha256, pages: [], pageCount: 0 };
  if (info.size > limits.maxBytes)
    return {
      ...base,
      status: 'too-big',
      note: `not searchable: the file is ${mb(info.size)}; the full-text limit is ${mb(limits.maxBytes)}`,
    };
  // Moved to the worker as read, not copied: a copy of a large PDF would stall the thread that answers the UI.
  const read = await reader.read(await readFile(pdf.path), limits.maxPages, signal, {
    wholeOrNone: true,
    cancelMessage: CANCELLED,
    move: true,
  });
  if (!read.ok) return { ...base, status: 'unreadable', note: `not searchable: ${read.failure.message}` };
  const { pageCount, pages } = read.facts;
  if (pageCount > limits.maxPages)
    return {
      ...base,
      pageCount,
      status: 'too-big',
      note: `not searchable: it has ${pagesWord(pageCount)}; the full-text limit is ${limits.maxPages}`,
    };
  const empty = pageCount - pages.filter((p) => p.text.trim() !== '').length;
  if (pageCount > 0 && empty === pageCount)
    return {
      ...base,
      pageCount,
      status: 'no-text',
      note: `no text layer on ${pagesWord(empty)} (a scan?); it needs OCR to be searchable`,
    };
  return {
    sha256: pdf.sha256,
    pageCount,
    pages,
    status: 'indexed',
    note: empty > 0 ? `no text layer on ${pagesWord(empty)} (a scan?); those pages are not searchable` : null,
  };
}

/**
 * Indexes the attached PDFs not indexed yet, one after another. Throws CANCELLED on cancel (what was
 * recorded stays); a file that cannot be read is recorded with a note, not thrown.
 */
export async function indexFulltext(
  store: Pick<AsyncFulltext, 'pending' | 'record' | 'clear' | 'summary'>,
  options: FulltextIndexOptions = {},
): Promise<FulltextRunResult> {
  const limits = { ...DEFAULT_FULLTEXT_LIMITS, ...options.limits };
  if (options.rebuild) await store.clear();
  const before = await store.summary();
  const pending = await store.pending();
  const reader = options.reader ?? new PdfReader({ timeLimitMs: limits.timeLimitMs });
  const files: FulltextFileReport[] = [];
  try {
    for (const pdf of pending) {
      if (options.signal?.aborted) throw new CoreError('CANCELLED', CANCELLED);
      const outcome = await indexOne(pdf, reader, limits, options.signal);
      let report: FulltextFileReport;
      if (outcome === 'missing')
        report = {
          sha256: pdf.sha256,
          path: pdf.path,
          status: 'missing',
          pages: 0,
          note: `the file is not at ${pdf.path}`,
        };
      else {
        await store.record(outcome);
        report = {
          sha256: pdf.sha256,
          path: pdf.path,
          status: outcome.status,
          pages: outcome.pageCount,
          note: outcome.note,
        };
      }
      files.push(report);
      options.onFile?.(report, files.length, pending.length);
    }
  } finally {
    if (!options.reader) await reader.close();
  }
  return { files, skipped: before.pdfs - before.pending };
}
