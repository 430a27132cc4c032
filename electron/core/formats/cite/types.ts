// The formatter's public shapes. Style ids are the one shared CitationStyleId (the assistant's
// citationStyle values) plus ids of styles a user registered from a .csl file.
import type { CitationStyleId, CslItem } from '../../../../shared/model/csl';
import type { BibliographyStore } from './persist';

export type OutputFormat = 'text' | 'html' | 'rtf';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'html', 'rtf'];

/** A built-in style id, or the id given to a user style by `registerStyle`. */
export type StyleId = CitationStyleId | (string & {});

export interface FormatOptions {
  style: StyleId;
  /** A CSL locale such as en-US or en-GB; default: the style's default-locale, else en-US. Given explicitly, it wins over the style's. */
  locale?: string;
  /** Default 'text'. */
  format?: OutputFormat;
  /**
   * The item's version as the store knows it (e.g. its row version). Cache entries are keyed by it;
   * without it the item's content is hashed, which is always correct and costs a little more.
   */
  versionOf?: (item: CslItem) => string | number | undefined;
  /**
   * Where whole bibliographies are kept across processes (the library's cite_cache, persist.ts): asked
   * before any engine starts, given what was rendered. Bibliographies only; citations ignore it.
   */
  store?: BibliographyStore;
}

export interface BibliographyEntry {
  id: string;
  /** The entry in the requested format: plain text, an HTML fragment (one div.csl-entry), or an RTF fragment. */
  value: string;
}

export interface Bibliography {
  style: StyleId;
  locale: string;
  format: OutputFormat;
  /** In bibliography order (the style's sort, else the order given). */
  entries: BibliographyEntry[];
  /** The whole document: text lines, an HTML fragment (div.csl-bib-body) or a complete RTF document. */
  document: string;
}

/** One cited item in an in-text citation (a subset of CSL's cite-item). */
export interface CiteRef {
  id: string;
  locator?: string;
  /** The locator's label, a CSL locator term: page, chapter, section, figure… */
  label?: string;
  prefix?: string;
  suffix?: string;
  'suppress-author'?: boolean;
  'author-only'?: boolean;
}

/** One in-text citation: a single item, or a group cited together ("(Smith, 2020; Lee, 2021)"). */
export type CitationCluster = readonly CiteRef[];

export interface Citation {
  /** The citation in the requested format. */
  value: string;
}

export interface StyleInfo {
  id: StyleId;
  title: string;
  /** The CSL style name (file name in the CSL styles repository, or the user file's id). */
  name: string;
  builtIn: boolean;
  /** 'bibtex' is not a CSL style: it produces BibTeX entries. */
  kind: 'csl' | 'bibtex';
  defaultLocale?: string;
}
