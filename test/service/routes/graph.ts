// The citation graph: citing (statements toward a DOI, paged), cited_by (statements made by a DOI),
// references_to and references_from (distinct citing relations).
import type {
  Citation,
  CitedByCitation,
  Paper,
  Reference,
  Tally,
  OperationId,
  CitingResponse,
} from '../../../shared/service/index';
import { GUESSES } from '../../../shared/service/index';
import { SECTIONS } from '../corpus/text';
import { HttpError, bool, notFound, ok, type ApiRequest, type Handler } from '../http';
import { normalizeDoi, TYPE_NAMES, type CitationRow, type Corpus, type PaperRow } from '../store';

/** Answers without limit carry at most this many statements; limit/offset page beyond it. */
const DEFAULT_PAGE = 3000;
const MAX_PAGE = 10000;
/** Citations from these publishers' papers are counted as restricted (their text is licensed). */
const RESTRICTED_MEMBERS = new Set([316]);

type CitingCounts = NonNullable<CitingResponse['metadata']['citingCounts']>;

function targetRow(corpus: Corpus, req: ApiRequest): PaperRow {
  const row = corpus.paperByDoi(req.params.doi!);
  if (!row) throw notFound(`No paper with DOI ${req.params.doi}`);
  return row;
}

function sourceFilter(corpus: Corpus, req: ApiRequest, param: string): Set<number> | null {
  const raw = req.query[param];
  if (raw === undefined) return null;
  const list = (Array.isArray(raw) ? raw : [raw]).map((d) => normalizeDoi(String(d)));
  return new Set(corpus.papersByDois(list).map((r) => r.id));
}

function page(req: ApiRequest): { limit: number; offset: number } {
  const limit = req.query.limit as number | null | undefined;
  const offset = (req.query.offset as number | null | undefined) ?? 0;
  if (limit !== undefined && limit !== null && limit > MAX_PAGE)
    throw new HttpError(422, [
      {
        loc: ['query', 'limit'],
        msg: `ensure this value is less than or equal to ${MAX_PAGE}`,
        type: 'value_error.number.not_le',
      },
    ]);
  return { limit: limit ?? DEFAULT_PAGE, offset };
}

function extras(
  corpus: Corpus,
  req: ApiRequest,
  iterable: Iterable<PaperRow>,
): { papers?: Record<string, Paper>; tallies?: Record<string, Tally> } {
  const rows = [...iterable];
  const out: { papers?: Record<string, Paper>; tallies?: Record<string, Tally> } = {};
  if (bool(req.query.papers)) {
    out.papers = {};
    for (const r of rows) out.papers[r.doi] = corpus.paper(r);
  }
  if (bool(req.query.tallies)) {
    out.tallies = {};
    for (const r of rows) out.tallies[r.doi] = corpus.tally(r);
  }
  return out;
}

interface CitingSummary {
  counts: CitingCounts;
  restricted: number;
}
const countsCache = new WeakMap<Corpus, Map<number, CitingSummary>>();

/**
 * Aggregates over every statement toward the target, as the citing endpoint's metadata. Computed
 * once per target (the corpus does not change) so that paging through a large target stays cheap.
 */
function citingSummary(corpus: Corpus, target: PaperRow, rows: readonly CitationRow[]): CitingSummary {
  let cache = countsCache.get(corpus);
  if (!cache) countsCache.set(corpus, (cache = new Map()));
  const hit = cache.get(target.id);
  if (hit) return hit;
  const sources = corpus.papersByIds(rows.map((c) => c.source));
  const authors = new Map<string, number>();
  const journals = new Map<string, number>();
  const pubTypes = new Map<string, number>();
  const dateHistogram: CitingCounts['dateHistogram'] = {};
  const sections = { discussion: 0, introduction: 0, methods: 0, other: 0, results: 0 };
  const relationships = { independent: 0, selfCite: 0 };
  const countedSources = new Set<number>();
  for (const c of rows) {
    const s = sources.get(c.source)!;
    const type = TYPE_NAMES[c.kind & 3]!;
    const y = String(s.year);
    const bucket = (dateHistogram![y] ??= { contradicting: 0, mentioning: 0, supporting: 0, total: 0 });
    bucket.total = (bucket.total ?? 0) + 1;
    if (type !== 'unclassified') bucket[type] = (bucket[type] ?? 0) + 1;
    sections[SECTIONS[(c.kind >> 2) & 7]!]++;
    if (c.kind & 32) relationships.selfCite++;
    else relationships.independent++;
    if (!countedSources.has(s.id)) {
      countedSources.add(s.id);
      const j = corpus.journal(s);
      journals.set(j.name, (journals.get(j.name) ?? 0) + 1);
      const pt = (JSON.parse(s.ntypes) as string[])[0] ?? 'article';
      pubTypes.set(pt, (pubTypes.get(pt) ?? 0) + 1);
      for (const a of corpus.authorsOf(s)) {
        const name = `${a.given} ${a.family}`;
        authors.set(name, (authors.get(name) ?? 0) + 1);
      }
    }
  }
  const top = (m: Map<string, number>, n: number): Record<string, number> =>
    Object.fromEntries([...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n));
  const counts: CitingCounts = {
    authors: top(authors, 25),
    dateHistogram,
    journals: top(journals, 25),
    pubTypes: top(pubTypes, 25),
    relationships,
    sections,
    total: rows.length,
  };
  const restricted = rows.reduce(
    (n, c) => n + (RESTRICTED_MEMBERS.has(corpus.journal(sources.get(c.source)!).member_id) ? 1 : 0),
    0,
  );
  const summary = { counts, restricted };
  if (cache.size > 2000) cache.delete(cache.keys().next().value as number);
  cache.set(target.id, summary);
  return summary;
}

