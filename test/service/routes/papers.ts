// Papers, tallies, journals and authors.
import type {
  Paper,
  Tally,
  TallyCounts,
  JournalIndexRecord,
  IssnEditorialNotices,
  AuthorRecord,
  OperationId,
} from '../../../shared/service/index';
import { rngFor } from '../corpus/rng';
import { KIND } from '../corpus/text';
import { LAST_YEAR } from '../corpus/generate';
import { notFound, ok, unprocessable, type Handler } from '../http';
import { Corpus, type JournalRow, type PaperRow } from '../store';

const DEFAULT_AUTHOR_LIMIT = 10;

function journalIndex(corpus: Corpus, j: JournalRow, years: readonly number[] | null): JournalIndexRecord[] {
  const out: JournalIndexRecord[] = [];
  const last = LAST_YEAR - 1;
  for (let y = last; y >= Math.max(j.first_year, 2000); y--) {
    if (years && !years.includes(y)) continue;
    const r = rngFor(corpus.seed, KIND.journal, j.id * 10000 + y);
    // The index drifts slowly with the journal's standing; the two-year window is the noisiest.
    const trend = 1 + (y - 2012) * 0.01;
    const all = j.quality * trend * (0.92 + r.next() * 0.16);
    out.push({
      issns: j.issn_e ? [j.issn_print, j.issn_e] : [j.issn_print],
      journal: j.name,
      journalSlug: j.slug,
      relativeYear: String(y),
      sjiAllYears: Math.round(all * 1000) / 1000,
      sjiFiveYears: Math.round(all * (0.85 + r.next() * 0.3) * 1000) / 1000,
      sjiTwoYears: Math.round(all * (0.7 + r.next() * 0.6) * 1000) / 1000,
    });
  }
  return out;
}

const noticeCache = new WeakMap<Corpus, Map<number, IssnEditorialNotices['notices']>>();

function journalNotices(corpus: Corpus, j: JournalRow): NonNullable<IssnEditorialNotices['notices']> {
  let cache = noticeCache.get(corpus);
  if (!cache) noticeCache.set(corpus, (cache = new Map()));
  const hit = cache.get(j.id);
  if (hit) return hit;
  const rows = corpus.db
    .prepare(
      'SELECT n.status AS status, count(*) AS n FROM notices n JOIN papers p ON p.id = n.paper_id WHERE p.journal_id = ? GROUP BY n.status',
    )
    .all(j.id) as Array<{ status: string; n: number }>;
  const count = (s: string): number => rows.find((r) => r.status === s)?.n ?? 0;
  const notices = {
    totalCorrections: count('Has correction'),
    totalErrata: count('Has erratum'),
    totalExpressionOfConcerns: count('Has expression of concern'),
    totalRetractions: count('Retracted'),
    totalWithdrawals: count('Withdrawn'),
  };
  cache.set(j.id, notices);
  return notices;
}

function papersByDoi(corpus: Corpus, dois: readonly string[]): Record<string, Paper> {
  const out: Record<string, Paper> = {};
  const rows = corpus.papersByDois(dois);
  for (const row of rows) out[row.doi] = corpus.paper(row);
  return out;
}

function talliesByDoi(corpus: Corpus, dois: readonly string[]): Record<string, Tally> {
  const out: Record<string, Tally> = {};
  for (const row of corpus.papersByDois(dois)) out[row.doi] = corpus.tally(row);
  return out;
}

function authorRecord(corpus: Corpus, authorId: number, rows: readonly PaperRow[]): AuthorRecord {
  const a = corpus.author(authorId);
  const counts = new Map<number, number>();
  for (const row of rows) {
    const position = corpus.authorIds(row).indexOf(authorId);
    const aff = Number(row.aff_ids.split(',')[position] || 0);
    if (aff) counts.set(aff, (counts.get(aff) ?? 0) + 1);
  }
  const name = `${a.given} ${a.family}`;
  const newest = rows.reduce((m, r) => Math.max(m, r.year), 0);
  const record: AuthorRecord = {
    id: a.id,
    normalizedName: name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, ''),
    displayName: name,
    nameSlug: a.slug,
    sourceId: `A${5000000000 + a.id}`,
    source: 'openalex',
    createdAt: a.created_at,
    lastUpdated: `${Math.max(newest, 2023)}-11-0${(a.id % 9) + 1}T00:00:00Z`,
    affiliations: [...counts.entries()]
      .sort((x, y) => y[1] - x[1])
      .map(([id, count]) => {
        const aff = corpus.affiliations.get(id)!;
        return { affiliation: aff.name, affiliationSlug: aff.slug, affiliationId: aff.id, count };
      }),
  };
  if (a.affiliation_id) record.lastKnownAffiliationId = a.affiliation_id;
  return record;
}

