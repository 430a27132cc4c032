// Import and export of reference files: BibTeX/BibLaTeX, RIS, CSL-JSON and DOI lists. Pure Node, no
// database: the library store takes an ParseResult and writes it in one transaction. For big files
// use importInWorker (./run-in-worker), which runs the same code off the thread that answers the UI.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { basename } from 'node:path';
import type { CslItem } from '../../../shared/model/csl';
import type { ReferenceFormat } from '../../../shared/model/reference-formats';
import { toBibtex, type BibtexExportOptions } from './bibtex/export';
import { ItemCollector, type ItemCheck, type ItemSink } from './collector';
import { importBibtex, importBibtexWindows, needsWholeFileBytes, type NextWindow } from './bibtex/import';
import { importCslJson } from './csljson/import';
import { toCslJson } from './csljson/export';
import { assertText, decodeBytes, guessUtf16 } from './decode';
import { detectFormat } from './detect';
import { importDoiList } from './doi-list/import';
import { FormatError, resolveLimits, type ImportLimits } from './limits';
import { openRegularFile, readCapped, type FileProblemError } from '../fs/regular-file';
import type { ImportFormat, ParseResult } from './result';
import { importRis } from './ris/import';
import { toRis } from './ris/export';
import { grouped } from '../../../shared/model/numbers';
import { appendAll } from '../../../shared/model/arrays';
import type { SentenceCaseMode } from '../../../shared/model/settings';

export { toBibtex, toCslJson, toRis, detectFormat, FormatError };
export { DEFAULT_LIMITS, type ImportLimits } from './limits';
export { doiPlaceholder } from './doi-list/import';
export { paperToCsl } from './doi-list/from-paper';
export { itemFingerprint } from './fingerprint';
export type { ItemCheck, ItemSink } from './collector';
export type { BibtexExportOptions } from './bibtex/export';
export type { RisCustom } from './ris/import';
export type { BibtexCustom } from './bibtex/mapping';
export {
  importInWorker,
  type PortMessage,
  type WorkerImportOptions,
  type WorkerImportResult,
  type WorkerSource,
} from './run-in-worker';
export type { ImportFormat, ParseResult, ImportedItem, ImportIssue, ImportedDoi } from './result';

export interface ImportOptions {
  /** Skip detection. */
  format?: ImportFormat | undefined;
  /** For detection by extension and for messages. */
  fileName?: string | undefined;
  limits?: Partial<ImportLimits> | undefined;
  /** Stream the items out in chunks instead of returning them (see ItemCollector). */
  onItems?: ItemSink | undefined;
  /** Work on each item as it is read, before it is streamed; a throw leaves that entry out (ItemCheck). */
  checkItem?: ItemCheck | undefined;
  chunkSize?: number | undefined;
  /** Files larger than this are read in pieces of this many bytes when they can be (importFile); tests make it small. */
  pieceBytes?: number | undefined;
  /** BibTeX: what becomes of English Title Case titles (Settings → Import); 'protected' when omitted. */
  sentenceCase?: SentenceCaseMode | undefined;
}

/** What a parser is told besides its limits. */
export interface ParseOptions {
  sentenceCase?: SentenceCaseMode | undefined;
}

/**
 * A 100,000-entry BibTeX file is about 70 MB, and as one JavaScript string (two bytes a character as
 * soon as one character is outside Latin-1) about 140 MB, held for the whole parse. Read in pieces it
 * costs a few megabytes.
 */
const PIECE_BYTES = 4 * 1024 * 1024;

const IMPORTERS: Readonly<
  Record<ImportFormat, (text: string, limits: ImportLimits, out: ItemCollector, options: ParseOptions) => ParseResult>
> = {
  bibtex: importBibtex,
  ris: importRis,
  csljson: importCslJson,
  'doi-list': importDoiList,
};

/** Imports text (a paste, or a file already decoded). Entry problems are in the result; file problems throw FormatError. */
export function importText(text: string, options: ImportOptions = {}): ParseResult {
  const limits = resolveLimits(options.limits);
  if (text.length > limits.maxBytes)
    throw new FormatError(
      `The text is ${grouped(text.length)} characters; the import limit is ${grouped(limits.maxBytes)}.`,
    );
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  assertText(clean);
  const format = options.format ?? detectFormat(clean, options.fileName);
  return IMPORTERS[format](clean, limits, new ItemCollector(options.onItems, options.chunkSize, options.checkItem), {
    sentenceCase: options.sentenceCase,
  });
}

