// Evidence datasets: the query language, filter strings, sorts, pages, highlighted values, schema
// discovery, detail records and MAUDE facets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GUESSES,
  type OperationId,
  type EvidenceSchemaResponse,
  type MaudeFacetsResponse,
} from '../../../shared/service/index';
import type { RunningService } from '../../service/server';
import { ftsQuery, parseFilter } from '../../service/routes/evidence';
import { call, startTestService, TOKENS } from './helpers';

let service: RunningService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

interface Envelope {
  totalResults: number;
  delay: number;
  resultsPerPage: number;
  from: number;
  results: Array<Record<string, unknown>>;
}
const F = GUESSES.evidenceFilterParam;
const P = GUESSES.evidencePageParam;
const O = GUESSES.evidenceSortDirectionParam;
const search = (op: OperationId, query: Record<string, string | number>) => call<Envelope>(service, op, { query });

describe('evidence query language', () => {
  it('turns AND, OR, NOT and phrases into a full-text expression', () => {
    expect(ftsQuery('infusion pump').match).toBe('"infusion"* AND "pump"*');
    expect(ftsQuery('"infusion pump" OR stapler').match).toBe('"infusion pump" OR "stapler"*');
    expect(ftsQuery('pump NOT leak').match).toBe('"pump"* NOT "leak"*');
    expect(ftsQuery('NOT leak')).toMatchObject({ match: null, negate: '"leak"*' });
    expect(ftsQuery('(a OR b) AND c').match).toBe('( "a"* OR "b"* ) AND "c"*');
    expect(ftsQuery('AND OR').match).toBeNull();
    expect(parseFilter('country:"US" agency:"National Science Foundation" phase:I')).toEqual([
      ['country', 'US'],
      ['agency', 'National Science Foundation'],
      ['phase', 'I'],
    ]);
  });
});

