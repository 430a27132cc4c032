// Bibliographies kept beyond the process: the formatter asks a BibliographyStore (the library's
// cite_cache table, electron/core/library/cite-cache.ts) before it starts an engine, and hands it what
// it rendered. Only whole bibliographies are kept, under a key that hashes every input of the
// rendering: a hit is therefore, by construction, what a fresh render of the same inputs prints.
// Entries are not kept one by one across processes because an entry depends on its neighbours (sort
// order, citation numbers, 2020a/2020b, given names added to disambiguate, MLA's "---"); within a
// process the engine's registry states that context and core.ts keys its per-entry cache by it.
import { createHash } from 'node:crypto';
import type { CslItem } from '../../../../shared/model/csl';
import { CSL_PROCESSOR_VERSION } from './citeproc';
import type { CslStyleDef } from './styles';
import type { BibliographyEntry, OutputFormat } from './types';

/**
 * Bump when anything that changes output without changing the key's other inputs changes: the
 * corrections in citeproc-patches.ts, the finishing of entries in core.ts, the bibtex path's rules.
 */
export const PERSISTED_BIBLIOGRAPHY_VERSION = 2;

export interface BibliographyStore {
  get(key: string): Promise<BibliographyEntry[] | null> | BibliographyEntry[] | null;
  put(
    key: string,
    meta: { style: string; format: string },
    entries: readonly BibliographyEntry[],
  ): Promise<unknown> | unknown;
}

export interface PersistKeyInput {
  style: CslStyleDef;
  locale: string;
  forceLocale: boolean;
  format: OutputFormat;
  /** The XML of every locale the engine may read (the locale asked for, the style's default, en-US). */
  localeXml: readonly string[];
  items: readonly CslItem[];
}

/** The key of one rendering: a SHA-256 of all its inputs, base64url (43 characters). */
export function persistKey(input: PersistKeyInput): string {
  const h = createHash('sha256');
  const part = (s: string): void => {
    h.update(String(s.length));
    h.update(':');
    h.update(s);
  };
  part(`citewise-bibliography-${PERSISTED_BIBLIOGRAPHY_VERSION}`);
  part(CSL_PROCESSOR_VERSION);
  part(input.style.id);
  part(input.style.xml);
  part(input.locale);
  part(input.forceLocale ? '1' : '0');
  part(input.format);
  for (const xml of input.localeXml) part(xml);
  part(String(input.items.length));
  // In the order given: numeric styles without a sort number entries in that order.
  for (const item of input.items) part(JSON.stringify(item));
  return h.digest('base64url');
}
