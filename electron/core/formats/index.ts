// Import and export of reference files: BibTeX/BibLaTeX, RIS, CSL-JSON and DOI lists. Pure Node, no
// database: the library store takes an ImportResult and writes it in one transaction. For big files
// use importInWorker (./run-in-worker), which runs the same code off the thread that answers the UI.
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { CslItem } from '../../../shared/model/csl';
import { toBibtex, type BibtexExportOptions } from './bibtex/export';
import { ItemCollector, type ItemSink } from './collector';
import { importBibtex } from './bibtex/import';
import { importCslJson } from './csljson/import';
import { toCslJson } from './csljson/export';
import { assertText, decodeBytes } from './decode';
import { detectFormat } from './detect';
import { importDoiList } from './doi-list/import';
import { FormatError, resolveLimits, type ImportLimits } from './limits';
import type { ImportFormat, ImportResult } from './result';
import { importRis } from './ris/import';
import { toRis } from './ris/export';

export { toBibtex, toCslJson, toRis, detectFormat, FormatError };
export { DEFAULT_LIMITS, type ImportLimits } from './limits';
export { doiPlaceholder } from './doi-list/import';
export { paperToCsl } from './doi-list/from-paper';
export { itemFingerprint } from './fingerprint';
export type { ItemSink } from './collector';
export type { BibtexExportOptions } from './bibtex/export';
export type { RisCustom } from './ris/import';
export type { BibtexCustom } from './bibtex/mapping';
export { importInWorker, type CreateImportSink, type ImportSink, type PortMessage, type SinkSpec, type WorkerImportOptions, type WorkerImportResult, type WorkerSource } from './run-in-worker';
export type { ImportFormat, ImportResult, ImportedItem, ImportIssue, ImportedDoi } from './result';

export interface ImportOptions {
  /** Skip detection. */
  format?: ImportFormat | undefined;
  /** For detection by extension and for messages. */
  fileName?: string | undefined;
  limits?: Partial<ImportLimits> | undefined;
  /** Stream the items out in chunks instead of returning them (see ItemCollector). */
  onItems?: ItemSink | undefined;
  chunkSize?: number | undefined;
}

const IMPORTERS: Readonly<Record<ImportFormat, (text: string, limits: ImportLimits, out: ItemCollector) => ImportResult>> = {
  bibtex: importBibtex,
  ris: importRis,
  csljson: importCslJson,
  'doi-list': importDoiList,
};

/** Imports text (a paste, or a file already decoded). Entry problems are in the result; file problems throw FormatError. */
export function importText(text: string, options: ImportOptions = {}): ImportResult {
  const limits = resolveLimits(options.limits);
  if (text.length > limits.maxBytes) throw new FormatError(`The text is ${text.length.toLocaleString('en')} characters; the import limit is ${limits.maxBytes.toLocaleString('en')}.`);
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  assertText(clean);
  const format = options.format ?? detectFormat(clean, options.fileName);
  return IMPORTERS[format](clean, limits, new ItemCollector(options.onItems, options.chunkSize));
}

/** Imports bytes: decodes UTF-8 (with or without BOM), UTF-16 LE/BE, or Windows-1252 with a warning. */
export function importBytes(bytes: Uint8Array, options: ImportOptions = {}): ImportResult {
  const limits = resolveLimits(options.limits);
  return importDecoded(decodeBytes(bytes, limits), { ...options, limits });
}

function importDecoded(decoded: ReturnType<typeof decodeBytes>, options: ImportOptions): ImportResult {
  const result = importText(decoded.text, options);
  result.encoding = decoded.encoding;
  if (decoded.warnings.length > 0) result.warnings.unshift(...decoded.warnings);
  return result;
}

/** Imports a file, refusing one over the size limit before reading it. */
export function importFile(path: string, options: ImportOptions = {}): ImportResult {
  const limits = resolveLimits(options.limits);
  const size = statSync(path).size;
  if (size > limits.maxBytes) throw new FormatError(`The file is ${(size / 1024 / 1024).toFixed(1)} MB; the import limit is ${(limits.maxBytes / 1024 / 1024).toFixed(1)} MB.`);
  // The bytes are a temporary: once decoded they can be collected while the text is parsed (a 100,000-
  // entry file is tens of megabytes).
  return importDecoded(decodeBytes(readFileSync(path), limits), { ...options, limits, fileName: options.fileName ?? basename(path) });
}

export type ExportFormat = 'bibtex' | 'biblatex' | 'ris' | 'csljson';

/** One entry point for the export menu; `toBibtex`, `toRis` and `toCslJson` take options. */
export function exportItems(items: readonly CslItem[], format: ExportFormat, options: Omit<BibtexExportOptions, 'biblatex'> = {}): string {
  switch (format) {
    case 'bibtex':
      return toBibtex(items, options);
    case 'biblatex':
      return toBibtex(items, { ...options, biblatex: true });
    case 'ris':
      return toRis(items);
    case 'csljson':
      return toCslJson(items);
  }
}
