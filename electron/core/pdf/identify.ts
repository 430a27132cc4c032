// What a PDF is, from what extractPdf read, step by step in a fixed order: a DOI or arXiv id in its
// XMP or document info; then on its first pages (the first page that has one decides); then (by the
// caller, through the service's paper search) its title and byline. Each step says what matched, so
// the item keeps its evidence; two different identifiers in the deciding step need a person.
import type { NormalizedDoi } from '../../../shared/model/doi';
import type { CaptureCandidate, CaptureEvidence, CaptureMethod } from '../../../shared/model/pdf-capture';
import { TITLE_MATCH_ACCEPT, TITLE_MATCH_CANDIDATE } from '../../../shared/model/pdf-capture';
import type { PdfFacts } from './extract';
import { findIds, type FoundId } from './identifiers';
import { decodeXmlEntities } from '../formats/xml-entities';

/** How sure an identifier is, by where it was found. */
const CONFIDENCE = { xmp: 0.98, info: 0.95, text: 0.9, textLater: 0.8 } as const;

export type IdStep =
  /** One identifier: the item is that DOI. */
  | { kind: 'doi'; method: CaptureMethod; doi: NormalizedDoi; confidence: number; evidence: CaptureEvidence }
  /** Different identifiers in the same step: a person chooses. */
  | { kind: 'ambiguous'; method: CaptureMethod; candidates: CaptureCandidate[] }
  /** No identifier anywhere: the title search is next. */
  | { kind: 'none' };

function fromFound(method: CaptureMethod, ids: readonly FoundId[], confidence: number, page?: number): IdStep {
  const evidence = (id: FoundId): CaptureEvidence => ({
    method,
    matched: id.written,
    ...(page === undefined ? {} : { page }),
  });
  if (ids.length === 1) return { kind: 'doi', method, doi: ids[0]!.doi, confidence, evidence: evidence(ids[0]!) };
  return {
    kind: 'ambiguous',
    method,
    candidates: ids.map((id) => ({ doi: id.doi, score: 0.5, evidence: evidence(id) })),
  };
}

export function identifyById(facts: PdfFacts): IdStep {
  // XMP is XML: its text is read with character references decoded (&#x2F; is a slash, &#x1b; an
  // escape character that no DOI may hold), never as the raw markup.
  const xmp = facts.xmp === null ? [] : findIds(decodeXmlEntities(facts.xmp));
  const info = findIds(Object.values(facts.info).join('\n'));
  const meta: (FoundId & { method: CaptureMethod })[] = [...xmp.map((id) => ({ ...id, method: 'xmp' as const }))];
  for (const id of info) if (!meta.some((m) => m.doi === id.doi)) meta.push({ ...id, method: 'info' });
  if (meta.length === 1) return fromFound(meta[0]!.method, meta, CONFIDENCE[meta[0]!.method as 'xmp' | 'info']);
  if (meta.length > 1) {
    return {
      kind: 'ambiguous',
      method: meta[0]!.method,
      candidates: meta.map((id) => ({ doi: id.doi, score: 0.5, evidence: { method: id.method, matched: id.written } })),
    };
  }
  for (const page of facts.pages) {
    const ids = findIds(page.text);
    if (ids.length > 0)
      return fromFound('text', ids, page.page === 1 ? CONFIDENCE.text : CONFIDENCE.textLater, page.page);
  }
  return { kind: 'none' };
}

// ── title matching ──

export function words(text: string): string[] {
  return (
    text
      .replace(/<[^>]*>/g, ' ')
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .match(/[a-z0-9]+/g) ?? []
  );
}

/** Dice similarity of two titles' words (as multisets): 1 for the same words, 0 for none in common. */
export function titleSimilarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.length === 0 || wb.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of wa) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of wb) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common++;
      counts.set(w, n - 1);
    }
  }
  return (2 * common) / (wa.length + wb.length);
}

export interface TitleHit {
  doi: string;
  title: string;
  /** Family names (or full names) of the authors. */
  authors: readonly string[];
}

/**
 * How well a search hit matches the first page: the title's similarity, weighed with whether one of
 * the hit's authors' family names is on the byline (when the page has a byline).
 */
export function titleMatchScore(hit: TitleHit, title: string, byline: string | null): number {
  const sim = titleSimilarity(title, hit.title);
  if (byline === null || hit.authors.length === 0) return sim;
  const line = new Set(words(byline));
  const family = (name: string): string | undefined => words(name.includes(',') ? name.split(',')[0]! : name).at(-1);
  const onLine = hit.authors.some((a) => {
    const f = family(a);
    return f !== undefined && line.has(f);
  });
  return Math.min(1, 0.8 * sim + (onLine ? 0.2 : 0));
}

export type TitleStep =
  | { kind: 'match'; doi: string; confidence: number; evidence: CaptureEvidence }
  | { kind: 'unsure'; candidates: CaptureCandidate[] }
  | { kind: 'none'; evidence: CaptureEvidence };

/** The best hits of a title search, judged: one that stands, candidates for a person, or nothing. */
export function judgeTitleHits(hits: readonly TitleHit[], title: string, byline: string | null): TitleStep {
  const scored = hits
    .map((hit) => ({ hit, score: Math.round(titleMatchScore(hit, title, byline) * 1000) / 1000 }))
    .sort((a, b) => b.score - a.score);
  const evidenceOf = (hit: TitleHit, score: number): CaptureEvidence => ({
    method: 'title-search',
    matched: title,
    detail: `"${hit.title}" (score ${score.toFixed(2)})`,
  });
  const best = scored[0];
  if (best && best.score >= TITLE_MATCH_ACCEPT && (scored[1]?.score ?? 0) < best.score) {
    return { kind: 'match', doi: best.hit.doi, confidence: best.score, evidence: evidenceOf(best.hit, best.score) };
  }
  const candidates = scored.filter((s) => s.score >= TITLE_MATCH_CANDIDATE).slice(0, 3);
  if (candidates.length === 0)
    return {
      kind: 'none',
      evidence: {
        method: 'none',
        matched: title,
        detail:
          hits.length === 0
            ? 'the paper search found nothing'
            : `no search hit matched well enough (best score ${best!.score.toFixed(2)})`,
      },
    };
  return {
    kind: 'unsure',
    candidates: candidates.map((s) => ({
      doi: s.hit.doi,
      title: s.hit.title,
      score: s.score,
      evidence: evidenceOf(s.hit, s.score),
    })),
  };
}
