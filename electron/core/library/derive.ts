// The typed columns and the full-text row derived from a CSL item. One place, so import, edit and
// merge agree on what a title sorts by or which DOI an item has.
import { citationKeyBase, citationKeyProblem, foldText } from '../../../shared/model/citekey';
import { CSL_NAME_FIELDS, type CslItem, type CslName } from '../../../shared/model/csl';
import { parseDoi } from '../../../shared/model/doi';
import { detached } from '../strings';

export interface Derived {
  title: string | null;
  titleSort: string | null;
  creatorsText: string | null;
  creatorsSort: string | null;
  year: number | null;
  container: string | null;
  containerSort: string | null;
  doi: string | null;
  /** Folded publisher, first page and Extra (CSL note): the sort columns of migration 0023. */
  publisherSort: string | null;
  pagesSort: number | null;
  extraSort: string | null;
  /** Set when the item has a DOI the normaliser rejects: kept in the CSL, not indexed. */
  doiProblem: string | null;
  creators: {
    role: string;
    position: number;
    family: string | null;
    given: string | null;
    literal: string | null;
    familyNorm: string;
  }[];
  abstract: string;
  creatorsFts: string;
}

const str = (v: unknown): string | null => {
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number') return String(v);
  return null;
};

// Family names and journal titles repeat across a library: a bulk import folds each once. Bounded,
// and simply emptied when full, since the names of one import are what repeats.
const foldedNames = new Map<string, string>();
function foldName(text: string): string {
  let folded = foldedNames.get(text);
  if (folded === undefined) {
    if (foldedNames.size >= 20_000) foldedNames.clear();
    // Copies: the cache outlives the parsed text these strings may be views of (see detached).
    folded = detached(foldText(text));
    foldedNames.set(detached(text), folded);
  }
  return folded;
}

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
  const t = foldText(stripTags(title))
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return t === '' ? null : t;
}

/** The first page as a number ("123–145" → 123, "e1002" → 1002); null without one. */
export function pagesSortOf(pages: unknown): number | null {
  const text = typeof pages === 'number' ? String(pages) : typeof pages === 'string' ? pages : '';
  const m = /\d{1,9}/.exec(text);
  return m ? Number(m[0]) : null;
}

/** Folded text to sort by (as title_sort and container_sort are); null when empty. */
export function textSortOf(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const folded = foldText(String(value)).slice(0, 200);
  return folded === '' ? null : folded;
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
      creators.push({
        role,
        position,
        family,
        given: str(n.given),
        literal,
        familyNorm: foldName(family ?? literal ?? str(n.given) ?? ''),
      });
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
    else
      doiProblem = `The DOI "${rawDoi.slice(0, 80)}" is not valid (${parsed.reason}); it is kept but not used to find duplicates or evidence.`;
  }
  return {
    title,
    titleSort: dedupeTitle(title),
    creatorsText,
    creatorsSort: families.length ? foldText(families.join(' ')) : null,
    year: yearOf(item),
    container,
    containerSort: container ? foldName(container) : null,
    doi,
    publisherSort: textSortOf(item.publisher),
    pagesSort: pagesSortOf(item.page),
    extraSort: textSortOf(item.note),
    doiProblem,
    creators,
    abstract: typeof item.abstract === 'string' ? item.abstract : '',
    creatorsFts: creators.map((c) => c.literal ?? [c.given, c.family].filter(Boolean).join(' ')).join('; '),
  };
}

/**
 * Everything an import computes from an item before it needs the database: the derived columns, the
 * CSL-JSON text, the tags and what the citation key will start from. Plain data, cheap to post between
 * threads, so a parser's thread can prepare items while the library worker writes the previous ones.
 */
export interface PreparedItem {
  /** null: the entry has no item type and is rejected. */
  type: string | null;
  /** The item as JSON, exactly as given: text, or its UTF-8 bytes as they come off the import port. */
  csl: string | Uint8Array;
  /** Whether the item has a 'citation-key' property (whatever its value). */
  hasKey: boolean;
  /** That property's value exactly as given, when it is a string. */
  givenKey: string | null;
  /** The key the item asks for, trimmed; '' when none. */
  requestedKey: string;
  /** Why the requested key cannot be used; null when it can (or there is none). */
  keyProblem: string | null;
  /** The formula's key, when the requested one is missing or unusable. */
  keyBase: string | null;
  tags: string[];
  derived: Omit<Derived, 'creators'>;
  /** Creator rows, flattened: role, position, family, given, literal, familyNorm for each. */
  creators: (string | number | null)[];
  /** The source's id that could not be the key (ImportedItem.replacedId): the store says which key replaced it. */
  replacedId?: { id: string; reason: string };
}

/** CSL keyword text → tag names ("a, b; c"). */
export function keywordTags(item: CslItem): string[] {
  const kw = item.keyword;
  if (typeof kw !== 'string') return [];
  return [
    ...new Set(
      kw
        .split(/[;,]/)
        .map((s) => s.trim())
        .filter((s) => s !== '' && s.length <= 200),
    ),
  ];
}

export function prepareItem(item: CslItem, replacedId?: { id: string; reason: string }): PreparedItem {
  if (!item || typeof item !== 'object' || typeof item.type !== 'string') {
    const { creators: _none, ...derived } = derive({ type: 'document' } as CslItem);
    return {
      type: null,
      csl: '{}',
      hasKey: false,
      givenKey: null,
      requestedKey: '',
      keyProblem: null,
      keyBase: null,
      tags: [],
      derived,
      creators: [],
    };
  }
  const { creators, ...derived } = derive(item);
  const flat: (string | number | null)[] = [];
  for (const c of creators) flat.push(c.role, c.position, c.family, c.given, c.literal, c.familyNorm);
  const requestedKey = typeof item['citation-key'] === 'string' ? item['citation-key'].trim() : '';
  const keyProblem = requestedKey ? citationKeyProblem(requestedKey) : null;
  return {
    type: item.type,
    csl: JSON.stringify(item),
    hasKey: Object.hasOwn(item, 'citation-key'),
    givenKey: typeof item['citation-key'] === 'string' ? item['citation-key'] : null,
    requestedKey,
    keyProblem,
    keyBase: !requestedKey || keyProblem !== null ? citationKeyBase(item) : null,
    tags: keywordTags(item),
    derived,
    creators: flat,
    ...(replacedId ? { replacedId } : {}),
  };
}

const decoder = new TextDecoder();

/** The CSL-JSON of a prepared item as text, however it came. */
export function cslText(csl: PreparedItem['csl']): string {
  return typeof csl === 'string' ? csl : decoder.decode(csl);
}

/** The stored CSL-JSON with the key the item was given: text, or UTF-8 bytes stored as text (CAST). */
export function withKey(p: PreparedItem, key: string): string | Uint8Array {
  if (p.hasKey) {
    if (p.givenKey === key) return p.csl;
    return JSON.stringify({ ...(JSON.parse(cslText(p.csl)) as CslItem), 'citation-key': key });
  }
  // The key goes first rather than last: the same record either way.
  const csl = cslText(p.csl);
  return csl === '{}'
    ? `{"citation-key":${JSON.stringify(key)}}`
    : `{"citation-key":${JSON.stringify(key)},${csl.slice(1)}`;
}
