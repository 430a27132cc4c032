// GET /search over the corpus (SQLite FTS5 with bm25), and collections built from DOIs or a search.
import type {
  Collection,
  CollectionCreateRequest,
  CollectionQuery,
  SearchHit,
  SearchResponse,
  CitationStatement,
  OperationId,
} from '../../../shared/service/index';
import { GUESSES } from '../../../shared/service/index';
import { base62, Rng, slugify } from '../corpus/rng';
import { FIELDS } from '../corpus/vocab';
import { SECTIONS } from '../corpus/text';
import { NOTICE_STATUSES } from '../corpus/generate';
import { HttpError, notFound, ok, type Handler } from '../http';
import { normalizeDoi, NOTICE_BITS, type CitationRow, type Corpus, type PaperRow } from '../store';

/** The search filters in one (camelCase) form; GET /search's snake_case parameters map onto it. */
export interface SearchQuery {
  term?: string;
  mode?: string;
  limit?: number;
  offset?: number;
  sort?: string;
  sortOrder?: 'asc' | 'desc';
  title?: string;
  abstract?: string;
  doi?: string;
  dois?: string[];
  dateFrom?: string;
  dateTo?: string;
  citationTypes?: string[];
  hasRetraction?: boolean;
  hasConcern?: boolean;
  hasCorrection?: boolean;
  hasErratum?: boolean;
  hasWithdrawn?: boolean;
  hasTally?: boolean;
  supportingFrom?: number;
  supportingTo?: number;
  mentioningFrom?: number;
  mentioningTo?: number;
  contrastingFrom?: number;
  contrastingTo?: number;
  citingPublicationsFrom?: number;
  citingPublicationsTo?: number;
  author?: string;
  journal?: string;
  publisher?: string;
  section?: string;
  paperType?: string;
  affiliation?: string;
  topic?: string;
  authors?: string[];
  journals?: string[];
  sections?: string[];
  paperTypes?: string[];
  affiliations?: string[];
  topics?: string[];
  substances?: string[];
  meshType?: string[];
}

const TOTAL = '(p.t_sup + p.t_con + p.t_men + p.t_unc)';
// Ties are broken by id in the same direction, so that an index on the sort key serves the whole order.
const SORTS: Record<string, string> = {
  date: 'p.year %d, p.month %d, p.day %d, p.id %d',
  total_cited: `${TOTAL} %d, p.id %d`,
  total_supported: 'p.t_sup %d, p.id %d',
  total_contrasted: 'p.t_con %d, p.id %d',
  total_mentioned: 'p.t_men %d, p.id %d',
  total_citing_publications: 'p.t_citing %d, p.id %d',
};

export function words(text: string | undefined): string[] {
  return (
    (text ?? '')
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .match(/[a-z0-9]+/g) ?? []
  );
}

const ftsTerms = (ws: readonly string[]): string => ws.map((w) => `"${w}"*`).join(' ');

function dateKey(value: string, end: boolean): number {
  const [y, m, d] = value.split('-').map(Number);
  return (y ?? 0) * 10000 + (m ?? (end ? 12 : 1)) * 100 + (d ?? (end ? 31 : 1));
}

interface Built {
  from: string;
  where: string[];
  params: unknown[];
  ranked: boolean;
  empty: boolean;
}

