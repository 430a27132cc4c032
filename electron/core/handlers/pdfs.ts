// PDFs from the app: one file's bytes per request, captured (pdf/capture.ts: read in the PDF worker,
// identified, copied into the library folder) as a job the status bar shows and Cancel stops, then
// its pages indexed for `fulltext:` search. The Needs review list and its decisions, and the pages
// and snippets of a full-text search.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { LibraryChange, PdfAddOutcome, PdfReviewEntry, pdfsFeature } from '../../../shared/ipc';
import type { CaptureRecord } from '../../../shared/model/pdf-capture';
import type { JobRegistry } from '../jobs/registry';
import type { LibraryClient } from '../library/client';
import { candidateCsl, capturePdfs, DEFAULT_CAPTURE_LIMITS, type CaptureFileReport, type CaptureService } from '../pdf/capture';
import { indexFulltext } from '../pdf/fulltext';
import { PdfReader } from '../pdf/run-in-worker';
import type { FeatureHandlers } from '../registry';

export interface PdfHandlerDeps {
  library: Pick<LibraryClient, 'lib' | 'fulltext'>;
  /** Null: no service (the capture waits as pending, or keeps the DOI as a placeholder). */
  service: () => CaptureService | null;
  jobs: JobRegistry;
  /** The library's data folder: copies go to its attachments/ folder. */
  dataDir: string;
  changed: (change: LibraryChange) => void;
  /** Told which items were added (to enrich them). */
  onAdded?: (ids: readonly number[]) => void;
  /** Told of a full-text indexing that failed (the next run tries again). */
  report?: (err: unknown) => void;
  /** Where the bytes sent wait while they are captured (the system's temporary folder by default). */
  tempDir?: string;
}

/** Base64 decoded a slice at a time (a multiple of 4 characters, so every slice decodes on its own). */
const DECODE_SLICE = 1024 * 1024;

/**
 * Writes the bytes a base64 text stands for to a new file, a slice at a time: decoding a 40 MB upload
 * in one go would hold the thread that answers the UI for as long.
 */
export async function writeBase64File(file: string, base64: string): Promise<void> {
  const handle = await open(file, 'wx');
  try {
    for (let at = 0; at < base64.length; at += DECODE_SLICE) await handle.writeFile(Buffer.from(base64.slice(at, at + DECODE_SLICE), 'base64'));
  } finally {
    await handle.close();
  }
}

function outcomeOf(name: string, r: CaptureFileReport): PdfAddOutcome {
  // The report names the temporary file; the user knows the file by the name they chose.
  if (r.status === 'failed') return { name, status: 'failed', code: r.code, message: r.message.split(basename(r.file)).join(name) };
  if (r.status === 'duplicate') return { name, status: 'duplicate', itemId: r.itemId, reason: r.reason };
  return { name, status: r.status, itemId: r.itemId, state: r.state, method: r.method, confidence: r.confidence, doi: r.doi, title: r.title };
}

