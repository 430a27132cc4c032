// The citation graph: citing with paging beyond 3,000 statements and its metadata, cited_by,
// references_to and references_from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitingResponse, CitedByResponse, ReferencesResponse } from '../../../shared/service/index';
import { GUESSES } from '../../../shared/service/index';
import type { RunningService } from '../../service/server';
import { call, startTestService, TOKENS } from './helpers';

let service: RunningService;
let landmark: { doi: string; n: number };

beforeAll(async () => {
  service = await startTestService();
  landmark = service.corpus.db
    .prepare(
      'SELECT p.doi AS doi, count(*) AS n FROM citations c JOIN papers p ON p.id = c.target GROUP BY c.target ORDER BY n DESC LIMIT 1',
    )
    .get() as { doi: string; n: number };
});
afterAll(() => service.close());

describe('GET /api_partner/citations/citing/{doi}', () => {
  it('pages a paper with more than 3,000 citation statements with limit and offset', async () => {
    expect(landmark.n).toBeGreaterThan(3000);
    const first = await call<CitingResponse>(service, 'getCitingCitations', { params: { doi: landmark.doi } });
    expect(first.status).toBe(200);
    expect(first.body.metadata.totalCitationCount).toBe(landmark.n);
    expect(first.body.citations).toHaveLength(3000);
    const ids = new Set<number>();
    let offset = 0;
    for (;;) {
      const page = await call<CitingResponse>(service, 'getCitingCitations', {
        params: { doi: landmark.doi },
        query: { limit: 1000, offset },
      });
      for (const c of page.body.citations) ids.add(c.id);
      if (page.body.citations.length < 1000) break;
      offset += 1000;
    }
    expect(ids.size).toBe(landmark.n);
  });

  it('carries the metadata aggregates: citingCounts with authors, dateHistogram, journals, pubTypes, relationships and sections', async () => {
    const res = await call<CitingResponse>(service, 'getCitingCitations', {
      params: { doi: landmark.doi },
      query: { limit: 5 },
    });
    const m = res.body.metadata;
    const cc = m.citingCounts!;
    expect(cc.total).toBe(landmark.n);
    const sections = cc.sections!;
    expect(
      (sections.introduction ?? 0) +
        (sections.methods ?? 0) +
        (sections.results ?? 0) +
        (sections.discussion ?? 0) +
        (sections.other ?? 0),
    ).toBe(landmark.n);
    expect((cc.relationships!.independent ?? 0) + (cc.relationships!.selfCite ?? 0)).toBe(landmark.n);
    const hist = Object.values(cc.dateHistogram!);
    expect(hist.reduce((n, b) => n + (b.total ?? 0), 0)).toBe(landmark.n);
    expect(Object.keys(cc.authors!).length).toBeGreaterThan(0);
    expect(Object.keys(cc.journals!).length).toBeGreaterThan(0);
    expect(Object.keys(cc.pubTypes!)).toContain('article');
    expect(m.restrictedCitationCount).toBeGreaterThanOrEqual(0);
  });

  it('has realistic classifications: mostly mentioning, a few per cent supporting, about one per cent contradicting', async () => {
    const res = await call<CitingResponse>(service, 'getCitingCitations', { params: { doi: landmark.doi } });
    const count = (t: string): number => res.body.citations.filter((c) => c.type === t).length;
    const n = res.body.citations.length;
    expect(count('mentioning') / n).toBeGreaterThan(0.85);
    expect(count('supporting') / n).toBeGreaterThan(0.02);
    expect(count('supporting') / n).toBeLessThan(0.09);
    expect(count('contradicting') / n).toBeGreaterThan(0.003);
    expect(count('contradicting') / n).toBeLessThan(0.03);
    for (const c of res.body.citations.slice(0, 200)) {
      expect(c.target).toBe(landmark.doi);
      expect(c.typeConfidence).toBeGreaterThan(0);
      expect(c.typeConfidence).toBeLessThanOrEqual(1);
    }
  });

  it('returns source papers and tallies on request, and filters by source DOI', async () => {
    const res = await call<CitingResponse>(service, 'getCitingCitations', {
      params: { doi: landmark.doi },
      query: { limit: 20, papers: true, tallies: true },
    });
    const sources = new Set(res.body.citations.map((c) => c.source));
    expect(new Set(Object.keys(res.body.papers!))).toEqual(sources);
    expect(new Set(Object.keys(res.body.tallies!))).toEqual(sources);
    const plain = await call<CitingResponse>(service, 'getCitingCitations', {
      params: { doi: landmark.doi },
      query: { limit: 1 },
    });
    expect(plain.body.papers).toBeUndefined();
    const one = [...sources][0]!;
    const filtered = await call<CitingResponse>(service, 'getCitingCitations', {
      params: { doi: landmark.doi },
      query: { [GUESSES.citingSourceDoiParam]: [one.toUpperCase()] },
    });
    expect(filtered.body.citations.length).toBeGreaterThan(0);
    expect(filtered.body.citations.every((c) => c.source === one)).toBe(true);
    expect(filtered.body.metadata.totalCitationCount).toBe(filtered.body.citations.length);
  });

  it('lists self-citations with the shared authors', async () => {
    const row = service.corpus.db
      .prepare('SELECT p.doi AS doi FROM citations c JOIN papers p ON p.id = c.target WHERE (c.kind & 32) != 0 LIMIT 1')
      .get() as { doi: string };
    const res = await call<CitingResponse>(service, 'getCitingCitations', { params: { doi: row.doi } });
    const self = res.body.citations.filter((c) => c.selfCites!.length > 0);
    expect(self.length).toBeGreaterThan(0);
    expect(self[0]!.selfCites![0]).toMatchObject({ type: 'SHAREDAUTHOR' });
    const papers = await call<CitingResponse>(service, 'getCitingCitations', {
      params: { doi: row.doi },
      query: { papers: true },
    });
    const source = papers.body.papers![self[0]!.source]!;
    expect(source.authors.some((a) => a.family === self[0]!.selfCites![0]!.family)).toBe(true);
  });

  it('answers 404 for an unknown DOI, 422 for a negative offset, 401 without and 403 with a key lacking the scope', async () => {
    expect((await call(service, 'getCitingCitations', { params: { doi: '10.9999/none' } })).status).toBe(404);
    expect(
      (await call(service, 'getCitingCitations', { params: { doi: landmark.doi }, query: { offset: -1 } })).status,
    ).toBe(422);
    const anon = await call<{ detail: string }>(service, 'getCitingCitations', {
      params: { doi: landmark.doi },
      token: null,
    });
    expect(anon.status).toBe(401);
    expect(anon.body.detail).toContain('citations');
    const limited = await call<{ detail: string }>(service, 'getCitingCitations', {
      params: { doi: landmark.doi },
      token: TOKENS.limited,
    });
    expect(limited.status).toBe(403);
    expect(limited.body.detail).toContain('"citations" scope');
    expect(
      (
        await call(service, 'getCitingCitations', {
          params: { doi: landmark.doi },
          query: { limit: 1 },
          token: TOKENS.citations,
        })
      ).status,
    ).toBe(200);
  });
});

