// PDFs from the app, captured (pdf/capture.ts: read in the PDF worker, identified, copied into the
// library folder or linked where they are) as a job the status bar shows and Cancel stops, then their
// pages indexed for `fulltext:` search. Three ways in: the bytes of one uploaded file per request
// (browser mode; always copied), the paths the desktop app's open dialog or a drop on it gave (kept
// here, never sent to the renderer), and the watched folder's files. The Needs review list and its decisions, and
// the pages and snippets of a full-text search.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { ChosenFiles } from '../chosen-files';
import { basename, isAbsolute, join } from 'node:path';
import {
  MAX_DROPPED_PDFS,
  type LibraryChange,
  type PdfAddOutcome,
  type PdfReviewEntry,
  type PdfSelection,
  type pdfsFeature,
  type PdfStorage,
} from '../../../shared/ipc';
import type { DesktopShell } from '../desktop';
import { CoreError } from '../errors';
import type { CaptureRecord } from '../../../shared/model/pdf-capture';
import type { JobRegistry } from '../jobs/registry';
import type { LibraryClient } from '../library/client';
import {
  candidateCsl,
  capturePdfs,
  DEFAULT_CAPTURE_LIMITS,
  type CaptureFileReport,
  type CaptureOptions,
  type CaptureService,
} from '../pdf/capture';
import { attachLinkedFiles, type AttachFilesReport } from '../pdf/attach-files';
import { indexFulltext } from '../pdf/fulltext';
import { PdfReader } from '../pdf/run-in-worker';
import type { FeatureHandlers } from '../registry';

export interface PdfHandlerDeps {
  library: Pick<LibraryClient, 'lib' | 'fulltext' | 'serviceCache'>;
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
  /** Settings → PDFs: copy chosen and watched files into the library folder, or link them where they are. */
  storage: () => PdfStorage;
  /** The desktop app's open dialog; absent in browser mode, the CLI and tests without one. */
  desktop?: DesktopShell | undefined;
  /** The files chosen in the open dialog or dropped, by selection (shared with the import). */
  chosen: ChosenFiles;
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
    for (let at = 0; at < base64.length; at += DECODE_SLICE)
      await handle.writeFile(Buffer.from(base64.slice(at, at + DECODE_SLICE), 'base64'));
  } finally {
    await handle.close();
  }
}

