// Auto-export definitions and run reports as the core stores them and the renderer shows them: a file
// kept in sync with the library or a collection (see electron/core/jobs/README.md, "Auto-export").
import type { ErrorCode } from '../ipc/define';
import {
  REFERENCE_FORMAT_EXTENSIONS,
  REFERENCE_FORMAT_LABELS,
  REFERENCE_FORMATS,
  type ReferenceFormat,
} from './reference-formats';

/** Every reference-file format can be kept in sync. */
export const AUTO_EXPORT_FORMATS = REFERENCE_FORMATS;
export type AutoExportFormat = ReferenceFormat;

/** What changes the bytes of an entry besides the item itself. */
export interface AutoExportOptions {
  /** Keep the abstract (default true). */
  abstracts: boolean;
  /** Add the item's notes to its `note` field (default false). */
  notes: boolean;
  /** BibTeX/BibLaTeX: non-ASCII letters as LaTeX commands (default false). */
  ascii: boolean;
}

export const DEFAULT_AUTO_EXPORT_OPTIONS: Readonly<AutoExportOptions> = { abstracts: true, notes: false, ascii: false };

export type AutoExportScope =
  { kind: 'library' } | { kind: 'collection'; collectionId: number; subcollections: boolean };

/** pending: never ran; written: the last run rewrote the file; unchanged: it was already up to date; error: see `error`. */
export type AutoExportStatus = 'pending' | 'written' | 'unchanged' | 'error';

export interface AutoExport {
  id: number;
  /** Absolute path of the file kept in sync. */
  path: string;
  format: AutoExportFormat;
  scope: AutoExportScope;
  options: AutoExportOptions;
  createdAt: number;
  lastRunAt: number | null;
  status: AutoExportStatus;
  /** What went wrong and where, when status is error. */
  error: string | null;
  /** Entries in the file after the last run that got that far. */
  itemCount: number | null;
}

export interface AutoExportRun {
  id: number;
  path: string;
  status: 'written' | 'unchanged' | 'error';
  error: string | null;
  errorCode: ErrorCode | null;
  itemCount: number;
  /** Entries rendered in this run (new or changed items, or all after a settings change). */
  rendered: number;
  /** Entries taken from the cache. */
  reused: number;
  /** Cached entries dropped: items that left the scope (removed, trashed, deleted). */
  removed: number;
  bytes: number;
  ms: number;
}

/** The file name extension each format is written with (without the dot). */
export const AUTO_EXPORT_EXTENSIONS = REFERENCE_FORMAT_EXTENSIONS;

export const AUTO_EXPORT_FORMAT_LABELS = REFERENCE_FORMAT_LABELS;
