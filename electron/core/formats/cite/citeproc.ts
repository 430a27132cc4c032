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

const requireHere = createRequire(import.meta.url);
let loaded: Citeproc | undefined;

/**
 * citeproc-js with Citewise's corrections (citeproc-patches.ts), loaded on first use: loading and
 * compiling it costs 0.1 to 0.3 s of a cold process, which a bibliography served from the library's
 * cache (persist.ts) or a BibTeX export never needs.
 */
export function citeproc(): Citeproc {
  loaded ??= patchCiteproc(requireHere('citeproc') as Citeproc);
  return loaded;
}

/** Whether this thread has loaded citeproc-js yet (tests prove the cached path does without it). */
export function citeprocLoaded(): boolean {
  return loaded !== undefined;
}

/**
 * The citeproc-js package's version (part of every persisted bibliography's key, persist.ts), read
 * from its package.json so that the key does not need the processor loaded. The package version,
 * not CSL.PROCESSOR_VERSION (which citeproc-js 2.4.63 still reports as 1.4.61), so every release counts.
 */
export const CSL_PROCESSOR_VERSION: string = `citeproc-js ${(requireHere('citeproc/package.json') as { version: string }).version}`;
