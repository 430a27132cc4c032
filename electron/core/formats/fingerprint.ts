// The identity of an item across imports, so importing the same file twice adds nothing: the DOI when
// there is one, else the normalised title, year and first creator. Keys and ids are not used: two
// files may give the same paper different keys, and different papers the same key.
import type { CslItem, CslName } from '../../../shared/model/csl';
import { parseDoi } from '../../../shared/model/doi';

export function itemFingerprint(item: CslItem): string {
  if (typeof item.DOI === 'string') {
    const doi = parseDoi(item.DOI);
    if (doi.ok) return `doi:${doi.doi}`;
  }
  const title = typeof item.title === 'string' ? normaliseTitle(item.title) : '';
  const year = item.issued?.['date-parts']?.[0]?.[0] ?? item.issued?.literal ?? '';
  const creator = firstCreator(item);
  return `t:${title}|${year}|${creator}|${item.type}`;
}

function firstCreator(item: CslItem): string {
  for (const field of ['author', 'editor']) {
    const names = item[field];
    if (Array.isArray(names) && names.length > 0) {
      const n = names[0] as CslName;
      return normalise(n.family ?? n.literal ?? n.given ?? '');
    }
  }
  return '';
}

/** Lower case, no diacritics, letters and digits only: "Über {DNA}" and "uber dna" agree. */
export function normaliseTitle(text: string): string {
  return normalise(text.replace(/<[^>]*>/g, ''));
}

function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
