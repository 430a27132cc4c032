// Export one entry at a time, and assemble a file from entries, so that a file made of cached entries
// is byte for byte what `exportItems` writes for the same items in the same order. Auto-export keeps
// each item's entry cached and re-renders only the items that changed.
import type { CslItem } from '../../../shared/model/csl';
import { withOthersNames } from '../../../shared/model/others';
import { toBibtex } from './bibtex/export';
import { toRis } from './ris/export';
import type { ExportFormat } from './index';

export interface EntryOptions {
  /** BibTeX/BibLaTeX: non-ASCII letters as LaTeX commands. */
  ascii?: boolean;
}

/** One item's text in `format`; `assembleEntries` puts entries together. */
export function renderEntry(item: CslItem, format: ExportFormat, options: EntryOptions = {}): string {
  switch (format) {
    case 'bibtex':
    case 'biblatex':
      return toBibtex([item], { biblatex: format === 'biblatex', ...(options.ascii ? { ascii: true } : {}) });
    case 'ris':
      return toRis([item]);
    case 'csljson':
      // An element of the top-level array is indented one level deeper than the item on its own.
      // String values never hold a raw newline (JSON escapes it), so every newline is a line break.
      // "and others" as toCslJson writes it (shared/model/others.ts).
      return JSON.stringify(withOthersNames(item), null, 2).replace(/\n/g, '\n  ');
  }
}

/** The file made of these entries, in this order: what exportItems writes for the items they came from. */
export function assembleEntries(entries: readonly string[], format: ExportFormat): string {
  switch (format) {
    case 'bibtex':
    case 'biblatex':
      return entries.join('\n');
    case 'ris':
      return entries.join('');
    case 'csljson':
      return entries.length === 0 ? '[]\n' : `[\n  ${entries.join(',\n  ')}\n]\n`;
  }
}

const NEWLINE = Buffer.from('\n');
const CSL_OPEN = Buffer.from('[\n  ');
const CSL_SEPARATOR = Buffer.from(',\n  ');
const CSL_CLOSE = Buffer.from('\n]\n');

/**
 * `assembleEntries` on UTF-8 bytes: the same file, without decoding cached entries into one large
 * string and encoding it again (most of the time of a run that rewrites a large file).
 */
export function assembleEntryBytes(entries: readonly Uint8Array[], format: ExportFormat): Buffer {
  const parts: Uint8Array[] = [];
  const joined = (separator: Uint8Array | null): void => {
    entries.forEach((entry, i) => {
      if (i > 0 && separator) parts.push(separator);
      parts.push(entry);
    });
  };
  switch (format) {
    case 'bibtex':
    case 'biblatex':
      joined(NEWLINE);
      break;
    case 'ris':
      joined(null);
      break;
    case 'csljson':
      if (entries.length === 0) return Buffer.from('[]\n');
      parts.push(CSL_OPEN);
      joined(CSL_SEPARATOR);
      parts.push(CSL_CLOSE);
      break;
  }
  return Buffer.concat(parts);
}