/** Imports bytes: decodes UTF-8 (with or without BOM), UTF-16 LE/BE, or Windows-1252 with a warning. */
export function importBytes(bytes: Uint8Array, options: ImportOptions = {}): ParseResult {
  const limits = resolveLimits(options.limits);
  return importDecoded(decodeBytes(bytes, limits), { ...options, limits });
}

function importDecoded(decoded: ReturnType<typeof decodeBytes>, options: ImportOptions): ParseResult {
  const result = importText(decoded.text, options);
  result.encoding = decoded.encoding;
  if (decoded.warnings.length > 0) result.warnings = appendAll([...decoded.warnings], result.warnings);
  return result;
}

function tooLarge(size: number, limits: ImportLimits): FormatError {
  return new FormatError(
    `The file is ${(size / 1024 / 1024).toFixed(1)} MB; the import limit is ${(limits.maxBytes / 1024 / 1024).toFixed(1)} MB.`,
  );
}

/** Import's words for a path that is not a regular file within the size limit (see fs/regular-file.ts). */
const refusal =
  (path: string, limits: ImportLimits): FileProblemError =>
  (problem) => {
    switch (problem.kind) {
      case 'loop':
        return new FormatError(`${path} is a loop of symbolic links; it leads to no file.`);
      case 'permission':
        return new FormatError(`${path} cannot be read: permission denied.`);
      case 'folder':
        return new FormatError(`${path} is a folder, not a file; choose a file to import.`);
      case 'not-regular':
        return new FormatError(`${path} is ${problem.what}, not a regular file; Citewise imports only files.`);
      case 'too-large':
        return tooLarge(problem.size, limits);
    }
  };

/** Imports a file, refusing anything that is not a regular file, or one over the size limit (also while reading it). */
export function importFile(path: string, options: ImportOptions = {}): ParseResult {
  const limits = resolveLimits(options.limits);
  const fail = refusal(path, limits);
  const opened = openRegularFile(path, limits.maxBytes, fail);
  const size = opened.size;
  const withName = { ...options, limits, fileName: options.fileName ?? basename(path) };
  const pieceBytes = options.pieceBytes ?? PIECE_BYTES;
  let bytes: Buffer;
  try {
    if (size > pieceBytes) {
      const result = importFileInPieces(path, withName, pieceBytes);
      if (result) return result;
    }
    bytes = readCapped(opened.fd, limits.maxBytes, size, fail);
  } finally {
    closeSync(opened.fd);
  }
  // The bytes are a temporary: once decoded they can be collected while the text is parsed.
  return importDecoded(decodeBytes(bytes, limits), withName);
}

/**
 * A large UTF-8 BibTeX file without crossref or xdata (the common case), read and parsed piece by
 * piece with the same result as reading it whole. A first pass over the bytes checks that it is one;
 * null when it is not (another format, another encoding, inheritance), for the whole-file path.
 */
function importFileInPieces(
  path: string,
  options: ImportOptions & { limits: ImportLimits },
  pieceBytes: number,
): ParseResult | null {
  // What the whole-file path looks at first: the encoding, binary content and the format, from the head.
  const [head] = filePieces(path, HEAD_BYTES);
  if (
    !head ||
    guessUtf16(head) ||
    (head[0] === 0xff && head[1] === 0xfe) ||
    (head[0] === 0xfe && head[1] === 0xff) ||
    !isUtf8(head)
  )
    return null;
  const headText = stripBoms(new TextDecoder('utf-8').decode(head));
  assertText(headText);
  if ((options.format ?? detectFormat(headText, options.fileName)) !== 'bibtex') return null;
  // A word cut between two pieces: the last bytes of one and the first of the next, looked at together.
  let tail = new Uint8Array(0);
  for (const bytes of filePieces(path, pieceBytes)) {
    if (!isUtf8(bytes)) return null;
    const seam = new Uint8Array(tail.length + Math.min(bytes.length, 7));
    seam.set(tail);
    seam.set(bytes.subarray(0, seam.length - tail.length), tail.length);
    if (needsWholeFileBytes(seam) || needsWholeFileBytes(bytes)) return null;
    tail = bytes.slice(Math.max(0, bytes.length - 7));
  }
  const windows = fileWindows(path, pieceBytes);
  try {
    const result = importBibtexWindows(
      windows.next,
      options.limits,
      new ItemCollector(options.onItems, options.chunkSize, options.checkItem),
      { sentenceCase: options.sentenceCase },
    );
    result.encoding = 'utf-8';
    return result;
  } finally {
    windows.close();
  }
}

