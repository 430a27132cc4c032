// PDFs in the app. In the desktop app, Add → PDFs… asks the core to open the native dialog
// (`pdfs.choose`): the chosen paths stay in the core, which captures them by path, one per
// `pdfs.addChosen`, copied or linked as Settings → PDFs says; the renderer learns only the names.
// A drop goes the same way, its paths read by the preload (`pdfs.chooseDropped`).
// In browser mode (and for a dropped file without a path) each file's bytes are sent instead (base64,
// one file per request, so no message nears the transport's limit) and always copied. Also the
// "Needs review" list and its decisions, and the pages and snippets of a `fulltext:` search.
import { z } from 'zod';
import {
  hasPathOrControl,
  MAX_PDF_UPLOAD_BYTES,
  type CaptureCandidate,
  type CaptureEvidence,
  type CaptureMethod,
  type CaptureState,
} from '../model/pdf-capture';
import { feature, request } from './define';
import { MAX_DROPPED_PDFS } from './wire';

/** Items whose full-text hits one request may ask for (a page of the table). */
export const MAX_FULLTEXT_HIT_ITEMS = 500;

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export type PdfAddOutcome =
  | {
      name: string;
      /** added: a new item; attached: the PDF went to the item of the same DOI, which had none. */
      status: 'added' | 'attached';
      itemId: number;
      state: CaptureState;
      method: CaptureMethod;
      confidence: number;
      doi: string | null;
      title: string | null;
    }
  | { name: string; status: 'duplicate'; itemId: number; reason: 'checksum' | 'doi' | 'title' | 'key-title' }
  | { name: string; status: 'failed'; code: string; message: string };

/** One captured PDF a person has to look at, with what capture found. */
export interface PdfReviewEntry {
  itemId: number;
  attachmentId: number;
  /** The item's title (a PDF without one is titled from its first page or its file name). */
  title: string | null;
  /** The PDF's file name when it was captured (a copy is stored under its checksum); null: not known. */
  fileName: string | null;
  state: CaptureState;
  method: CaptureMethod;
  confidence: number;
  evidence: CaptureEvidence[];
  candidates: CaptureCandidate[];
}

export interface PdfFulltextHit {
  itemId: number;
  /** The attachment whose file has the page: the reader opens it there. */
  attachmentId: number;
  page: number;
  /** Plain text; the matched words between « and ». */
  snippet: string;
}

/** Files chosen in the desktop app's open dialog: the core keeps their paths under `selection`. */
export interface PdfSelection {
  selection: string;
  /** The files' names, in order (for the progress); their paths never leave the core. */
  names: string[];
}

export const pdfsFeature = feature({
  requests: {
    /** Captures one PDF (its bytes) as an item with the PDF copied into the library folder; runs as a job. */
    'pdfs.add': request(
      z
        .object({
          name: z
            .string()
            .min(1, 'The file name is empty')
            .max(255, 'The file name is longer than 255 characters')
            .refine((n) => !hasPathOrControl(n), {
              message: 'The file name may not hold a path or control characters',
            }),
          base64: z
            .string()
            .min(1, 'The file is empty')
            .max(
              Math.ceil(MAX_PDF_UPLOAD_BYTES / 3) * 4,
              `The file is larger than ${MAX_PDF_UPLOAD_BYTES / 1024 / 1024} MB`,
            )
            .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The file is not base64'),
        })
        .strict(),
    ).returns<PdfAddOutcome>(),
    /**
     * Desktop app: opens the native open dialog (PDFs, several at once). Null when the user cancelled.
     * Browser mode has no such dialog: INVALID_INPUT (it uploads with `pdfs.add`).
     */
    'pdfs.choose': request(z.object({}).strict()).returns<PdfSelection | null>(),
    /**
     * Desktop app: PDFs dropped on the Library, by path. The preload answers it (it alone can read a
     * dropped file's path, and sends the paths to the main process on a channel of its own); null when
     * a file has no path, and the page then uploads the bytes. Reaching the core through `invoke`
     * (browser mode, or a page that made its own call) it is refused: INVALID_INPUT.
     */
    'pdfs.chooseDropped': request(
      z.object({ files: z.array(z.unknown()).min(1).max(MAX_DROPPED_PDFS) }).strict(),
    ).returns<PdfSelection | null>(),
    /** Captures the `index`th file of a selection by its path (copied or linked, as the setting says); runs as a job. */
    'pdfs.addChosen': request(
      z.object({ selection: z.string().min(1).max(100), index: z.number().int().min(0).max(100_000) }).strict(),
    ).returns<PdfAddOutcome>(),
    /** Captured PDFs whose identification is unsure (or waits for the service), oldest first. */
    'pdfs.review': request(z.object({}).strict()).returns<PdfReviewEntry[]>(),
    /** Settles one: take a candidate's DOI (its metadata from the service), or keep the item as it is. */
    'pdfs.resolve': request(
      z
        .object({
          attachmentId: id,
          choice: z.discriminatedUnion('kind', [
            z.object({ kind: z.literal('candidate'), doi: z.string().min(1).max(1000) }).strict(),
            z.object({ kind: z.literal('keep') }).strict(),
          ]),
        })
        .strict(),
    ).returns<PdfReviewEntry[]>(),
    /** The matching pages (up to three per item) of a query's `fulltext:` terms, for the items shown. */
    'pdfs.hits': request(
      z.object({ query: z.string().max(10_000), itemIds: z.array(id).max(MAX_FULLTEXT_HIT_ITEMS) }).strict(),
    ).returns<PdfFulltextHit[]>(),
  },
  events: {},
});
