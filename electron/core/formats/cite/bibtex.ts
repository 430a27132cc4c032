// The 'bibtex' style: BibTeX entries rather than a CSL bibliography, written by the same writer as
// Export (formats/bibtex/export.ts), so a copied entry and an exported file agree byte for byte:
// UTF-8 names (Müller, not M{\" u}ller) and month macros (mar, not {3}).
import type { CslItem } from '../../../../shared/model/csl';
import { toBibtex } from '../bibtex/export';
import { escapeHtml } from './html';
import type { BibliographyEntry, CitationCluster, OutputFormat } from './types';

/** The key \cite uses and the entry carries: the item's citation key, else its id. */
export function bibtexKey(item: CslItem): string {
  return item['citation-key'] || item.id;
}

export function escapeRtf(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === '{' || ch === '}') out += `\\${ch}`;
    else if (ch === '\n') out += '\\line\n';
    else if (code < 0x80) out += ch;
    else if (code <= 0xffff) out += `\\u${code > 0x7fff ? code - 0x10000 : code}?`;
    else {
      const hi = Math.floor((code - 0x10000) / 0x400) + 0xd800;
      const lo = ((code - 0x10000) % 0x400) + 0xdc00;
      out += `\\u${hi - 0x10000}?\\u${lo - 0x10000}?`;
    }
  }
  return out;
}

function present(format: OutputFormat, bibtex: string): string {
  switch (format) {
    case 'text':
      return bibtex;
    case 'html':
      return `<pre class="bibtex-entry">${escapeHtml(bibtex)}</pre>`;
    case 'rtf':
      return escapeRtf(bibtex);
  }
}

export function bibtexEntry(item: CslItem, format: OutputFormat): BibliographyEntry {
  const text = toBibtex([{ ...item, 'citation-key': bibtexKey(item) }]).trim();
  return { id: item.id, value: present(format, text) };
}

export function bibtexDocument(format: OutputFormat, values: readonly string[], rtfHeader: string): string {
  switch (format) {
    case 'text':
      return values.join('\n\n');
    case 'html':
      return `<div class="bibtex">\n${values.map((v) => `  ${v}\n`).join('')}</div>`;
    case 'rtf':
      return `${rtfHeader}${values.map((v) => `${v}\\par\\par\n`).join('')}}`;
  }
}

/** \cite{a,b}; a single cited item keeps its locator as the optional argument (\cite[p.~12]{a}). */
export function bibtexCitation(
  cluster: CitationCluster,
  items: ReadonlyMap<string, CslItem>,
  format: OutputFormat,
): string {
  const keys = cluster.map((ref) => {
    const item = items.get(ref.id);
    return item ? bibtexKey(item) : ref.id;
  });
  const only = cluster.length === 1 ? cluster[0] : undefined;
  const note = only?.locator
    ? `[${only.label && only.label !== 'page' ? `${only.label}~` : 'p.~'}${only.locator}]`
    : '';
  const text = `\\cite${note}{${keys.join(',')}}`;
  return format === 'html' ? escapeHtml(text) : format === 'rtf' ? escapeRtf(text) : text;
}
