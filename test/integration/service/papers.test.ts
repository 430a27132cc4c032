// Papers, tallies, journals and authors through the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Paper,
  PapersResponse,
  Tally,
  TalliesResponse,
  TallyCounts,
  JournalIndexRecord,
  IssnEditorialNotices,
  AuthorPapersResponse,
  JournalIndexBulkResponse,
} from '../../../shared/service/index';
import type { RunningService } from '../../service/server';
import { issnIsValid } from '../../service/corpus/identifiers';
import { call, startTestService } from './helpers';

let service: RunningService;
let dois: string[];

beforeAll(async () => {
  service = await startTestService();
  dois = service.corpus.db.prepare('SELECT doi FROM papers ORDER BY id LIMIT 600').pluck().all() as string[];
});
afterAll(() => service.close());

describe('GET /papers/{doi}', () => {
  it('returns every Paper field for a known DOI', async () => {
    const doi = service.corpus.db
      .prepare('SELECT doi FROM papers WHERE abstract IS NOT NULL AND keywords IS NOT NULL AND t_citing > 5 LIMIT 1')
      .pluck()
      .get() as string;
    const res = await call<Paper>(service, 'getPaper', { params: { doi }, token: null });
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p.doi).toBe(doi);
    expect(p.abstract!.length).toBeGreaterThan(200);
    expect(p.keywords!.length).toBeGreaterThan(0);
    expect(p.authors[0]!.authorSequenceNumber).toBe(1);
    expect(p.authors[0]!.authorSlug).toMatch(/^[a-z0-9-]+-[A-Za-z0-9]{6}$/);
    expect(p.issns.every(issnIsValid)).toBe(true);
    expect(p.tally!.total).toBe(
      p.tally!.supporting + p.tally!.contradicting + p.tally!.mentioning + p.tally!.unclassified,
    );
    expect(p.tally!.citingPublications).toBeGreaterThan(0);
    expect(p.citingTally!.sourceDoi).toBe(doi);
  });

  it('looks DOIs up case-insensitively and with a resolver prefix, even with reserved characters', async () => {
    const sici = service.corpus.db
      .prepare("SELECT doi FROM papers WHERE doi LIKE '%sici%' LIMIT 1")
      .pluck()
      .get() as string;
    expect(sici).toContain('<');
    const res = await call<Paper>(service, 'getPaper', { params: { doi: sici.toUpperCase() }, token: null });
    expect(res.status).toBe(200);
    expect(res.body.doi).toBe(sici);
  });

  it('answers 404 with a detail for an unknown DOI', async () => {
    const res = await call<{ detail: string }>(service, 'getPaper', {
      params: { doi: '10.9999/not-in-the-corpus' },
      token: null,
    });
    expect(res.status).toBe(404);
    expect(res.body.detail).toContain('10.9999/not-in-the-corpus');
  });

  it('carries editorial notices, retraction flags and preprint links', async () => {
    const retracted = service.corpus.db
      .prepare('SELECT doi FROM papers WHERE retracted = 1 LIMIT 1')
      .pluck()
      .get() as string;
    const r = (await call<Paper>(service, 'getPaper', { params: { doi: retracted } })).body;
    expect(r.retracted).toBe(true);
    expect(
      r.editorialNotices.some(
        (n) => n.status === 'Retracted' && n.noticeDoi && n.date && /^\d{4}-\d{1,2}-\d{1,2}$/.test(n.date),
      ),
    ).toBe(true);
    const preprint = service.corpus.db
      .prepare('SELECT doi, published_doi FROM papers WHERE published_doi IS NOT NULL LIMIT 1')
      .get() as { doi: string; published_doi: string };
    const pre = (await call<Paper>(service, 'getPaper', { params: { doi: preprint.doi } })).body;
    expect(pre.normalizedTypes).toEqual(['preprint']);
    expect(pre.publicationLinks).toEqual([{ publishedDoi: preprint.published_doi }]);
    const pub = (await call<Paper>(service, 'getPaper', { params: { doi: preprint.published_doi } })).body;
    expect(pub.preprintLinks).toEqual([{ preprintDoi: preprint.doi }]);
    expect(pub.title).toBe(pre.title);
  });
});

