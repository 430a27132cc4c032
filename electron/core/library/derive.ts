// The typed columns and the full-text row derived from a CSL item. One place, so import, edit and
// merge agree on what a title sorts by or which DOI an item has.
import { foldText } from '../../../shared/model/citekey';
import { CSL_NAME_FIELDS, type CslItem, type CslName } from '../../../shared/model/csl';
import { parseDoi } from '../../../shared/model/doi';

export interface Derived {
  title: string | null;
  titleSort: string | null;
  creatorsText: string | null;
  creatorsSort: string | null;
  year: number | null;
  container: string | null;
  containerSort: string | null;
  doi: string | null;
  /** Set when the item has a DOI the normaliser rejects: kept in the CSL, not indexed. */
  doiProblem: string | null;
  creators: { role: string; position: number; family: string | null; given: string | null; literal: string | null; familyNorm: string }[];
  abstract: string;
  creatorsFts: string;
}

const str = (v: unknown): string | null => {
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number') return String(v);
  return null;
};

// Markup some sources put in titles (<i>, <sub>) is not part of the words.
const stripTags = (s: string): string => s.replace(/<[^>]*>/g, '');

export function nameText(n: CslName): string {
  if (n.literal) return n.literal;
  return [n.given, n['dropping-particle'], n['non-dropping-particle'], n.family].filter(Boolean).join(' ');
}

function displayFamily(n: CslName): string {
  if (n.literal) return n.literal;
  return [n['non-dropping-particle'], n.family].filter(Boolean).join(' ') || n.given || '';
}

export function yearOf(item: CslItem): number | null {
  const y = item.issued?.['date-parts']?.[0]?.[0];
  if (typeof y === 'number' && Number.isInteger(y)) return y;
  if (typeof y === 'string' && /^-?\d{1,4}$/.test(y)) return Number(y);
  const raw = item.issued?.raw ?? item.issued?.literal;
  const m = typeof raw === 'string' ? /\b(\d{4})\b/.exec(raw) : null;
  return m ? Number(m[1]) : null;
}

/** Title for sorting and duplicate detection: folded, punctuation and markup removed. */
export function dedupeTitle(title: string | null): string | null {
  if (!title) return null;
  const t = foldText(stripTags(title)).replace(/[^a-z0-9]+/g, ' ').trim();
  return t === '' ? null : t;
}

export function derive(item: CslItem): Derived {
  const title = str(item.title);
  const creators: Derived['creators'] = [];
  for (const role of CSL_NAME_FIELDS) {
    const list = item[role];
    if (!Array.isArray(list)) continue;
    (list as CslName[]).forEach((n, position) => {
      if (!n || typeof n !== 'object') return;
      const family = str(n.family);
      const literal = str(n.literal);
      creators.push({ role, position, family, given: str(n.given), literal, familyNorm: foldText(family ?? literal ?? str(n.given) ?? '') });
    });
  }
  // The table shows authors, or editors for an edited book.
  const main = (item.author?.length ? item.author : item.editor?.length ? item.editor : []) ?? [];
  const families = main.map(displayFamily).filter((s) => s !== '');
  const creatorsText = families.length ? families.join('; ') : null;
  const container = str(item['container-title']);
  let doi: string | null = null;
  let doiProblem: string | null = null;
  const rawDoi = str(item.DOI);
  if (rawDoi) {
    const parsed = parseDoi(rawDoi);
    if (parsed.ok) doi = parsed.doi;
    else doiProblem = `The DOI "${rawDoi.slice(0, 80)}" is not valid (${parsed.reason}); it is kept but not used to find duplicates or evidence.`;
  }
  return {
    title,
    titleSort: dedupeTitle(title),
    creatorsText,
    creatorsSort: families.length ? foldText(families.join(' ')) : null,
    year: yearOf(item),
    container,
    containerSort: container ? foldText(container) : null,
    doi,
    doiProblem,
    creators,
    abstract: typeof item.abstract === 'string' ? item.abstract : '',
    creatorsFts: creators.map((c) => c.literal ?? [c.given, c.family].filter(Boolean).join(' ')).join('; '),
  };
}