export const papersHandlers = {
  getPaper: (req, { corpus }) => {
    const row = corpus.paperByDoi(req.params.doi!);
    if (!row) throw notFound(`No paper with DOI ${req.params.doi}`);
    return ok(corpus.paper(row));
  },
  getPapers: (req, { corpus }) => ok({ papers: papersByDoi(corpus, req.body as string[]) }),
  getTally: (req, { corpus }) => {
    const row = corpus.paperByDoi(req.params.doi!);
    if (!row) throw notFound(`No tally for DOI ${req.params.doi}`);
    return ok(corpus.tally(row));
  },
  getTallies: (req, { corpus }) => ok({ tallies: talliesByDoi(corpus, req.body as string[]) }),
  getTalliesViaGet: (req, { corpus }) => ok({ tallies: talliesByDoi(corpus, req.body as string[]) }),
  getAggregateTally: (req, { corpus }) => {
    const sum: TallyCounts = {
      total: 0,
      supporting: 0,
      contradicting: 0,
      mentioning: 0,
      unclassified: 0,
      citingPublications: 0,
    };
    for (const row of corpus.papersByDois(req.body as string[])) Corpus.addTally(sum, corpus.tallyCounts(row));
    return ok(sum);
  },
  getJournalIndex: (req, { corpus }) => {
    const j = corpus.journalsByIssn.get(String(req.query.issn).trim().toUpperCase());
    const years =
      typeof req.query.year === 'string' && req.query.year.trim() !== '' ? req.query.year.split(',').map(Number) : null;
    return ok(j ? journalIndex(corpus, j, years) : []);
  },
  getJournalIndexBulk: (req, { corpus }) => {
    const out: Record<string, JournalIndexRecord[]> = {};
    for (const issn of req.body as string[]) {
      const j = corpus.journalsByIssn.get(issn.trim().toUpperCase());
      if (j) out[issn] = journalIndex(corpus, j, null);
    }
    return ok(out);
  },
  getIssnEditorialNotices: (req, { corpus }) => {
    const issns = String(req.query.issn)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (issns.length > 500)
      throw unprocessable(['query', 'issn'], 'ensure this value has at most 500 items', 'value_error.list.max_items');
    return ok(
      issns.map((issn): IssnEditorialNotices => {
        const j = corpus.journalsByIssn.get(issn.toUpperCase());
        return j ? { issn, notices: journalNotices(corpus, j) } : { issn };
      }),
    );
  },
  getAuthorPapers: (req, { corpus }) => {
    const slug = req.params.author_slug!;
    const author = corpus.authorBySlug(slug);
    if (!author) throw notFound(`No author with slug ${slug}`);
    const offset = (req.query.offset as number | undefined) ?? 0;
    const limit = (req.query.limit as number | undefined) ?? DEFAULT_AUTHOR_LIMIT;
    const ids = corpus.db
      .prepare('SELECT paper_id FROM paper_authors WHERE author_id = ?')
      .pluck()
      .all(author.id) as number[];
    const rows = [...corpus.papersByIds(ids).values()].sort(
      (x, y) => y.year - x.year || y.month - x.month || y.id - x.id,
    );
    const page = rows.slice(offset, offset + limit);
    const more = offset + limit < rows.length;
    return ok({
      author: authorRecord(corpus, author.id, rows),
      papers: corpus.papers(page),
      totalPapers: rows.length,
      nextPage: more
        ? `${req.baseUrl}/authors/${encodeURIComponent(slug)}/papers?offset=${offset + limit}&limit=${limit}`
        : null,
    });
  },
} satisfies Partial<Record<OperationId, Handler>>;
