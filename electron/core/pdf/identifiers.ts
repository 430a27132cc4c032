// DOIs and arXiv ids inside the strings a PDF carries (metadata values, page text). The DOI pattern
// and its trimming are the DOI-list importer's, so a DOI reads the same in a pasted list and in a PDF.
import { parseDoi, type NormalizedDoi } from '../../../shared/model/doi';
import { arxivDoiOf } from '../../../shared/model/identifiers';
import { DOI_IN_TEXT, trimDoi } from '../formats/doi-list/import';

// New-style (2101.00001, with an optional version) and old-style (hep-th/9901001) arXiv ids, written
// after "arXiv:" or in an arxiv.org link: a bare 2101.00001 is too often a page or a number.
const ARXIV =
  /(?:\barxiv:\s*|arxiv\.org\/(?:abs|pdf)\/)((?:\d{4}\.\d{4,5})|(?:[a-z-]+(?:\.[a-z]{2})?\/\d{7}))(?:v\d+)?/gi;

/** The DOI arXiv registers for an id (DataCite, prefix 10.48550). */
export function arxivDoi(id: string): NormalizedDoi {
  return arxivDoiOf(id).toLowerCase() as NormalizedDoi;
}

export interface FoundId {
  doi: NormalizedDoi;
  /** As written in the PDF. */
  written: string;
  kind: 'doi' | 'arxiv';
}

/** Every valid DOI and arXiv id in the text, in order of appearance, each once (by its DOI). */
export function findIds(text: string): FoundId[] {
  const found: (FoundId & { at: number })[] = [];
  const seen = new Set<string>();
  const add = (doi: NormalizedDoi, written: string, kind: FoundId['kind'], at: number): void => {
    if (seen.has(doi)) return;
    seen.add(doi);
    found.push({ doi, written, kind, at });
  };
  // Text extraction and XMP may break a DOI after its slash with a soft hyphen or zero-width space.
  const clean = text.replace(/[\u00ad\u200b]/g, '');
  for (const m of clean.matchAll(DOI_IN_TEXT)) {
    const written = trimDoi(m[0]);
    const parsed = parseDoi(written);
    if (parsed.ok) add(parsed.doi, written, 'doi', m.index);
  }
  for (const m of clean.matchAll(ARXIV)) add(arxivDoi(m[1]!), `arXiv:${m[1]!}`, 'arxiv', m.index);
  return found.sort((a, b) => a.at - b.at).map(({ at: _at, ...id }) => id);
}