describe('evidence searches', () => {
  it('every dataset answers the common envelope and pages from 1', async () => {
    for (const op of [
      'searchPatents',
      'searchClinicalTrials',
      'searchGrants',
      'searchDevice510kSummaries',
      'searchFaers',
      'searchMaude',
    ] as const) {
      const one = await search(op, {});
      expect(one.status, op).toBe(200);
      expect(one.body.totalResults, op).toBeGreaterThan(100);
      expect(one.body.results, op).toHaveLength(one.body.resultsPerPage);
      expect(one.body.from).toBe(0);
      const two = await search(op, { [P]: 2 });
      expect(two.body.from, op).toBe(two.body.resultsPerPage);
      expect(JSON.stringify(two.body.results[0])).not.toBe(JSON.stringify(one.body.results[0]));
    }
    expect((await search('searchGrants', { [P]: 0 })).status).toBe(422);
  });

  it('matches AND, OR, NOT and phrases, with highlighted values', async () => {
    const pump = await search('searchMaude', { q: 'infusion pump' });
    const both = await search('searchMaude', { q: '"infusion pump" OR oximeter' });
    const not = await search('searchMaude', { q: '"infusion pump" NOT malfunction' });
    expect(pump.body.totalResults).toBeGreaterThan(0);
    expect(both.body.totalResults).toBeGreaterThan(pump.body.totalResults);
    expect(not.body.totalResults).toBeLessThan(pump.body.totalResults);
    expect(not.body.results.every((r) => r.event_type !== 'Malfunction')).toBe(true);
    const allButPumps = await search('searchMaude', { q: 'NOT "infusion pump"' });
    const all = await search('searchMaude', {});
    expect(allButPumps.body.totalResults + pump.body.totalResults).toBe(all.body.totalResults);
    const patents = await search('searchPatents', { q: 'method' });
    const title = (patents.body.results[0]!.patents as Array<Record<string, { highlighted: string; name: string }>>)[0]!
      .title!;
    expect(title.highlighted).toContain('<strong class="highlight">');
    expect(title.name).not.toContain('<');
  });

  it('filters with field:"value" pairs and rejects unknown fields', async () => {
    const us = await search('searchGrants', { [F]: 'agency:"National Science Foundation"' });
    expect(us.body.totalResults).toBeGreaterThan(0);
    for (const r of us.body.results) {
      const g = (r.grants as Array<Record<string, { name: string }>>)[0]!;
      expect(g.agency!.name).toBe('National Science Foundation');
    }
    const two = await search('searchGrants', { [F]: 'agency:"National Science Foundation" country:"US"' });
    expect(two.body.totalResults).toBe(us.body.totalResults);
    const or = await search('searchMaude', { [F]: 'event_type:"Death" event_type:"Injury"' });
    expect(or.body.results.every((r) => r.event_type === 'Death' || r.event_type === 'Injury')).toBe(true);
    const bad = await call<{ detail: Array<{ loc: unknown[]; msg: string }> }>(service, 'searchGrants', {
      query: { [F]: 'colour:"red"' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]!.loc).toEqual(['query', F]);
  });

  it('sorts by a field in either direction; direction is ignored for _relevance', async () => {
    const amounts = (e: Envelope) =>
      e.results.map((r) => Number((r.grants as Array<Record<string, { name: string }>>)[0]!.awardAmount!.name));
    const desc = await search('searchGrants', { s: 'awardAmount', [O]: 'desc' });
    expect(amounts(desc.body)).toEqual([...amounts(desc.body)].sort((a, b) => b - a));
    const asc = await search('searchGrants', { s: 'awardAmount', [O]: 'asc' });
    expect(amounts(asc.body)).toEqual([...amounts(asc.body)].sort((a, b) => a - b));
    const relA = await search('searchGrants', { q: 'mechanisms', s: '_relevance', [O]: 'asc' });
    const relD = await search('searchGrants', { q: 'mechanisms', s: '_relevance', [O]: 'desc' });
    expect(relA.body.results).toEqual(relD.body.results);
    const trials = await search('searchClinicalTrials', { s: 'dates.startDate', [O]: 'asc' });
    const starts = trials.body.results.map((r) => (r.dates as { startDate: string }).startDate);
    expect(starts).toEqual([...starts].sort());
    expect((await search('searchGrants', { s: 'colour' })).status).toBe(422);
    expect((await search('searchFaers', { s: 'colour' })).status).toBe(422);
    const faers = await search('searchFaers', { s: 'receive_date', [O]: 'desc' });
    const dates = faers.body.results.map((r) => r.receive_date as string);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('clinical trials carry reported events; 510(k) summaries carry attachments and pages', async () => {
    const trials = await search('searchClinicalTrials', { [F]: 'hasResults:"Yes"' });
    const events = trials.body.results[0]!.reportedEvents as {
      groupList: unknown[];
      events: Array<{ counts: unknown[] }>;
    };
    expect(events.groupList.length).toBe(2);
    expect(events.events[0]!.counts.length).toBe(2);
    const k = await search('searchDevice510kSummaries', { q: 'biocompatibility' });
    const att = (
      k.body.results[0]!.attachments as Array<{ pages: unknown[]; pagesTotal: number; attachment: { content: string } }>
    )[0]!;
    expect(att.pages).toHaveLength(att.pagesTotal);
    expect(att.attachment.content).toMatch(/510\(k\) Summary/);
  });

  it('each dataset needs its own scope', async () => {
    expect((await call(service, 'searchPatents', { token: TOKENS.patents })).status).toBe(200);
    expect((await call(service, 'searchMaude', { token: TOKENS.patents })).status).toBe(403);
  });
});

describe('schema, detail and facets', () => {
  it('lists filterable and sortable fields per dataset', async () => {
    for (const op of [
      'getPatentsSchema',
      'getClinicalTrialsSchema',
      'getGrantsSchema',
      'getDevice510kSummariesSchema',
      'getFaersSchema',
      'getMaudeSchema',
    ] as const) {
      const res = await call<EvidenceSchemaResponse>(service, op);
      expect(res.body.filterable.length, op).toBeGreaterThan(2);
      expect(res.body.sortable[0], op).toBe('_relevance');
    }
    const grants = await call<EvidenceSchemaResponse>(service, 'getGrantsSchema');
    expect(grants.body.filterable.find((f) => f.name === 'agency')!.values).toContain('National Science Foundation');
  });

  it('answers grant, 510(k) and FAERS records by id, and 404 for unknown ids', async () => {
    const grantId = service.corpus.db
      .prepare("SELECT id FROM evidence WHERE dataset = 'grants' LIMIT 1")
      .pluck()
      .get() as string;
    const grant = await call<Record<string, unknown>>(service, 'getGrant', { params: { grant_id: grantId } });
    expect(grant.body).toMatchObject({ id: grantId });
    expect(typeof grant.body.title).toBe('string');
    const k = service.corpus.db
      .prepare("SELECT id FROM evidence WHERE dataset = 'device510k-summaries' LIMIT 1")
      .pluck()
      .get() as string;
    expect(
      (await call<Record<string, unknown>>(service, 'getDevice510k', { params: { device_id: k } })).body,
    ).toMatchObject({ id: k, kNumber: k });
    const f = service.corpus.db
      .prepare("SELECT id FROM evidence WHERE dataset = 'faers' LIMIT 1")
      .pluck()
      .get() as string;
    expect(
      (await call<Record<string, unknown>>(service, 'getFaersReport', { params: { report_id: f } })).body,
    ).toMatchObject({ id: f });
    expect((await call(service, 'getGrant', { params: { grant_id: 'nope' } })).status).toBe(404);
    expect((await call(service, 'getDevice510k', { params: { device_id: 'nope' } })).status).toBe(404);
    expect((await call(service, 'getFaersReport', { params: { report_id: 'nope' } })).status).toBe(404);
  });

  it('counts MAUDE facets for a query and filter without records', async () => {
    const res = await call<MaudeFacetsResponse>(service, 'getMaudeFacets', {
      body: { qs: 'pump', fs: 'event_type:"Malfunction"', whitelist: ['event_type', 'manufacturer_name'] },
    });
    expect(res.body.exact).toBe(true);
    const facets = res.body.facets as Record<string, Array<{ key: string; docCount: number }>>;
    expect(Object.keys(facets)).toEqual(['event_type', 'manufacturer_name']);
    expect(facets.event_type).toEqual([{ key: 'Malfunction', docCount: res.body.totalResults }]);
    expect(facets.manufacturer_name!.reduce((n, b) => n + b.docCount, 0)).toBe(res.body.totalResults);
    const search_ = await search('searchMaude', { q: 'pump', [F]: 'event_type:"Malfunction"' });
    expect(search_.body.totalResults).toBe(res.body.totalResults);
    expect((await call(service, 'getMaudeFacets', { body: { fs: 'x' } })).status).toBe(422);
    expect((await call(service, 'getMaudeFacets', { body: { qs: '', whitelist: ['colour'] } })).status).toBe(422);
  });
});