describe('GET /api_partner/citations/cited_by/{doi}', () => {
  it('lists the statements a paper makes, without snippets, with target papers on request', async () => {
    const src = service.corpus.db
      .prepare(
        'SELECT p.doi AS doi, count(*) AS n FROM citations c JOIN papers p ON p.id = c.source GROUP BY c.source ORDER BY n DESC LIMIT 1',
      )
      .get() as { doi: string; n: number };
    const res = await call<CitedByResponse>(service, 'getCitedByCitations', {
      params: { doi: src.doi },
      query: { papers: true, tallies: true },
    });
    expect(res.body.citations).toHaveLength(src.n);
    expect(res.body.citations.every((c) => c.source === src.doi && !('snippet' in c))).toBe(true);
    const targets = new Set(res.body.citations.map((c) => c.target));
    expect(new Set(Object.keys(res.body.papers!))).toEqual(targets);
    expect((await call(service, 'getCitedByCitations', { params: { doi: '10.9999/none' } })).status).toBe(404);
  });
});

describe('references', () => {
  it('references_to lists distinct citing papers, pages, and counts', async () => {
    const t = service.corpus.db
      .prepare('SELECT p.doi AS doi, p.t_citing AS n FROM papers p ORDER BY p.t_citing DESC LIMIT 1')
      .get() as { doi: string; n: number };
    const res = await call<ReferencesResponse>(service, 'getReferencesTo', { params: { doi: t.doi } });
    expect(res.body.metadata.totalReferenceCount).toBe(t.n);
    expect(res.body.references.every((r) => r.target === t.doi && r.dataSource === 'CR')).toBe(true);
    expect(new Set(res.body.references.map((r) => r.source)).size).toBe(res.body.references.length);
    const page = await call<ReferencesResponse>(service, 'getReferencesTo', {
      params: { doi: t.doi },
      query: { limit: 10, offset: 10, papers: true },
    });
    expect(page.body.references.map((r) => r.source)).toEqual(res.body.references.slice(10, 20).map((r) => r.source));
    expect(Object.keys(page.body.papers!)).toHaveLength(10);
    const one = res.body.references[3]!.source;
    const filtered = await call<ReferencesResponse>(service, 'getReferencesTo', {
      params: { doi: t.doi },
      query: { 'source_doi[]': [one] },
    });
    expect(filtered.body.references.map((r) => r.source)).toEqual([one]);
  });

  it("references_from lists a paper's reference list, matching its citing tally", async () => {
    const s = service.corpus.db.prepare('SELECT doi, c_cited AS n FROM papers WHERE c_cited > 5 LIMIT 1').get() as {
      doi: string;
      n: number;
    };
    const res = await call<ReferencesResponse>(service, 'getReferencesFrom', {
      params: { doi: s.doi },
      query: { tallies: true },
    });
    expect(res.body.references).toHaveLength(s.n);
    expect(res.body.references.every((r) => r.source === s.doi)).toBe(true);
    expect(Object.keys(res.body.tallies!)).toHaveLength(s.n);
    expect((await call(service, 'getReferencesFrom', { params: { doi: '10.9999/none' } })).status).toBe(404);
  });
});