/**
 * A UTF-8 file's text as windows (importBibtexWindows), each decoded from the bytes in one go: the
 * carry's bytes (valid UTF-8 decoded, so its length in UTF-8 is the bytes it came from) and about
 * `size` more, ending on a character boundary. Up to three byte-order marks at the start are skipped,
 * as the whole-file path drops them (decodeBytes, its decoder, importText); every other character,
 * U+FEFF included, is kept.
 */
function fileWindows(path: string, pieceBytes: number): { next: NextWindow; close(): void } {
  // At least one whole character past the carry, so that every window gets further.
  const size = Math.max(pieceBytes, 4);
  const fd = openSync(path, 'r');
  const length = fstatSync(fd).size;
  let buffer = Buffer.allocUnsafe(Math.max(size + 4, 16));
  const read = (start: number, want: number): void => {
    for (let got = 0; got < want;) {
      const n = readSync(fd, buffer, got, want - got, start + got);
      if (n === 0) throw new FormatError('The file changed while it was being read (it got shorter); import it again.');
      got += n;
    }
  };
  let decoded = 0;
  read(0, Math.min(length, 9));
  while (decoded < 9 && buffer[decoded] === 0xef && buffer[decoded + 1] === 0xbb && buffer[decoded + 2] === 0xbf)
    decoded += 3;
  const next = (carry: string): string | null => {
    if (decoded >= length) return null;
    const carryBytes = Buffer.byteLength(carry, 'utf8');
    const start = decoded - carryBytes;
    const want = Math.min(length - start, carryBytes + size);
    if (buffer.length < want) buffer = Buffer.allocUnsafe(want + size);
    read(start, want);
    const end = start + want < length ? characterEnd(buffer, want) : want;
    decoded = start + end;
    try {
      return WINDOW_DECODER.decode(buffer.subarray(0, end));
    } catch {
      // The first pass found valid UTF-8; a window that is not means the file changed since, and the
      // windows would no longer line up with its bytes.
      throw new FormatError('The file changed while it was being read; import it again.');
    }
  };
  return { next, close: () => closeSync(fd) };
}

const WINDOW_DECODER = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

/** Where the last whole UTF-8 character in `bytes[0, end)` ends (valid UTF-8 cut anywhere). */
function characterEnd(bytes: Uint8Array, end: number): number {
  let lead = end - 1;
  while (lead > 0 && lead > end - 4 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  const b = bytes[lead]!;
  return b >= 0xc0 && lead + (b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2) > end ? lead : end;
}

/** Enough of a file to tell its encoding and format, as decodeBytes and detectFormat look at it. */
const HEAD_BYTES = 512 * 1024;

/** The byte-order marks the whole-file path drops (the BOM bytes, then the decoder's and importText's). */
function stripBoms(text: string): string {
  let start = 0;
  while (start < 2 && text.charCodeAt(start) === 0xfeff) start++;
  return start > 0 ? text.slice(start) : text;
}

/** The file's bytes in pieces of about `size`, each ending on a UTF-8 character boundary (of valid UTF-8), in one reused buffer. */
function* filePieces(path: string, size: number): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(size + 4);
    let kept = 0;
    for (;;) {
      const read = readSync(fd, buffer, kept, size, null);
      const end = kept + read;
      if (read === 0) {
        if (end > 0) yield buffer.subarray(0, end);
        return;
      }
      // An incomplete multi-byte character at the end starts the next piece.
      const cut = characterEnd(buffer, end);
      yield buffer.subarray(0, cut);
      buffer.copy(buffer, 0, cut, end);
      kept = end - cut;
    }
  } finally {
    closeSync(fd);
  }
}

/** The reference-file formats (shared/model/reference-formats.ts holds their names, MIME types and extensions). */
export type ExportFormat = ReferenceFormat;

/** One entry point for the export menu; `toBibtex`, `toRis` and `toCslJson` take options. */
export function exportItems(
  items: readonly CslItem[],
  format: ExportFormat,
  options: Omit<BibtexExportOptions, 'biblatex'> = {},
): string {
  switch (format) {
    case 'bibtex':
      return toBibtex(items, options);
    case 'biblatex':
      return toBibtex(items, { ...options, biblatex: true });
    case 'ris':
      return toRis(items, options.notes ? { notes: options.notes } : {});
    // CSL-JSON has no place for notes (Zotero's CSL-JSON export carries none either).
    case 'csljson':
      return toCslJson(items);
  }
}
