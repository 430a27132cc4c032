// The one shape every importer answers with, so the store writes any format the same way:
// good items with the line they started on, and every bad entry with its line and reason.
import type { CslItem } from '../../../shared/model/csl';
import type { NormalizedDoi } from '../../../shared/model/doi';
import type { ImportIssue } from '../../../shared/model/library';

export const IMPORT_FORMATS = ['bibtex', 'ris', 'csljson', 'doi-list'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportedItem {
  item: CslItem;
  /** 1-based line where the entry starts in the decoded text. */
  line: number;
  /** The key the source gave the entry (BibTeX key, RIS ID, CSL-JSON id), for messages and de-duplication. */
  sourceKey?: string;
  /**
   * The source's own id for the entry when it is not usable as a citation key (a Zotero item number,
   * a URL), with why: the store makes a key and reports which one replaced it.
   */
  replacedId?: { id: string; reason: string };
  /**
   * The entry's fingerprint as the file wrote it (./origin.ts), kept with the item so that the same
   * entry is recognised when its file is imported again; none for DOIs, which are their own identity.
   */
  origin?: string;
}

/** A parser's problems are the import's one issue type; a parser gives an entry's line, 0 only for the whole file. */
export type { ImportIssue };

export interface ImportedDoi {
  doi: NormalizedDoi;
  line: number;
}

/** The parse result (the store's answer is ImportResult, shared/model/library). */
export interface ParseResult {
  format: ImportFormat;
  /** The items; empty when they were streamed to an `onItems` sink instead. */
  items: ImportedItem[];
  /** How many items were imported (streamed or not). */
  count: number;
  /** Entries that were not imported. */
  errors: ImportIssue[];
  /** Entries imported with a caveat (unknown macro, duplicate field, guessed encoding…). */
  warnings: ImportIssue[];
  /** DOI lists only: the DOIs whose metadata the service is to fetch (now, or queued while offline). */
  dois?: ImportedDoi[];
  /** BibTeX @preamble contents, for an export that wants them back. */
  preambles?: string[];
  /** The encoding the bytes were read with, when the import started from bytes. */
  encoding?: string;
  /** BibTeX: titles stored in sentence case rather than as written (Settings → Import); absent for none. */
  titlesCased?: number;
}

/** Shortens a piece of source text to one readable line for an error message. */
export function excerptOf(text: string, from = 0, max = 80): string {
  // The line the problem is on, so the excerpt matches the line number it is shown with.
  const window = text.slice(from, from + max * 2);
  const eol = window.search(/\r?\n/);
  const slice = (eol > 0 ? window.slice(0, eol) : window).replace(/\s+/g, ' ').trim();
  return slice.length > max ? `${slice.slice(0, max - 1)}…` : slice;
}
