// citeproc-js (CommonJS, untyped): loaded with require so its one module instance is shared (and
// patched once, see citeproc-patches.ts), and typed here with just the surface Citewise uses.
import { createRequire } from 'node:module';
import type { CslItem } from '../../../../shared/model/csl';
import { patchCiteproc } from './citeproc-patches';

export interface CslXmlNode {
  name: string;
  attrs: Record<string, string>;
  children: Array<CslXmlNode | string>;
}

export interface CiteprocSys {
  retrieveLocale(lang: string): string | undefined;
  retrieveItem(id: string): CslItem;
}

export interface BibliographyParams {
  entry_ids: string[][];
  bibstart: string;
  bibend: string;
  bibliography_errors: unknown[];
  hangingindent?: number | boolean;
  'second-field-align'?: string | boolean;
  maxoffset?: number;
  linespacing?: number;
  entryspacing?: number;
}

export interface BibSection {
  include?: Array<{ field: string; value: string }>;
}

export interface RegistryEntry {
  seq: number;
  disambig?: { year_suffix?: number | false; disambiguate?: boolean; names?: number[]; givens?: number[][] };
}

export interface CiteprocEngine {
  updateItems(ids: string[]): void;
  setOutputFormat(format: string): void;
  makeBibliography(section?: BibSection): [BibliographyParams, string[]] | false;
  makeCitationCluster(cites: Array<Record<string, unknown>>): string;
  registry: { getSortedIds(): string[]; registry: Record<string, RegistryEntry | undefined> };
  opt: { development_extensions: Record<string, unknown>; 'default-locale'?: string[] };
}

export interface Citeproc {
  Engine: new (sys: CiteprocSys, style: string | CslXmlNode, lang?: string, forceLang?: boolean) => CiteprocEngine;
  parseXml(xml: string): CslXmlNode;
}

let loaded: Citeproc | null = null;

/**
 * citeproc-js with Citewise's corrections (citeproc-patches.ts), loaded at its first use: it is a
 * megabyte of JavaScript to compile, which every core start paid for, also for the commands and
 * editor API requests that never format (a search, the picker, an export to BibTeX).
 */
export function citeproc(): Citeproc {
  loaded ??= patchCiteproc(createRequire(import.meta.url)('citeproc') as Citeproc);
  return loaded;
}

/** citeproc-js's own version string (part of every persisted bibliography's key, persist.ts). */
export function cslProcessorVersion(): string {
  return (citeproc() as unknown as { PROCESSOR_VERSION?: string }).PROCESSOR_VERSION ?? 'unknown';
}