export function pdfHandlers(deps: PdfHandlerDeps) {
  const { lib } = deps.library;
  // One PDF worker for the app's captures, started on first use; one file at a time.
  let reader: PdfReader | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };

  const review = async (): Promise<PdfReviewEntry[]> => {
    const records: CaptureRecord[] = await lib.unsettledCaptures();
    return Promise.all(
      records.map(async (c) => {
        const item = await lib.getItem(c.itemId);
        return {
          itemId: c.itemId,
          attachmentId: c.attachmentId,
          title: typeof item.csl.title === 'string' ? item.csl.title : null,
          state: c.state,
          method: c.method,
          confidence: c.confidence,
          evidence: c.evidence,
          candidates: c.candidates,
        };
      }),
    );
  };

  /** A PDF became an item (or went to one): the table hears of it, enrichment and the full-text index take it. */
  const afterStored = async (status: 'added' | 'attached', itemId: number, name: string, signal: AbortSignal): Promise<void> => {
    deps.changed({ kind: 'items', ids: [itemId] });
    if (status === 'added') deps.onAdded?.([itemId]);
    // Searchable at once: its pages go into the full-text index (with any PDF still waiting). A
    // cancelled or failed indexing is picked up by the next run, so it does not fail the add.
    const indexing = deps.jobs.start('pdfs.fulltext', `Indexing the text of ${name}`, (job) => indexFulltext(deps.library.fulltext, { reader: reader!, signal: AbortSignal.any([job.signal, signal]), onFile: (_r, done, total) => job.progress(done, total) }));
    await indexing.done.catch((err: unknown) => deps.report?.(err));
  };

  /**
   * Captures files where they are on disk (the watched folder), one at a time after any Add → PDFs…
   * already going, each as a job the status bar shows; copied into the library folder.
   */
  const captureFiles = async (files: readonly string[], signal: AbortSignal): Promise<CaptureFileReport[]> => {
    const reports: CaptureFileReport[] = [];
    for (const file of files) {
      const name = basename(file);
      const report = await serial(async () => {
        let result: CaptureFileReport | null = null;
        const job = deps.jobs.start('pdfs.add', `Adding ${name} from the watched folder`, async (job) => {
          reader ??= new PdfReader({ timeLimitMs: DEFAULT_CAPTURE_LIMITS.timeLimitMs });
          job.progress(0, 1, `Reading ${name}`);
          const [r] = await capturePdfs([file], { library: deps.library, service: deps.service(), reader }, { mode: 'copy', storeDir: join(deps.dataDir, 'attachments'), signal: AbortSignal.any([job.signal, signal]) });
          result = r!;
          job.progress(1, 1, '');
          return r!;
        });
        const r = await job.done.catch((err: unknown) => {
          if (result) return result;
          throw err;
        });
        if (r.status === 'added' || r.status === 'attached') await afterStored(r.status, r.itemId, name, signal);
        return r;
      });
      reports.push(report);
    }
    return reports;
  };

  const handlers = {
    'pdfs.add': ({ name, base64 }, { signal }) =>
      serial(async () => {
        // Set once the file is stored: a Cancel that comes later must not hide what was added.
        let outcome: PdfAddOutcome | null = null;
        const job = deps.jobs.start('pdfs.add', `Adding ${name}`, async (job) => {
          const both = AbortSignal.any([job.signal, signal]);
          const dir = await mkdtemp(join(deps.tempDir ?? tmpdir(), 'citewise-pdf-'));
          try {
            const file = join(dir, name);
            await writeBase64File(file, base64);
            reader ??= new PdfReader({ timeLimitMs: DEFAULT_CAPTURE_LIMITS.timeLimitMs });
            job.progress(0, 1, `Reading ${name}`);
            const [report] = await capturePdfs([file], { library: deps.library, service: deps.service(), reader }, { mode: 'copy', storeDir: join(deps.dataDir, 'attachments'), signal: both });
            outcome = outcomeOf(name, report!);
            job.progress(1, 1, '');
            return outcome;
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        });
        const stored = await job.done.catch((err: unknown) => {
          if (outcome) return outcome;
          throw err;
        });
        if (stored.status === 'added' || stored.status === 'attached') await afterStored(stored.status, stored.itemId, name, signal);
        return stored;
      }),
    'pdfs.review': () => review(),
    'pdfs.resolve': async ({ attachmentId, choice }, { signal }) => {
      const settled =
        choice.kind === 'keep'
          ? await lib.settleCapture(attachmentId, null)
          : await lib.settleCapture(attachmentId, { doi: choice.doi, csl: await candidateCsl(choice.doi, { library: deps.library, service: deps.service() }, signal) });
      deps.changed({ kind: 'items', ids: [settled] });
      return review();
    },
    'pdfs.hits': ({ query, itemIds }) => deps.library.fulltext.hits(query, itemIds),
  } satisfies FeatureHandlers<typeof pdfsFeature>;

  return {
    handlers,
    captureFiles,
    /** Ends the PDF worker (the core's close). */
    close: async (): Promise<void> => {
      await reader?.close();
      reader = null;
    },
  };
}