function build(corpus: Corpus, q: SearchQuery): Built {
  const where: string[] = [];
  const params: unknown[] = [];
  const fts: string[] = [];
  let empty = false;
  const term = words(q.term);
  if (term.length) fts.push(`(${ftsTerms(term)})`);
  const title = words(q.title);
  if (title.length) fts.push(`title : (${ftsTerms(title)})`);
  const abstract = words(q.abstract);
  if (abstract.length) fts.push(`abstract : (${ftsTerms(abstract)})`);
  const like = (v: string): string => `%${v.toLowerCase()}%`;
  const inList = (column: string, values: readonly number[]): void => {
    if (values.length === 0) empty = true;
    else where.push(`${column} IN (${values.join(',')})`);
  };
  const dois = [...(q.dois ?? []), ...(q.doi ? [q.doi] : [])].map(normalizeDoi);
  if (dois.length) {
    where.push(`p.doi IN (${dois.map(() => '?').join(',')})`);
    params.push(...dois);
  }
  if (q.dateFrom) {
    where.push('(p.year * 10000 + p.month * 100 + p.day) >= ?');
    params.push(dateKey(q.dateFrom, false));
  }
  if (q.dateTo) {
    where.push('(p.year * 10000 + p.month * 100 + p.day) <= ?');
    params.push(dateKey(q.dateTo, true));
  }
  if (q.citationTypes?.length) {
    const cols: Record<string, string> = {
      supporting: 'p.t_sup',
      contrasting: 'p.t_con',
      contradicting: 'p.t_con',
      mentioning: 'p.t_men',
    };
    where.push(`(${q.citationTypes.map((t) => `${cols[t] ?? '0'} > 0`).join(' OR ')})`);
  }
  const flag = (value: boolean | undefined, bit: number): void => {
    if (value !== undefined) where.push(value ? `(p.notice_flags & ${bit}) != 0` : `(p.notice_flags & ${bit}) = 0`);
  };
  flag(q.hasRetraction, NOTICE_BITS.retraction);
  flag(q.hasConcern, NOTICE_BITS.concern);
  flag(q.hasCorrection, NOTICE_BITS.correction);
  flag(q.hasErratum, NOTICE_BITS.erratum);
  flag(q.hasWithdrawn, NOTICE_BITS.withdrawal);
  if (q.hasTally !== undefined) where.push(q.hasTally ? `${TOTAL} > 0` : `${TOTAL} = 0`);
  const range = (column: string, from: number | undefined, to: number | undefined): void => {
    if (from !== undefined) where.push(`${column} >= ${Math.floor(from)}`);
    if (to !== undefined) where.push(`${column} <= ${Math.floor(to)}`);
  };
  range('p.t_sup', q.supportingFrom, q.supportingTo);
  range('p.t_men', q.mentioningFrom, q.mentioningTo);
  range('p.t_con', q.contrastingFrom, q.contrastingTo);
  range('p.t_citing', q.citingPublicationsFrom, q.citingPublicationsTo);
  const journalsMatching = (names: string[], by: 'name' | 'publisher'): number[] =>
    [...corpus.journals.values()]
      .filter((j) =>
        names.some((n) =>
          (by === 'name' ? `${j.name} ${j.short}` : j.publisher).toLowerCase().includes(n.toLowerCase()),
        ),
      )
      .map((j) => j.id);
  const journals = [...(q.journals ?? []), ...(q.journal ? [q.journal] : [])];
  if (journals.length) inList('p.journal_id', journalsMatching(journals, 'name'));
  if (q.publisher) inList('p.journal_id', journalsMatching([q.publisher], 'publisher'));
  const topics = [...(q.topics ?? []), ...(q.topic ? [q.topic] : [])];
  if (topics.length)
    inList(
      'p.field',
      FIELDS.flatMap((f, i) =>
        topics.some((t) => f.topic.toLowerCase().includes(t.toLowerCase()) || f.key === t.toLowerCase()) ? [i] : [],
      ),
    );
  const authors = [...(q.authors ?? []), ...(q.author ? [q.author] : [])];
  if (authors.length) {
    const ids: number[] = [];
    for (const a of authors) {
      ids.push(
        ...(corpus.db
          .prepare("SELECT id FROM authors WHERE lower(given || ' ' || family) LIKE ? OR slug = ? LIMIT 5000")
          .pluck()
          .all(like(a), a) as number[]),
      );
    }
    if (ids.length === 0) empty = true;
    else where.push(`p.id IN (SELECT paper_id FROM paper_authors WHERE author_id IN (${ids.join(',')}))`);
  }
  const affiliations = [...(q.affiliations ?? []), ...(q.affiliation ? [q.affiliation] : [])];
  if (affiliations.length) {
    const ids = [...corpus.affiliations.values()]
      .filter((a) => affiliations.some((x) => a.name.toLowerCase().includes(x.toLowerCase()) || a.slug === x))
      .map((a) => a.id);
    if (ids.length === 0) empty = true;
    else where.push(`(${ids.map((id) => `(',' || p.aff_ids || ',') LIKE '%,${id},%'`).join(' OR ')})`);
  }
  const sections = [...(q.sections ?? []), ...(q.section ? [q.section] : [])]
    .map((s) => SECTIONS.indexOf(s.toLowerCase() as (typeof SECTIONS)[number]))
    .filter((i) => i >= 0);
  if (q.section !== undefined || q.sections?.length) {
    if (sections.length === 0) empty = true;
    else
      where.push(
        `EXISTS (SELECT 1 FROM citations c WHERE c.target = p.id AND ((c.kind >> 2) & 7) IN (${sections.join(',')}))`,
      );
  }
  const types = [...(q.paperTypes ?? []), ...(q.paperType ? [q.paperType] : [])];
  if (types.length) {
    where.push(`(${types.map(() => '(p.ntypes LIKE ? OR p.type = ?)').join(' OR ')})`);
    for (const t of types) params.push(`%"${t.toLowerCase()}"%`, t.toLowerCase());
  }
  // The corpus has no substance or MeSH annotations, so these filters match nothing.
  if (q.substances?.length || q.meshType?.length) empty = true;
  if (fts.length) {
    where.unshift('papers_fts MATCH ?');
    params.unshift(fts.join(' AND '));
    return { from: 'papers_fts JOIN papers p ON p.id = papers_fts.rowid', where, params, ranked: true, empty };
  }
  return { from: 'papers p', where, params, ranked: false, empty };
}

