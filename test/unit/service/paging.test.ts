// Paging helpers are cancellable async iterators.
import { describe, expect, it } from 'vitest';
import { nextPageParams } from '../../../electron/core/service';
import { client, fakeFetch, json, KEY } from './fakes';

const TOTAL = 7500;
function citing(req: { url: URL }) {
  const limit = Number(req.url.searchParams.get('limit') ?? 3000);
  const offset = Number(req.url.searchParams.get('offset') ?? 0);
  const n = Math.max(0, Math.min(limit, TOTAL - offset));
  const citations = Array.from({ length: n }, (_, i) => ({
    source: `10.2000/s${offset + i}`,
    target: '10.1000/t',
    type: i % 3 === 0 ? 'contradicting' : 'supporting',
  }));
  return json({ citations, metadata: { totalCitationCount: TOTAL, restrictedCitationCount: 0 }, papers: {} });
}

describe('paging', () => {
  it('pages citing past 3,000 with limit/offset and the UI vocabulary', async () => {
    const { fetch, seen } = fakeFetch(citing);
    const pages = [];
    for await (const page of client(fetch, { getKey: async () => KEY }).citing('https://doi.org/10.1000/T', {
      pageSize: 3000,
      sourceDois: ['10.2000/S1', '10.2000/s2'],
    }))
      pages.push(page);
    expect(pages.map((p) => p.offset)).toEqual([0, 3000, 6000]);
    expect(pages.reduce((n, p) => n + p.citations.length, 0)).toBe(TOTAL);
    expect(pages[0]!.citations[0]!.type).toBe('contrasting');
    expect(seen[0]!.url.pathname).toBe('/api_partner/citations/citing/10.1000/t');
    expect(seen[0]!.url.searchParams.getAll('source_doi[]')).toEqual(['10.2000/s1', '10.2000/s2']);
  });

  it('stops requesting when the loop breaks or the signal aborts', async () => {
    const { fetch, seen } = fakeFetch(citing);
    const c = client(fetch, { getKey: async () => KEY });
    for await (const _page of c.citing('10.1000/t', { pageSize: 1000 })) break;
    expect(seen).toHaveLength(1);
    const a = new AbortController();
    const it = c.citing('10.1000/t', { pageSize: 1000, signal: a.signal });
    await it.next();
    a.abort();
    await expect(it.next()).rejects.toThrow();
    expect(seen).toHaveLength(2);
  });

  it('pages references_to with the source-DOI filter', async () => {
    const { fetch, seen } = fakeFetch((req) => {
      const offset = Number(req.url.searchParams.get('offset'));
      const n = Math.max(0, Math.min(400, 900 - offset));
      return json({
        metadata: { totalReferenceCount: 900 },
        references: Array.from({ length: n }, (_, i) => ({ source: `10.2/${offset + i}`, target: '10.1000/t' })),
      });
    });
    const pages = [];
    for await (const p of client(fetch).referencesTo('10.1000/t', { pageSize: 400, sourceDois: ['10.2000/1'] }))
      pages.push(p);
    expect(pages.map((p) => p.references.length)).toEqual([400, 400, 100]);
    expect(seen[0]!.url.searchParams.getAll('source_doi[]')).toEqual(['10.2000/1']);
  });

  it('follows nextPage for author papers, using only its offset and limit', async () => {
    const { fetch, seen } = fakeFetch((req) => {
      const offset = Number(req.url.searchParams.get('offset'));
      const papers = Array.from({ length: offset < 100 ? 50 : 20 }, (_, i) => ({ doi: `10.1/${offset + i}` }));
      const nextPage =
        offset < 100 ? `https://elsewhere.example/authors/x/papers?offset=${offset + 50}&limit=50` : null;
      return json({ author: { id: 1 }, papers, totalPapers: 120, nextPage });
    });
    const offsets = [];
    for await (const p of client(fetch, { getKey: async () => KEY }).authorPapers('ada-lovelace-x1'))
      offsets.push(p.papers.length);
    expect(offsets).toEqual([50, 50, 20]);
    expect(seen.every((r) => r.url.host === 'api.test')).toBe(true);
    expect(seen.map((r) => r.url.searchParams.get('offset'))).toEqual(['0', '50', '100']);
    expect(nextPageParams('/authors/x/papers?offset=10&limit=5')).toEqual({ offset: 10, limit: 5 });
    expect(nextPageParams(null)).toBeNull();
  });

  it('pages an evidence search with the guessed parameter names', async () => {
    const { fetch, seen } = fakeFetch((req) => {
      const p = Number(req.url.searchParams.get('p'));
      return json({
        totalResults: 25,
        delay: 0,
        resultsPerPage: 10,
        from: (p - 1) * 10,
        results: Array.from({ length: p < 3 ? 10 : 5 }, () => ({})),
      });
    });
    const sizes = [];
    for await (const page of client(fetch, { getKey: async () => KEY }).evidenceSearch('grants', {
      q: 'malaria',
      filter: 'country:"US"',
      sort: 'awardAmount',
      direction: 'desc',
    }))
      sizes.push(page.results.length);
    expect(sizes).toEqual([10, 10, 5]);
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      p: '1',
      q: 'malaria',
      f: 'country:"US"',
      s: 'awardAmount',
      o: 'desc',
    });
  });

  it('pages the paper search until the count', async () => {
    const { fetch, seen } = fakeFetch((req) => {
      const offset = Number(req.url.searchParams.get('offset'));
      return json({ count: 45, hits: Array.from({ length: Math.min(20, 45 - offset) }, () => ({})) });
    });
    let hits = 0;
    for await (const page of client(fetch).search({ term: 'sleep', citation_types: ['contrasting'] }))
      hits += page.hits.length;
    expect(hits).toBe(45);
    expect(seen).toHaveLength(3);
    expect(seen[0]!.url.searchParams.getAll('citation_types')).toEqual(['contrasting']);
  });
});
