// A preprint and its published version, as the service links them: a paper's `publicationLinks`
// name its published versions (it is a preprint), its `preprintLinks` name its preprints. Both come
// in the paper record, which the client does not validate, so the links are read defensively here:
// an entry that is not an object with a valid DOI is skipped and counted, never a crash.
import { parseDoi } from './doi';
import type { ItemId } from './library';

export interface PaperLinks {
  /** Normalised DOIs of the paper's preprints (from `preprintLinks[].preprintDoi`). */
  preprints: string[];
  /** Normalised DOIs of the paper's published versions (from `publicationLinks[].publishedDoi`). */
  published: string[];
  /** Entries that were skipped, each with where and why ("publicationLinks[1]: publishedDoi is missing"). */
  skipped: string[];
}

function readLinks(
  paper: Record<string, unknown>,
  list: 'preprintLinks' | 'publicationLinks',
  field: 'preprintDoi' | 'publishedDoi',
  skipped: string[],
): string[] {
  const value = paper[list];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    skipped.push(`${list}: not a list`);
    return [];
  }
  const out: string[] = [];
  value.forEach((entry: unknown, i) => {
    const where = `${list}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      return void skipped.push(`${where}: not an object`);
    const raw = (entry as Record<string, unknown>)[field];
    if (typeof raw !== 'string')
      return void skipped.push(`${where}: ${field} is ${raw === undefined ? 'missing' : 'not text'}`);
    const parsed = parseDoi(raw);
    if (!parsed.ok) return void skipped.push(`${where}: ${parsed.reason}`);
    if (!out.includes(parsed.doi)) out.push(parsed.doi);
  });
  return out;
}

/** The preprint and publication links of a paper record as the service sent it (any shape). */
export function paperLinks(paper: unknown): PaperLinks {
  const skipped: string[] = [];
  if (typeof paper !== 'object' || paper === null || Array.isArray(paper))
    return {
      preprints: [],
      published: [],
      skipped: paper === undefined || paper === null ? [] : ['the paper record is not an object'],
    };
  const record = paper as Record<string, unknown>;
  const preprints = readLinks(record, 'preprintLinks', 'preprintDoi', skipped);
  const published = readLinks(record, 'publicationLinks', 'publishedDoi', skipped);
  return { preprints, published, skipped };
}

/** One linked version of an item, named with what the library or the service cache knows of it. */
export interface PaperVersion {
  /** Normalised DOI of the linked paper. */
  doi: string;
  /** The library's item with this DOI (not in the Trash), null when the library does not hold it. */
  itemId: ItemId | null;
  citationKey: string | null;
  /** From the library's item, else from the service's cached record; null when neither knows. Plain text to show as text. */
  title: string | null;
  journal: string | null;
  year: number | null;
  /** True when the library holds it only in the Trash. */
  trashed: boolean;
}

/** An item's linked versions, from the links the service cache holds (offline). */
export interface PaperVersions {
  /** The item's normalised DOI (null: no DOI, so nothing is linked). */
  doi: string | null;
  /** Published versions of this item (it is a preprint). */
  published: PaperVersion[];
  /** Preprints of this item (it is a published paper). */
  preprints: PaperVersion[];
}

/** How a version is named in one line: "Title. Journal, 2021" with what is known. */
export function versionLabel(v: Pick<PaperVersion, 'title' | 'journal' | 'year'>): string {
  const where = [v.journal, v.year === null ? null : String(v.year)].filter((s): s is string => !!s).join(', ');
  return [v.title, where].filter((s): s is string => !!s).join('. ');
}
