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

/** citeproc-js with Citewise's corrections (citeproc-patches.ts). */
export const CSL = patchCiteproc(createRequire(import.meta.url)('citeproc') as Citeproc);

/** citeproc-js's own version string (part of every persisted bibliography's key, persist.ts). */
export const CSL_PROCESSOR_VERSION: string = (CSL as unknown as { PROCESSOR_VERSION?: string }).PROCESSOR_VERSION ?? 'unknown';