export interface SearchResult {
  count: number;
  rows: PaperRow[];
  sample: PaperRow[];
}

export function runSearch(corpus: Corpus, q: SearchQuery, aggregate: boolean): SearchResult {
  const b = build(corpus, q);
  if (b.empty) return { count: 0, rows: [], sample: [] };
  const whereSql = b.where.length ? `WHERE ${b.where.join(' AND ')}` : '';
  const dir = q.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const order =
    q.sort && SORTS[q.sort]
      ? SORTS[q.sort]!.replace(/%d/g, dir)
      : b.ranked
        ? 'papers_fts.rank'
        : 'p.t_citing DESC, p.id DESC';
  const count = corpus.db
    .prepare(`SELECT count(*) FROM ${b.from} ${whereSql}`)
    .pluck()
    .get(...b.params) as number;
  const limit = q.limit ?? 10;
  const offset = q.offset ?? 0;
  const rows = corpus.db
    .prepare(`SELECT p.* FROM ${b.from} ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...b.params, limit, offset) as PaperRow[];
  const sample = aggregate
    ? (corpus.db
        .prepare(`SELECT p.* FROM ${b.from} ${whereSql} ORDER BY ${order} LIMIT 2000`)
        .all(...b.params) as PaperRow[])
    : [];
  return { count, rows, sample };
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function highlight(text: string, terms: readonly string[]): string {
  if (terms.length === 0) return text;
  const re = new RegExp(`\\b(${terms.map(esc).join('|')})[\\p{L}\\p{N}]*`, 'giu');
  return text.replace(re, (m) => `<strong class="highlight">${m}</strong>`);
}

function statements(corpus: Corpus, target: PaperRow, terms: readonly string[], max: number): CitationStatement[] {
  const rows = corpus.db
    .prepare('SELECT target, id, source, kind FROM citations WHERE target = ? ORDER BY id LIMIT 80')
    .all(target.id) as CitationRow[];
  if (rows.length === 0) return [];
  const sources = corpus.papersByIds(rows.map((r) => r.source));
  const out: CitationStatement[] = [];
  for (const r of rows) {
    const src = sources.get(r.source)!;
    const snippet = corpus.snippet(r, src, target);
    const lower = snippet.toLowerCase();
    if (terms.length && !terms.some((t) => lower.includes(t))) continue;
    out.push({
      ...corpus.citation(r, src, target),
      snippet: highlight(snippet, terms),
      snippetHidden: false,
      lang: 'en',
      langConfidence: 0.99,
    });
    if (out.length >= max) break;
  }
  return out;
}

export function hit(corpus: Corpus, row: PaperRow, terms: readonly string[], withStatements: boolean): SearchHit {
  const j = corpus.journal(row);
  const r = new Rng(row.id, 3);
  const oa = r.pick(['gold', 'green', 'hybrid', 'closed', 'closed', 'bronze']);
  const out: SearchHit = {
    id: row.doi,
    doi: row.doi,
    title: highlight(row.title, terms),
    slug: row.slug,
    authors: corpus.paperAuthors(row).map((a) => ({
      authorName: a.authorName,
      authorSlug: a.authorSlug,
      authorSequenceNumber: String(a.authorSequenceNumber),
      ...(a.affiliation ? { affiliation: a.affiliation, affiliationSlug: a.affiliationSlug } : {}),
    })),
    journal: j.name,
    shortJournal: j.short,
    publisher: j.publisher,
    memberId: j.member_id,
    year: row.year,
    date: `${row.year}-${String(row.month).padStart(2, '0')}-${String(row.day).padStart(2, '0')}`,
    lastUpdate: Math.floor(Date.UTC(Math.min(2025, row.year + 2), row.month - 1, row.day) / 1000),
    volume: row.volume,
    page: row.page,
    tally: corpus.tallyCounts(row),
    issns: j.issn_e ? [j.issn_print, j.issn_e] : [j.issn_print],
    editorialNotices: corpus.notices(row),
    normalizedTypes: JSON.parse(row.ntypes) as string[],
    isOa: oa !== 'closed',
    oaStatus: oa,
    meshTypes: [],
    citations: withStatements ? statements(corpus, row, terms, 3) : [],
    highlightedFields: [],
  };
  if (row.abstract) out.abstract = highlight(row.abstract, terms);
  if (row.issue) out.issue = row.issue;
  out.highlightedFields = (['title', 'abstract'] as const).filter(
    (k) => typeof out[k] === 'string' && out[k]!.includes('class="highlight"'),
  );
  return out;
}

function aggregations(corpus: Corpus, sample: readonly PaperRow[]): NonNullable<SearchResponse['aggregations']> {
  const tally = (m: Map<string, number>, key: string): void => void m.set(key, (m.get(key) ?? 0) + 1);
  const types = new Map<string, number>();
  const journals = new Map<string, number>();
  const topics = new Map<string, number>();
  const authors = new Map<string, number>();
  const affs = new Map<string, number>();
  const notices = new Map<string, number>();
  const years = new Map<
    string,
    {
      docCount: number;
      total: number;
      supporting: number;
      contradicting: number;
      mentioning: number;
      unclassified: number;
    }
  >();
  for (const row of sample) {
    tally(types, (JSON.parse(row.ntypes) as string[])[0] ?? 'article');
    tally(journals, corpus.journal(row).name);
    tally(topics, corpus.fieldTopic(row));
    for (const a of corpus.authorsOf(row).slice(0, 3)) tally(authors, `${a.given} ${a.family}`);
    for (const aff of new Set(row.aff_ids.split(',').filter(Boolean)))
      tally(affs, corpus.affiliations.get(Number(aff))!.name);
    NOTICE_STATUSES.forEach((s, bit) => {
      if (row.notice_flags & (1 << bit)) tally(notices, s);
    });
    const y = years.get(String(row.year)) ?? {
      docCount: 0,
      total: 0,
      supporting: 0,
      contradicting: 0,
      mentioning: 0,
      unclassified: 0,
    };
    y.docCount++;
    y.supporting += row.t_sup;
    y.contradicting += row.t_con;
    y.mentioning += row.t_men;
    y.unclassified += row.t_unc;
    y.total += row.t_sup + row.t_con + row.t_men + row.t_unc;
    years.set(String(row.year), y);
  }
  const buckets = (m: Map<string, number>, n = 20) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, n)
      .map(([key, docCount]) => ({ key, docCount }));
  const hist = [...years.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  return {
    paperTypes: buckets(types),
    journals: buckets(journals),
    topics: buckets(topics),
    substances: [],
    meshDescriptors: [],
    editorialNotices: buckets(notices),
    authors: buckets(authors),
    affiliations: buckets(affs),
    dateHistogram: hist.map(([date, v]) => ({ date, docCount: v.docCount })),
    citationTypeDateHistogram: hist.map(([date, v]) => ({ date, ...v })),
    ...(hist.length ? { minDate: hist[0]![0], maxDate: hist[hist.length - 1]![0] } : {}),
  };
}

function fromQueryString(query: Record<string, unknown>): SearchQuery {
  const s = (k: string): string | undefined =>
    typeof query[k] === 'string' && query[k] !== '' ? (query[k] as string) : undefined;
  const n = (k: string): number | undefined => (typeof query[k] === 'number' ? (query[k] as number) : undefined);
  const b = (k: string): boolean | undefined => (typeof query[k] === 'boolean' ? (query[k] as boolean) : undefined);
  const list = (k: string): string[] | undefined => {
    const v = query[k] ?? query[`${k}[]`];
    if (v === undefined) return undefined;
    return (Array.isArray(v) ? v : [v]).map(String);
  };
  return {
    term: s('term'),
    mode: s('mode'),
    limit: n('limit'),
    offset: n('offset'),
    sort: s('sort'),
    sortOrder: s('sort_order') as 'asc' | 'desc' | undefined,
    title: s('title'),
    abstract: s('abstract'),
    dateFrom: s('date_from'),
    dateTo: s('date_to'),
    citationTypes: list(GUESSES.searchCitationTypesParam),
    hasRetraction: b('has_retraction'),
    hasConcern: b('has_concern'),
    hasCorrection: b('has_correction'),
    hasErratum: b('has_erratum'),
    hasWithdrawn: b('has_withdrawn'),
    hasTally: b('has_tally'),
    supportingFrom: n('supporting_from'),
    supportingTo: n('supporting_to'),
    mentioningFrom: n('mentioning_from'),
    mentioningTo: n('mentioning_to'),
    contrastingFrom: n('contrasting_from'),
    contrastingTo: n('contrasting_to'),
    citingPublicationsFrom: n('citing_publications_from'),
    citingPublicationsTo: n('citing_publications_to'),
    author: s('author'),
    journal: s('journal'),
    publisher: s('publisher'),
    section: s('section'),
    paperType: s('paper_type'),
    affiliation: s('affiliation'),
    topic: s('topic'),
    substances: list('substances'),
    meshType: s('mesh_type') ? [s('mesh_type')!] : undefined,
  };
}

function collectionQuery(q: CollectionQuery): SearchQuery {
  const { sort, ...rest } = q;
  return { ...rest, sort, sortOrder: 'desc' };
}

const COLLECTION_LIMIT = 2000;

export const searchHandlers = {
  search: (req, { corpus }) => {
    const q = fromQueryString(req.query);
    const result = runSearch(corpus, q, true);
    const terms = words([q.term, q.title, q.abstract].filter(Boolean).join(' '));
    const withStatements =
      q.mode === undefined || q.mode === 'all' || q.mode === 'citations' || q.mode === 'question-answering';
    const body: SearchResponse = {
      count: result.count,
      countIsApproximate: false,
      aggregations: aggregations(corpus, result.sample),
      hits: result.rows.map((r) => hit(corpus, r, terms, withStatements)),
    };
    return ok(body);
  },
  createCollection: (req, { corpus, state }) => {
    const body = req.body as CollectionCreateRequest;
    let matched: string[];
    let unmatched: string[] = [];
    let queryType = 'list';
    if (body.query) {
      queryType = 'search';
      const q = collectionQuery(body.query);
      matched = runSearch(
        corpus,
        { ...q, limit: Math.min(q.limit ?? COLLECTION_LIMIT, COLLECTION_LIMIT), offset: q.offset ?? 0 },
        false,
      ).rows.map((r) => r.doi);
    } else if (body.dois) {
      const found = new Set(corpus.papersByDois(body.dois).map((r) => r.doi));
      const requested = [...new Set(body.dois.map(normalizeDoi))];
      matched = requested.filter((d) => found.has(d));
      unmatched = requested.filter((d) => !found.has(d));
    } else {
      throw new HttpError(422, [
        { loc: ['body', 'dois'], msg: 'either dois or query is required', type: 'value_error.missing' },
      ]);
    }
    const now = new Date().toISOString();
    const id = 9000 + ++state.collectionSeq;
    const slug = `${slugify(body.name, 6) || 'collection'}-${base62(new Rng(id, 9), 6)}`;
    const collection: Collection = {
      id,
      name: body.name,
      description: body.description ?? '',
      slug,
      dashboardType: 'collection',
      organizationSlug: 'personal',
      componentLayout: [
        {
          _id: 1,
          components: [
            { _id: 1, name: 'tallies', width: 6 },
            { _id: 2, name: 'citationsOverTime', width: 6 },
          ],
        },
        { _id: 2, components: [{ _id: 3, name: 'papers', width: 12 }] },
      ],
      doiQuery: { query: { dois: matched }, queryType },
      isPublic: body.isPublic ?? false,
      lastUpdated: now,
      doisUpdatedTS: now,
      doisRefreshedTS: now,
      refreshStatus: '-',
      accessType: 'VIEWER',
      totalDoiCount: matched.length + unmatched.length,
      matchedDoiCount: matched.length,
      unmatchedDoiCount: unmatched.length,
      unmatchedDois: unmatched,
    };
    if (unmatched.length)
      collection.warning = `${unmatched.length} of ${matched.length + unmatched.length} DOIs could not be matched`;
    if (body.dois && body.query)
      collection.warning = [collection.warning, 'Both dois and query were given; the query was used']
        .filter(Boolean)
        .join('. ');
    state.collections.set(slug, collection);
    return ok(collection);
  },
  getCollection: (req, { state }) => {
    const c = state.collections.get(req.params.collection_slug!);
    if (!c) throw notFound(`No collection with slug ${req.params.collection_slug}`);
    return ok(c);
  },
} satisfies Partial<Record<OperationId, Handler>>;
