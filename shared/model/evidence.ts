// Citation evidence in the words researchers use. The service's API says "contradicting" where its
// own UI, its search parameters and Citewise say "contrasting"; the service client converts with
// these functions, once, so nothing past the client ever sees the API's word.

export const EVIDENCE_TYPES = ['supporting', 'contrasting', 'mentioning'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

/** The API's citation type words. */
export type ApiCitationType = 'supporting' | 'contradicting' | 'mentioning';

/** Smart-citation counts in the UI vocabulary. */
export interface EvidenceCounts {
  total: number;
  supporting: number;
  contrasting: number;
  mentioning: number;
  unclassified: number;
  /** Distinct citing publications, when the service reports it. */
  citingPublications?: number;
}

export interface EvidenceTally extends EvidenceCounts {
  doi: string;
}

export function evidenceTypeFromApi(type: ApiCitationType): EvidenceType;
export function evidenceTypeFromApi(type: string): EvidenceType | string;
export function evidenceTypeFromApi(type: string): string {
  return type === 'contradicting' ? 'contrasting' : type;
}

export function evidenceTypeToApi(type: EvidenceType): ApiCitationType {
  return type === 'contrasting' ? 'contradicting' : type;
}

/** A paper's counts as the service sends them (contradicting, not contrasting). */
export interface ApiCounts {
  total: number;
  supporting: number;
  contradicting: number;
  mentioning: number;
  unclassified: number;
  citingPublications?: number;
}

/** Converts the API's counts; every field the UI reads is a number, never undefined. */
export function evidenceCountsFromApi(counts: ApiCounts): EvidenceCounts {
  const out: EvidenceCounts = {
    total: counts.total,
    supporting: counts.supporting,
    contrasting: counts.contradicting,
    mentioning: counts.mentioning,
    unclassified: counts.unclassified,
  };
  if (typeof counts.citingPublications === 'number') out.citingPublications = counts.citingPublications;
  return out;
}

export function evidenceTallyFromApi(tally: ApiCounts & { doi: string }, doi = tally.doi): EvidenceTally {
  return { doi, ...evidenceCountsFromApi(tally) };
}

/** Sums tallies (bulk answers split across requests, an aggregate over more than 100 DOIs). */
export function sumEvidenceCounts(parts: Iterable<EvidenceCounts>): EvidenceCounts {
  const sum: EvidenceCounts = { total: 0, supporting: 0, contrasting: 0, mentioning: 0, unclassified: 0 };
  let publications: number | undefined;
  for (const p of parts) {
    sum.total += p.total;
    sum.supporting += p.supporting;
    sum.contrasting += p.contrasting;
    sum.mentioning += p.mentioning;
    sum.unclassified += p.unclassified;
    if (typeof p.citingPublications === 'number') publications = (publications ?? 0) + p.citingPublications;
  }
  // Distinct citing publications of separate DOI groups may overlap, so their sum is an upper bound.
  if (publications !== undefined) sum.citingPublications = publications;
  return sum;
}

/**
 * A service type with the API's word replaced by the UI's, wherever it occurs: count fields named
 * `contradicting` become `contrasting`, and the value 'contradicting' becomes 'contrasting'.
 */
export type InUiWords<T> = T extends 'contradicting'
  ? 'contrasting'
  : T extends string | number | boolean | null | undefined
    ? T
    : T extends readonly (infer U)[]
      ? InUiWords<U>[]
      : T extends object
        ? { [K in keyof T as K extends 'contradicting' ? 'contrasting' : K]: InUiWords<T[K]> }
        : T;

/**
 * Converts a whole answer of the service (papers with their tallies, citation edges, search hits,
 * assistant papers, reference-check tallies, citing histograms) to the UI's word. Applied once, by
 * the service client, to everything it hands on; running it twice changes nothing.
 */
export function inUiWords<T>(value: T): InUiWords<T> {
  return convert(value) as InUiWords<T>;
}

function convert(value: unknown): unknown {
  if (value === 'contradicting') return 'contrasting';
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key === 'contradicting' ? 'contrasting' : key] = convert(inner);
  return out;
}