export const graphHandlers = {
  getCitingCitations: (req, { corpus }) => {
    const target = targetRow(corpus, req);
    const filter = sourceFilter(corpus, req, GUESSES.citingSourceDoiParam);
    const { limit, offset } = page(req);
    const all = corpus.db
      .prepare('SELECT target, id, source, kind FROM citations WHERE target = ? ORDER BY id')
      .all(target.id) as CitationRow[];
    const { counts, restricted } = citingSummary(corpus, target, all);
    const matching = filter ? all.filter((c) => filter.has(c.source)) : all;
    const slice = matching.slice(offset, offset + limit);
    const sources = corpus.papersByIds(slice.map((c) => c.source));
    const citations: Citation[] = slice.map((c) => corpus.citation(c, sources.get(c.source)!, target));
    return ok({
      citations,
      metadata: {
        totalCitationCount: filter ? matching.length : all.length,
        restrictedCitationCount: restricted,
        citingCounts: filter ? { ...counts, total: matching.length } : counts,
      },
      ...extras(corpus, req, sources.values()),
    });
  },
  getCitedByCitations: (req, { corpus }) => {
    const source = targetRow(corpus, req);
    const rows = corpus.db
      .prepare('SELECT target, id, source, kind FROM citations WHERE source = ? ORDER BY target, id')
      .all(source.id) as CitationRow[];
    const targets = corpus.papersByIds(rows.map((c) => c.target));
    const citations: CitedByCitation[] = rows.map((c) => {
      const full = corpus.citation(c, source, targets.get(c.target)!);
      const out: CitedByCitation = {
        source: full.source,
        target: full.target,
        section: full.section,
        typeConfidence: full.typeConfidence,
        selfCites: full.selfCites,
      };
      if (full.type) out.type = full.type;
      return out;
    });
    return ok({
      citations,
      metadata: { totalCitationCount: citations.length },
      ...extras(corpus, req, targets.values()),
    });
  },
  getReferencesTo: (req, { corpus }) => {
    const target = targetRow(corpus, req);
    const filter = sourceFilter(corpus, req, 'source_doi[]');
    const { limit, offset } = page(req);
    const all = corpus.db
      .prepare('SELECT source FROM refs WHERE target = ? ORDER BY source')
      .pluck()
      .all(target.id) as number[];
    const matching = filter ? all.filter((s) => filter.has(s)) : all;
    const slice = matching.slice(offset, offset + limit);
    const sources = corpus.papersByIds(slice);
    const references: Reference[] = slice.map((s) => {
      const src = sources.get(s)!;
      return {
        source: src.doi,
        target: target.doi,
        dataSource: 'CR',
        selfCites: corpus.selfCites(src, target),
        createdAt: `${src.year}-${String(src.month).padStart(2, '0')}-${String(src.day).padStart(2, '0')}T00:00:00Z`,
      };
    });
    const restricted = [...sources.values()].filter((s) => RESTRICTED_MEMBERS.has(corpus.journal(s).member_id)).length;
    return ok({
      metadata: {
        totalReferenceCount: matching.length,
        distinctSourceCount: matching.length,
        restrictedReferenceCount: restricted,
      },
      references,
      ...extras(corpus, req, sources.values()),
    });
  },
  getReferencesFrom: (req, { corpus }) => {
    const source = targetRow(corpus, req);
    const ids = corpus.db
      .prepare('SELECT target FROM refs WHERE source = ? ORDER BY target')
      .pluck()
      .all(source.id) as number[];
    const targets = corpus.papersByIds(ids);
    const references: Reference[] = ids.map((t) => ({
      source: source.doi,
      target: targets.get(t)!.doi,
      dataSource: 'CR',
      selfCites: corpus.selfCites(source, targets.get(t)!),
    }));
    return ok({
      metadata: { totalReferenceCount: references.length, distinctSourceCount: 1, restrictedReferenceCount: 0 },
      references,
      ...extras(corpus, req, targets.values()),
    });
  },
} satisfies Partial<Record<OperationId, Handler>>;
