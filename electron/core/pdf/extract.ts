// What a PDF says about itself, read with pdf.js: its document info and XMP, the text of its first
// pages (or of every page, for the full-text index) and the first page's title and author lines.
// Runs inside the PDF worker (worker.ts); the core never parses a PDF on the thread that answers the UI.

import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { maxOf, minOf } from '../../../shared/model/arrays';

export interface PageText {
  /** 1-based. */
  page: number;
  text: string;
}

export interface PdfFacts {
  pageCount: number;
  /** String values of the document info dictionary, custom keys included. */
  info: Record<string, string>;
  /** The XMP packet, or null. */
  xmp: string | null;
  /** Text of the pages read (up to the page cap), in page order. */
  pages: PageText[];
  /** The largest text near the top of the first page, or null when it has none. */
  title: string | null;
  /** The line under the title (usually the authors), or null. */
  byline: string | null;
}

export interface ExtractOptions {
  /** Pages whose text is read, from the first. */
  maxPages: number;
  /** A document with more pages than maxPages gets none read (the full-text index skips it whole). */
  wholeOrNone?: boolean;
}

/**
 * Why a file is not a PDF that can be read, in words for the user. `too-large`: reading it would
 * expand it beyond a cap of the PDF worker (expansion-cap.ts).
 */
export type ExtractFailure = { code: 'not-pdf' | 'encrypted' | 'corrupt' | 'too-large'; message: string };

export class PdfReadError extends Error {
  constructor(readonly failure: ExtractFailure) {
    super(failure.message);
  }
}

interface TextItemLike {
  str: string;
  transform: number[];
  hasEOL?: boolean;
}

const isText = (i: unknown): i is TextItemLike =>
  typeof (i as TextItemLike).str === 'string' && Array.isArray((i as TextItemLike).transform);

function startsAsPdf(bytes: Uint8Array): boolean {
  // The header may follow some junk, but must be within the first kilobyte (ISO 32000-1, 7.5.2 note).
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

type PdfJs = typeof PdfJsModule;
let pdfjs: Promise<PdfJs> | undefined;

/** pdf.js, loaded once per thread. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

export async function extractPdf(bytes: Uint8Array, options: ExtractOptions): Promise<PdfFacts> {
  if (!startsAsPdf(bytes))
    throw new PdfReadError({ code: 'not-pdf', message: 'it is not a PDF (it does not start with a PDF header)' });
  const lib = await loadPdfJs();
  let doc: Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
  try {
    doc = await lib.getDocument({
      data: bytes,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    }).promise;
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException')
      throw new PdfReadError({
        code: 'encrypted',
        message:
          'it is encrypted with a password; open it in a PDF reader, save it without the password and add it again',
      });
    throw new PdfReadError({
      code: 'corrupt',
      message: `it is damaged and cannot be read (${(err as Error).message})`,
    });
  }
  try {
    const meta = await doc.getMetadata().catch(() => null);
    const info: Record<string, string> = {};
    const collect = (obj: unknown, prefix: string): void => {
      if (!obj || typeof obj !== 'object') return;
      for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
        if (typeof v === 'string' && v !== '') info[prefix + k] = v;
        else if (k === 'Custom') collect(v, '');
      }
    };
    collect(meta?.info, '');
    const xmp = (meta?.metadata as { getRaw?: () => unknown } | null | undefined)?.getRaw?.();
    const pages: PageText[] = [];
    let title: string | null = null;
    let byline: string | null = null;
    const last = options.wholeOrNone && doc.numPages > options.maxPages ? 0 : Math.min(doc.numPages, options.maxPages);
    for (let n = 1; n <= last; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const items: TextItemLike[] = (content.items as unknown[]).filter(isText);
      pages.push({ page: n, text: joinItems(items) });
      if (n === 1) ({ title, byline } = titleOf(items, page.view));
      page.cleanup();
    }
    return {
      pageCount: doc.numPages,
      info,
      xmp: typeof xmp === 'string' && xmp !== '' ? xmp : null,
      pages,
      title,
      byline,
    };
  } catch (err) {
    if (err instanceof PdfReadError) throw err;
    throw new PdfReadError({
      code: 'corrupt',
      message: `it is damaged and cannot be read (${(err as Error).message})`,
    });
  } finally {
    await doc.destroy();
  }
}

function joinItems(items: readonly TextItemLike[]): string {
  let out = '';
  for (const i of items) out += i.str + (i.hasEOL ? '\n' : i.str === '' ? '' : ' ');
  return out.replace(/[ \t]+\n/g, '\n').trim();
}

const sizeOf = (i: TextItemLike): number => Math.hypot(i.transform[2] ?? 0, i.transform[3] ?? 0);

/**
 * The title: the largest text in the top half of the first page (all runs of that size, in reading
 * order); the byline: the first line below it. Running heads in small print do not win on size.
 */
function titleOf(items: readonly TextItemLike[], view: number[]): { title: string | null; byline: string | null } {
  const top = view[3] ?? 842;
  const bottom = view[1] ?? 0;
  const upper = items.filter((i) => i.str.trim() !== '' && (i.transform[5] ?? 0) >= bottom + (top - bottom) / 2);
  if (upper.length === 0) return { title: null, byline: null };
  const largest = maxOf(upper.map(sizeOf));
  const runs = upper.filter((i) => sizeOf(i) >= largest * 0.95);
  const title = runs
    .map((i) => i.str.trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const lowestTitleY = minOf(runs.map((i) => i.transform[5] ?? 0));
  const below = items.filter((i) => i.str.trim() !== '' && (i.transform[5] ?? 0) < lowestTitleY - 0.5);
  let byline: string | null = null;
  if (below.length > 0) {
    const y = maxOf(below.map((i) => i.transform[5] ?? 0));
    byline =
      below
        .filter((i) => Math.abs((i.transform[5] ?? 0) - y) < 1)
        .map((i) => i.str.trim())
        .join(' ')
        .trim() || null;
  }
  return { title: title === '' ? null : title.slice(0, 500), byline: byline?.slice(0, 500) ?? null };
}