function outcomeOf(name: string, r: CaptureFileReport): PdfAddOutcome {
  // The report names the temporary file; the user knows the file by the name they chose.
  if (r.status === 'failed')
    return { name, status: 'failed', code: r.code, message: r.message.split(basename(r.file)).join(name) };
  if (r.status === 'duplicate') return { name, status: 'duplicate', itemId: r.itemId, reason: r.reason };
  return {
    name,
    status: r.status,
    itemId: r.itemId,
    state: r.state,
    method: r.method,
    confidence: r.confidence,
    doi: r.doi,
    title: r.title,
  };
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

  const select = (paths: readonly string[]): PdfSelection => deps.chosen.select(paths);

  const review = async (): Promise<PdfReviewEntry[]> => {
    const records: CaptureRecord[] = await lib.unsettledCaptures();
    return Promise.all(
      records.map(async (c) => {
        const item = await lib.getItem(c.itemId);
        const attachment = item.attachments.find((a) => a.id === c.attachmentId);
        return {
          itemId: c.itemId,
          attachmentId: c.attachmentId,
          title: typeof item.csl.title === 'string' ? item.csl.title : null,
          fileName: attachment?.originalName ?? (attachment?.stored === 'linked' ? basename(attachment.path) : null),
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
  const afterStored = async (
    status: 'added' | 'attached',
    itemId: number,
    name: string,
    signal: AbortSignal,
  ): Promise<void> => {
    deps.changed({ kind: 'items', ids: [itemId] });
    if (status === 'added') deps.onAdded?.([itemId]);
    // Searchable at once: its pages go into the full-text index (with any PDF still waiting). A
    // cancelled or failed indexing is picked up by the next run, so it does not fail the add.
    await indexPending(`Indexing the text of ${name}`, signal);
  };

  /** The full-text index takes every attached PDF not read yet, as a job. */
  const indexPending = async (label: string, signal: AbortSignal): Promise<void> => {
    reader ??= new PdfReader({ timeLimitMs: DEFAULT_CAPTURE_LIMITS.timeLimitMs });
    const indexing = deps.jobs.start('pdfs.fulltext', label, (job) =>
      indexFulltext(deps.library.fulltext, {
        reader: reader!,
        signal: AbortSignal.any([job.signal, signal]),
        onFile: (_r, done, total) => job.progress(done, total),
      }),
    );
    await indexing.done.catch((err: unknown) => deps.report?.(err));
  };

  /**
   * One file captured as a `pdfs.add` job the status bar shows and Cancel stops, after any capture
   * already going. `withFile` gives the file on disk to `capture` (and may clean up after it).
   */
  const captureAsJob = (
    label: string,
    name: string,
    storage: PdfStorage,
    signal: AbortSignal,
    withFile: (capture: (file: string) => Promise<CaptureFileReport>) => Promise<CaptureFileReport>,
    into?: CaptureOptions['into'],
  ): Promise<CaptureFileReport> =>
    serial(async () => {
      // Set once the file is stored: a Cancel that comes later must not hide what was added.
      let result: CaptureFileReport | null = null;
      const job = deps.jobs.start('pdfs.add', label, (job) =>
        withFile(async (file) => {
          reader ??= new PdfReader({ timeLimitMs: DEFAULT_CAPTURE_LIMITS.timeLimitMs });
          job.progress(0, 1, `Reading ${name}`);
          const [r] = await capturePdfs(
            [file],
            { library: deps.library, service: deps.service(), reader },
            {
              mode: storage,
              storeDir: join(deps.dataDir, 'attachments'),
              signal: AbortSignal.any([job.signal, signal]),
              ...(into ? { into } : {}),
            },
          );
          result = r!;
          job.progress(1, 1, '');
          return r!;
        }),
      );
      const r = await job.done.catch((err: unknown) => {
        if (result) return result;
        throw err;
      });
      if (r.status === 'added' || r.status === 'attached') await afterStored(r.status, r.itemId, name, signal);
      return r;
    });

  /** Captures files where they are on disk (the watched folder), one job each; copied or linked as the setting says. */
  const captureFiles = async (files: readonly string[], signal: AbortSignal): Promise<CaptureFileReport[]> => {
    const reports: CaptureFileReport[] = [];
    for (const file of files) {
      const name = basename(file);
      reports.push(
        await captureAsJob(`Adding ${name} from the watched folder`, name, deps.storage(), signal, (capture) =>
          capture(file),
        ),
      );
    }
    return reports;
  };

  /** Uploaded bytes have no file to link to: they are always copied. */
  const captureUpload = (
    name: string,
    base64: string,
    signal: AbortSignal,
    into?: CaptureOptions['into'],
  ): Promise<CaptureFileReport> =>
    captureAsJob(
      `Adding ${name}`,
      name,
      'copy',
      signal,
      async (capture) => {
        const dir = await mkdtemp(join(deps.tempDir ?? tmpdir(), 'citewise-pdf-'));
        try {
          const file = join(dir, name);
          await writeBase64File(file, base64);
          return await capture(file);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
      into,
    );

  const handlers = {
    'pdfs.add': async ({ name, base64 }, { signal }) => outcomeOf(name, await captureUpload(name, base64, signal)),
    'pdfs.choose': async () => {
      if (!deps.desktop)
        throw new CoreError(
          'INVALID_INPUT',
          'Choosing PDFs on this computer needs the desktop app; in the browser, Add → PDFs… uploads them instead.',
        );
      const chosen = await deps.desktop.chooseOpenFiles({
        title: 'Add PDFs',
        filters: [{ name: 'PDF documents', extensions: ['pdf'] }],
        multiple: true,
      });
      return chosen && chosen.length > 0 ? select(chosen) : null;
    },
    // The preload answers this in the desktop app (ELECTRON_DROP_CHANNEL); here nobody can say where a file is.
    'pdfs.chooseDropped': async () => {
      throw new CoreError(
        'INVALID_INPUT',
        'Dropped files are uploaded here: only the desktop app can add them where they are.',
      );
    },
    'pdfs.addChosen': async ({ selection, index }, { signal }) => {
      // An upload (a file to import, sent by the browser) is the core's temporary copy: never attached.
      const chosen = deps.chosen.get(selection, index);
      if (chosen === undefined || chosen.upload)
        throw new CoreError(
          'NOT_FOUND',
          'Citewise no longer knows which files were chosen; choose them again (Add → PDFs…).',
        );
      const { path: file, name } = chosen;
      return outcomeOf(
        name,
        await captureAsJob(`Adding ${name}`, name, deps.storage(), signal, (capture) => capture(file)),
      );
    },
    'pdfs.review': () => review(),
    'pdfs.resolve': async ({ attachmentId, choice }, { signal }) => {
      const settled =
        choice.kind === 'keep'
          ? await lib.settleCapture(attachmentId, null)
          : await lib.settleCapture(attachmentId, {
              doi: choice.doi,
              csl: await candidateCsl(choice.doi, { library: deps.library, service: deps.service() }, signal),
            });
      deps.changed({ kind: 'items', ids: [settled] });
      return review();
    },
    'pdfs.hits': ({ query, itemIds }) => deps.library.fulltext.hits(query, itemIds),
  } satisfies FeatureHandlers<typeof pdfsFeature>;

  /**
   * The files a .bib's entries name, attached to their items (pdf/attach-files.ts) as a job the status
   * bar shows, after any capture already going; the PDFs' text is indexed next, as for a dropped PDF.
   */
  const attachFiles = (
    itemIds: readonly number[],
    baseDirs: readonly string[],
    label: string,
    signal: AbortSignal,
  ): Promise<AttachFilesReport> =>
    serial(async () => {
      const job = deps.jobs.start('pdfs.attach', `Attaching the files named in ${label}`, (job) =>
        attachLinkedFiles(lib, itemIds, {
          baseDirs,
          mode: deps.storage(),
          storeDir: join(deps.dataDir, 'attachments'),
          signal: AbortSignal.any([job.signal, signal]),
          onFile: (done, total) => job.progress(done, total, `${done} of ${total} files`),
        }),
      );
      const report = await job.done;
      const touched = [...new Set(report.files.filter((f) => f.status === 'attached').map((f) => f.itemId))];
      if (touched.length > 0) deps.changed({ kind: 'items', ids: touched });
      if (report.pdfs > 0) {
        reader ??= new PdfReader({ timeLimitMs: DEFAULT_CAPTURE_LIMITS.timeLimitMs });
        const indexing = deps.jobs.start('pdfs.fulltext', `Indexing the text of the PDFs of ${label}`, (job) =>
          indexFulltext(deps.library.fulltext, {
            reader: reader!,
            signal: AbortSignal.any([job.signal, signal]),
            onFile: (_r, done, total) => job.progress(done, total),
          }),
        );
        // Not waited for: the import's report is ready; the index fills in the background (status bar).
        void indexing.done.catch((err: unknown) => deps.report?.(err));
      }
      return report;
    });

  return {
    handlers,
    captureFiles,
    /** Indexes the text of attached PDFs not read yet (after a Zotero data-folder import). */
    indexPending: (signal: AbortSignal) => indexPending('Indexing the text of imported PDFs', signal),
    /** A PDF's bytes for an item the Zotero Connector saved (its own PDF): captured and attached to it. */
    captureInto: async (
      upload: { name: string; base64: string; itemId: number; source: string },
      signal: AbortSignal,
    ): Promise<PdfAddOutcome> =>
      outcomeOf(
        upload.name,
        await captureUpload(upload.name, upload.base64, signal, { itemId: upload.itemId, source: upload.source }),
      ),
    attachFiles,
    /**
     * The paths of PDFs dropped on the desktop app (the preload read them; the main process checked the
     * sender): a selection for `pdfs.addChosen`. Anything but full paths is refused.
     */
    selectDropped(paths: unknown): PdfSelection | null {
      if (!Array.isArray(paths) || paths.length > MAX_DROPPED_PDFS)
        throw new CoreError('INVALID_INPUT', `Dropped PDFs come as a list of at most ${MAX_DROPPED_PDFS} paths.`);
      const bad = paths.find((p) => typeof p !== 'string' || p.length > 4096 || !isAbsolute(p));
      if (bad !== undefined)
        throw new CoreError('INVALID_INPUT', 'A dropped file came without a full path on this computer.');
      return paths.length > 0 ? select(paths as string[]) : null;
    },
    /** Ends the PDF worker (the core's close). */
    close: async (): Promise<void> => {
      await reader?.close();
      reader = null;
    },
  };
}
