// Bulk lookups: any number of DOIs or ISSNs, split 500 (100 for the aggregate), run with bounded
// concurrency, merged, and every identifier accounted for: unknown is not zero.
import { describe, expect, it } from 'vitest';
import { client, fakeFetch, json, KEY } from './fakes';

const dois = (n: number, prefix = 'a') => Array.from({ length: n }, (_, i) => `10.1000/${prefix}${i}`);
const tally = (doi: string, n: number) => ({
  doi,
  total: n,
  supporting: n,
  contradicting: 0,
  mentioning: 0,
  unclassified: 0,
  citingPublications: n,
});

describe('bulk helpers', () => {
  it('splits into requests of at most 500, merges, and reports unknown DOIs as unknown', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const { fetch, seen } = fakeFetch(async (req) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      const asked = req.body as string[];
      // The service knows every DOI except those ending in 7; it answers with upper-case keys sometimes.
      const known = asked.filter((d) => !d.endsWith('7'));
      return json({ tallies: Object.fromEntries(known.map((d, i) => [i % 2 ? d.toUpperCase() : d, tally(d, i % 3)])) });
    });
    const c = client(fetch, { getKey: async () => KEY, bulkConcurrency: 3 });
    const input = [...dois(1234), 'DOI:10.1000/A0', 'garbage'];
    const result = await c.tallies(input);
    expect(seen.map((r) => (r.body as string[]).length)).toEqual([500, 500, 234]);
    expect(maxInFlight).toBeLessThanOrEqual(3);
    const found = Object.keys(result.found);
    expect(found.length + result.unknown.length).toBe(1234);
    expect(result.unknown.every((d) => d.endsWith('7'))).toBe(true);
    expect(result.invalid).toEqual([{ input: 'garbage', reason: expect.any(String) }]);
    expect(result.failed).toEqual([]);
    // Zeros stay zeros, in the UI's words.
    const zero = result.found['10.1000/a0']!;
    expect(zero).toEqual({
      doi: '10.1000/a0',
      total: 0,
      supporting: 0,
      contrasting: 0,
      mentioning: 0,
      unclassified: 0,
      citingPublications: 0,
    });
    expect(zero).not.toHaveProperty('contradicting');
  });

  it('reports a chunk that fails for good with its DOIs and the error, keeping the others', async () => {
    const { fetch } = fakeFetch((req) => {
      const asked = req.body as string[];
      if (asked[0] === '10.1000/a500') return json({ detail: 'no' }, 403);
      return json({ papers: Object.fromEntries(asked.map((d) => [d, { doi: d }])) });
    });
    const result = await client(fetch, { getKey: async () => KEY }).papers(dois(1200));
    expect(Object.keys(result.found)).toHaveLength(700);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]!.ids).toHaveLength(500);
    expect(result.failed[0]!.error.code).toBe('FORBIDDEN');
  });

  it('sums the aggregate over requests of at most 100', async () => {
    const { fetch, seen } = fakeFetch((req) => {
      const n = (req.body as string[]).length;
      return json({ total: n, supporting: n, contradicting: 1, mentioning: 0, unclassified: 0 });
    });
    const result = await client(fetch).aggregateTally(dois(250));
    expect(seen.map((r) => (r.body as string[]).length)).toEqual([100, 100, 50]);
    expect(result.counts).toEqual({ total: 250, supporting: 250, contrasting: 3, mentioning: 0, unclassified: 0 });
    expect(result.dois).toBe(250);
  });

  it('looks up journals and editorial notices 500 ISSNs at a time; an ISSN without data is unknown', async () => {
    const issns = Array.from({ length: 600 }, (_, i) => {
      const digits = String(1000000 + i)
        .slice(0, 7)
        .split('')
        .map(Number);
      const sum = digits.reduce((a, d, k) => a + d * (8 - k), 0);
      const check = (11 - (sum % 11)) % 11;
      const s = digits.join('') + (check === 10 ? 'X' : String(check));
      return `${s.slice(0, 4)}-${s.slice(4)}`;
    });
    const { fetch, seen } = fakeFetch((req) => {
      const asked = req.url.searchParams.get('issn')!.split(',');
      return json(
        asked.map((issn, i) =>
          i % 2
            ? { issn }
            : {
                issn,
                notices: {
                  totalCorrections: 0,
                  totalErrata: 0,
                  totalExpressionOfConcerns: 0,
                  totalRetractions: 1,
                  totalWithdrawals: 0,
                },
              },
        ),
      );
    });
    const result = await client(fetch).editorialNotices(issns);
    expect(seen.map((r) => r.url.searchParams.get('issn')!.split(',').length)).toEqual([500, 100]);
    expect(Object.keys(result.found).length).toBe(300);
    expect(result.unknown.length).toBe(300);
  });

  it('cancels the whole lookup with CANCELLED', async () => {
    const { fetch } = fakeFetch(() => new Promise<Response>(() => undefined));
    const a = new AbortController();
    const p = client(fetch).papers(dois(2000), { signal: a.signal });
    setTimeout(() => a.abort(), 10);
    await expect(p).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