describe('POST /papers', () => {
  it('keys papers by lowercased DOI and leaves unknown DOIs out', async () => {
    const res = await call<PapersResponse>(service, 'getPapers', {
      body: [dois[0]!.toUpperCase(), ` ${dois[1]} `, '10.9999/unknown'],
      token: null,
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.papers).sort()).toEqual([dois[0], dois[1]].sort());
  });

  it('accepts 500 DOIs and rejects 501 with a FastAPI-style 422', async () => {
    const ok = await call<PapersResponse>(service, 'getPapers', { body: dois.slice(0, 500) });
    expect(Object.keys(ok.body.papers)).toHaveLength(500);
    const res = await call<{ detail: Array<{ loc: unknown[]; msg: string; type: string }> }>(service, 'getPapers', {
      body: dois.slice(0, 501),
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toEqual({
      loc: ['body'],
      msg: 'ensure this value has at most 500 items',
      type: 'value_error.list.max_items',
    });
  });

  it('rejects a body that is not a list of strings, and malformed JSON', async () => {
    const res = await call<{ detail: Array<{ loc: unknown[]; type: string }> }>(service, 'getPapers', {
      body: { dois: ['x'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]!.type).toBe('type_error.list');
    const bad = await call<{ detail: Array<{ type: string }> }>(service, 'getPapers', {
      rawBody: { data: '["10.1/a",', contentType: 'application/json' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]!.type).toBe('value_error.jsondecode');
  });
});

describe('tallies', () => {
  it('GET /tallies/{doi} answers the tally, or 404 for an unknown DOI (not zeros)', async () => {
    const t = await call<Tally>(service, 'getTally', { params: { doi: dois[3]! }, token: null });
    expect(t.status).toBe(200);
    expect(t.body.doi).toBe(dois[3]);
    expect((await call(service, 'getTally', { params: { doi: '10.9999/none' }, token: null })).status).toBe(404);
  });

  it('POST /tallies and GET /tallies with a body agree, keyed by lowercased DOI', async () => {
    const body = [dois[5]!.toUpperCase(), dois[6]!, '10.9999/none'];
    const post = await call<TalliesResponse>(service, 'getTallies', { body });
    const get = await call<TalliesResponse>(service, 'getTalliesViaGet', { body });
    expect(Object.keys(post.body.tallies).sort()).toEqual([dois[5], dois[6]].sort());
    expect(get.body).toEqual(post.body);
    const zero = service.corpus.db
      .prepare('SELECT doi FROM papers WHERE t_sup + t_con + t_men + t_unc = 0 LIMIT 1')
      .pluck()
      .get() as string;
    const z = await call<TalliesResponse>(service, 'getTallies', { body: [zero] });
    expect(z.body.tallies[zero]).toMatchObject({ total: 0, supporting: 0, contradicting: 0, mentioning: 0 });
    expect((await call(service, 'getTallies', { body: dois.slice(0, 501) })).status).toBe(422);
  });

  it('POST /tallies/aggregate sums up to 100 DOIs', async () => {
    const some = dois.slice(0, 100);
    const res = await call<TallyCounts>(service, 'getAggregateTally', { body: some, token: null });
    const rows = service.corpus.papersByDois(some);
    expect(res.body.total).toBe(rows.reduce((n, r) => n + r.t_sup + r.t_con + r.t_men + r.t_unc, 0));
    expect(res.body.supporting).toBe(rows.reduce((n, r) => n + r.t_sup, 0));
    expect((await call(service, 'getAggregateTally', { body: dois.slice(0, 101) })).status).toBe(422);
  });
});

describe('journals', () => {
  it('GET /issn-sji answers one record per year, newest first, and filters years', async () => {
    const j = [...service.corpus.journals.values()][0]!;
    const all = await call<JournalIndexRecord[]>(service, 'getJournalIndex', {
      query: { issn: j.issn_print },
      token: null,
    });
    expect(all.body.length).toBeGreaterThan(5);
    expect(all.body[0]!.journal).toBe(j.name);
    expect(Number(all.body[0]!.relativeYear)).toBeGreaterThan(Number(all.body[1]!.relativeYear));
    const some = await call<JournalIndexRecord[]>(service, 'getJournalIndex', {
      query: { issn: j.issn_print, year: '2019,2020' },
    });
    expect(some.body.map((r) => r.relativeYear).sort()).toEqual(['2019', '2020']);
    expect(
      (await call<JournalIndexRecord[]>(service, 'getJournalIndex', { query: { issn: '0000-0000' } })).body,
    ).toEqual([]);
    expect((await call(service, 'getJournalIndex', { query: {} })).status).toBe(422);
    expect((await call(service, 'getJournalIndex', { query: { issn: j.issn_print, year: 'last' } })).status).toBe(422);
  });

  it('POST /issn-sji-bulk keys records by requested ISSN and limits the list to 500', async () => {
    const [a, b] = [...service.corpus.journals.values()];
    const res = await call<JournalIndexBulkResponse>(service, 'getJournalIndexBulk', {
      body: [a!.issn_print, b!.issn_print, '0000-0000'],
    });
    expect(Object.keys(res.body).sort()).toEqual([a!.issn_print, b!.issn_print].sort());
    expect(
      (await call(service, 'getJournalIndexBulk', { body: Array.from({ length: 501 }, () => a!.issn_print) })).status,
    ).toBe(422);
  });

  it('GET /issn-editorial-notices aggregates notices; an ISSN without data has no notices key', async () => {
    const counts = service.corpus.db
      .prepare(
        "SELECT p.journal_id AS j, count(*) AS n FROM notices n JOIN papers p ON p.id = n.paper_id WHERE n.status = 'Retracted' GROUP BY p.journal_id ORDER BY n DESC LIMIT 1",
      )
      .get() as { j: number; n: number };
    const j = service.corpus.journals.get(counts.j)!;
    const res = await call<IssnEditorialNotices[]>(service, 'getIssnEditorialNotices', {
      query: { issn: `${j.issn_print},2049-3630` },
    });
    expect(res.body[0]!.issn).toBe(j.issn_print);
    expect(res.body[0]!.notices!.totalRetractions).toBe(counts.n);
    expect(res.body[1]).toEqual({ issn: '2049-3630' });
    const many = Array.from({ length: 501 }, () => j.issn_print).join(',');
    expect((await call(service, 'getIssnEditorialNotices', { query: { issn: many } })).status).toBe(422);
  });
});

describe('GET /authors/{author_slug}/papers', () => {
  it("pages through an author's papers with offset/limit and a nextPage URL", async () => {
    const top = service.corpus.db
      .prepare(
        'SELECT a.slug AS slug, count(*) AS n FROM paper_authors pa JOIN authors a ON a.id = pa.author_id GROUP BY pa.author_id ORDER BY n DESC LIMIT 1',
      )
      .get() as { slug: string; n: number };
    expect(top.n).toBeGreaterThan(50);
    const first = await call<AuthorPapersResponse>(service, 'getAuthorPapers', {
      params: { author_slug: top.slug },
      query: { limit: 50 },
    });
    expect(first.status).toBe(200);
    expect(first.body.totalPapers).toBe(top.n);
    expect(first.body.papers).toHaveLength(50);
    expect(first.body.author.nameSlug).toBe(top.slug);
    expect(first.body.author.affiliations!.length).toBeGreaterThan(0);
    expect(first.body.papers.every((p) => p.authors.some((a) => a.authorSlug === top.slug))).toBe(true);
    expect(first.body.nextPage).toBe(`${service.url}/authors/${top.slug}/papers?offset=50&limit=50`);
    const next = await fetch(first.body.nextPage!, { headers: { authorization: 'Bearer test-full-access' } }).then(
      (r) => r.json() as Promise<AuthorPapersResponse>,
    );
    expect(next.papers.length).toBe(Math.min(50, top.n - 50));
    expect(new Set([...first.body.papers, ...next.papers].map((p) => p.doi)).size).toBe(
      first.body.papers.length + next.papers.length,
    );
    const last = await call<AuthorPapersResponse>(service, 'getAuthorPapers', {
      params: { author_slug: top.slug },
      query: { offset: top.n - 1, limit: 5 },
    });
    expect(last.body.papers).toHaveLength(1);
    expect(last.body.nextPage ?? null).toBeNull();
  });

  it('validates limit (1 to 50), needs a token, and answers 404 for an unknown slug', async () => {
    const slug = service.corpus.db.prepare('SELECT slug FROM authors LIMIT 1').pluck().get() as string;
    const bad = await call<{ detail: Array<{ loc: unknown[]; msg: string; type: string }> }>(
      service,
      'getAuthorPapers',
      { params: { author_slug: slug }, query: { limit: 51 } },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toEqual({
      loc: ['query', 'limit'],
      msg: 'ensure this value is less than or equal to 50',
      type: 'value_error.number.not_le',
    });
    expect(
      (await call(service, 'getAuthorPapers', { params: { author_slug: slug }, query: { limit: 0 } })).status,
    ).toBe(422);
    expect((await call(service, 'getAuthorPapers', { params: { author_slug: slug }, token: null })).status).toBe(401);
    expect(
      (await call(service, 'getAuthorPapers', { params: { author_slug: slug }, token: 'test-public-only' })).status,
    ).toBe(200);
    expect((await call(service, 'getAuthorPapers', { params: { author_slug: 'nobody-xxxxxx' } })).status).toBe(404);
  });
});
