// CSL-JSON, the item model of the library: every import produces it, every export and citation
// style consumes it. Field names are those of the CSL 1.0.2 schema (csl-data.json).
import { CITATION_STYLES } from '../service';

export const CSL_ITEM_TYPES = [
  'article',
  'article-journal',
  'article-magazine',
  'article-newspaper',
  'bill',
  'book',
  'broadcast',
  'chapter',
  'classic',
  'collection',
  'dataset',
  'document',
  'entry',
  'entry-dictionary',
  'entry-encyclopedia',
  'event',
  'figure',
  'graphic',
  'hearing',
  'interview',
  'legal_case',
  'legislation',
  'manuscript',
  'map',
  'motion_picture',
  'musical_score',
  'pamphlet',
  'paper-conference',
  'patent',
  'performance',
  'periodical',
  'personal_communication',
  'post',
  'post-weblog',
  'regulation',
  'report',
  'review',
  'review-book',
  'software',
  'song',
  'speech',
  'standard',
  'thesis',
  'treaty',
  'webpage',
] as const;
export type CslItemType = (typeof CSL_ITEM_TYPES)[number];

export interface CslName {
  family?: string;
  given?: string;
  'dropping-particle'?: string;
  'non-dropping-particle'?: string;
  suffix?: string;
  'comma-suffix'?: boolean;
  'static-ordering'?: boolean;
  /** An institution or a name that must not be split. */
  literal?: string;
  'parse-names'?: boolean;
}

export type CslDateParts = [number, number?, number?];

export interface CslDate {
  'date-parts'?: CslDateParts[];
  season?: number | string;
  circa?: boolean | string | number;
  literal?: string;
  raw?: string;
}

export const CSL_NAME_FIELDS = [
  'author',
  'chair',
  'collection-editor',
  'compiler',
  'composer',
  'container-author',
  'contributor',
  'curator',
  'director',
  'editor',
  'editorial-director',
  'executive-producer',
  'guest',
  'host',
  'interviewer',
  'illustrator',
  'narrator',
  'organizer',
  'original-author',
  'performer',
  'producer',
  'recipient',
  'reviewed-author',
  'script-writer',
  'series-creator',
  'translator',
] as const;
export type CslNameField = (typeof CSL_NAME_FIELDS)[number];

export const CSL_DATE_FIELDS = [
  'accessed',
  'available-date',
  'event-date',
  'issued',
  'original-date',
  'submitted',
] as const;
export type CslDateField = (typeof CSL_DATE_FIELDS)[number];

/**
 * One CSL-JSON item. The common fields are typed; every other CSL variable (and `custom`, where
 * Citewise keeps fields a format has but CSL lacks, so a round trip loses nothing) is allowed too.
 */
export interface CslItem {
  id: string;
  type: CslItemType;
  'citation-key'?: string;
  title?: string;
  'title-short'?: string;
  'container-title'?: string;
  'container-title-short'?: string;
  'collection-title'?: string;
  publisher?: string;
  'publisher-place'?: string;
  volume?: string | number;
  issue?: string | number;
  page?: string | number;
  'number-of-pages'?: string | number;
  edition?: string | number;
  number?: string | number;
  genre?: string;
  abstract?: string;
  language?: string;
  note?: string;
  keyword?: string;
  DOI?: string;
  ISBN?: string;
  ISSN?: string;
  PMID?: string;
  PMCID?: string;
  URL?: string;
  author?: CslName[];
  editor?: CslName[];
  issued?: CslDate;
  accessed?: CslDate;
  custom?: Record<string, unknown>;
  [variable: string]: unknown;
}

/** The citation styles of export and of the assistant: one type, the assistant's citationStyle values. */
export const CITATION_STYLE_IDS = CITATION_STYLES;
export type CitationStyleId = (typeof CITATION_STYLES)[number];
/** The built-in styles' names, as every picker (export, settings, assistant) shows them. */
export const STYLE_LABELS: Record<CitationStyleId, string> = {
  apa: 'APA (7th edition)',
  ieee: 'IEEE',
  mla: 'MLA (9th edition)',
  ama: 'AMA (11th edition)',
  chicago: 'Chicago (author-date)',
  harvard: 'Harvard',
  vancouver: 'Vancouver',
  bibtex: 'BibTeX',
};
/** Whether a string names a built-in style. */
export function isBuiltInStyle(id: string): id is CitationStyleId {
  return (CITATION_STYLES as readonly string[]).includes(id);
}
/** A style as the pickers show it: a built-in one under its label here, one added from a .csl file under its own title. */
export function labelledStyle<S extends { id: string; title: string; builtIn: boolean }>(style: S): S {
  return style.builtIn && isBuiltInStyle(style.id) ? { ...style, title: STYLE_LABELS[style.id] } : style;
}
/** The built-in styles as a picker lists them before the core has answered with the added ones. */
export const BUILT_IN_STYLE_CHOICES: readonly { id: CitationStyleId; title: string; builtIn: true }[] =
  CITATION_STYLE_IDS.map((id) => ({ id, title: STYLE_LABELS[id], builtIn: true }));
/** What a style id may be: a built-in id or the id of a style added from a .csl file. */
export const STYLE_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;

// CSL's rich-text markup (italic species names, sub- and superscripts, small caps, nocase), as titles
// imported from BibTeX carry it. Any other "<…>" is part of the text and stays.
const CSL_MARKUP =
  /<\/?(?:i|b|sup|sub|sc)>|<span\s+(?:class="nocase"|style="font-variant:\s*small-caps;?")>|<\/span>/gi;

/** A CSL text value without its rich-text markup: for a table cell, a plain-text format such as RIS. */
export function plainCslText(text: string): string {
  return text.includes('<') ? text.replace(CSL_MARKUP, '') : text;
}
