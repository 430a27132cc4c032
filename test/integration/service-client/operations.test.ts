// Every operation of the contract, through the client, against the local service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service';
import { serviceOperations, type OperationId } from '../../../shared/service';
import { service } from './helpers';

let svc: Awaited<ReturnType<typeof service>>;
let client: ServiceClient;
let doi: string;
let landmark: string;
let slug: string;
let issn: string;
let taskId: string;
let collectionSlug: string;
let refcheckId: string;

beforeAll(async () => {
  svc = await service();
  client = new ServiceClient({ baseUrl: () => svc.url, getKey: async () => svc.fullKey });
  const db = svc.corpus.db;
  doi = (db.prepare('SELECT doi FROM papers ORDER BY id LIMIT 1').get() as { doi: string }).doi;
  landmark = (
    db
      .prepare(
        'SELECT p.doi FROM citations c JOIN papers p ON p.id = c.target GROUP BY c.target ORDER BY count(*) DESC LIMIT 1',
      )
      .get() as { doi: string }
  ).doi;
  slug = (db.prepare('SELECT slug FROM authors ORDER BY id LIMIT 1').get() as { slug: string }).slug;
  issn = [...svc.corpus.journalsByIssn.keys()][0]!;
});

afterAll(async () => {
  client.close();
  await svc.close();
});

type Check = () => Promise<void>;

// `satisfies Record<OperationId, …>`: a new operation in the contract fails to compile here until it is tested.
const checks = {
  getJournalIndex: async () => expect(Array.isArray(await client.op.getJournalIndex({ query: { issn } }))).toBe(true),
  getJournalIndexBulk: async () => expect(await client.op.getJournalIndexBulk({ body: [issn] })).toHaveProperty(issn),
  getIssnEditorialNotices: async () =>
    expect((await client.op.getIssnEditorialNotices({ query: { issn } }))[0]!.issn).toBe(issn),
  getPaper: async () => expect((await client.op.getPaper({ path: { doi } })).doi).toBe(doi),
  getPapers: async () =>
    expect(Object.keys((await client.op.getPapers({ body: [doi.toUpperCase()] })).papers)).toEqual([doi]),
  getTally: async () => expect((await client.op.getTally({ path: { doi } })).doi).toBe(doi),
  getTalliesViaGet: async () => {
    // A body on GET cannot be sent by a Fetch-standard client; the client says so instead of failing obscurely.
    await expect(client.op.getTalliesViaGet({ body: [doi] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('getTallies'),
    });
  },
  getTallies: async () => expect((await client.op.getTallies({ body: [doi] })).tallies[doi]!.doi).toBe(doi),
  getAggregateTally: async () =>
    expect((await client.op.getAggregateTally({ body: [doi, landmark] })).total).toBeGreaterThan(0),
  getAuthorPapers: async () =>
    expect(
      (await client.op.getAuthorPapers({ path: { author_slug: slug }, query: { limit: 5 } })).papers.length,
    ).toBeGreaterThan(0),
  getCitingCitations: async () =>
    expect(
      (await client.op.getCitingCitations({ path: { doi: landmark }, query: { limit: 10, offset: 3000 } })).citations
        .length,
    ).toBe(10),
  getCitedByCitations: async () =>
    expect(
      Array.isArray((await client.op.getCitedByCitations({ path: { doi }, query: { papers: true } })).citations),
    ).toBe(true),
  getReferencesTo: async () =>
    expect(
      (await client.op.getReferencesTo({ path: { doi: landmark }, query: { limit: 5 } })).metadata.totalReferenceCount,
    ).toBeGreaterThan(0),
  getReferencesFrom: async () =>
    expect(Array.isArray((await client.op.getReferencesFrom({ path: { doi: landmark } })).references)).toBe(true),
  createCollection: async () => {
    const created = await client.op.createCollection({
      body: { name: 'Integration reading list', dois: [doi, landmark] },
    });
    collectionSlug = created.slug;
    expect(created.matchedDoiCount).toBe(2);
  },
  getCollection: async () =>
    expect((await client.op.getCollection({ path: { collection_slug: collectionSlug } })).slug).toBe(collectionSlug),
  pollAssistant: async () => {
    const task = await client.op.pollAssistant({
      body: { userInput: 'Does sleep improve memory consolidation?', numReferences: 3 },
    });
    taskId = task.id;
    expect(['PENDING', 'STARTED']).toContain(task.status);
  },
  getAssistantTask: async () =>
    expect((await client.op.getAssistantTask({ path: { task_id: taskId } })).id).toBe(taskId),
  cancelAssistantTask: async () => {
    await client.op.cancelAssistantTask({ path: { task_id: taskId } });
    expect((await client.op.getAssistantTask({ path: { task_id: taskId } })).status).toBe('CANCELLED');
  },
  submitReferenceCheck: async () => {
    const bib = `@article{a, title={x}, doi={${doi}}}\n@article{b, title={y}, doi={${landmark}}}\n`;
    refcheckId = (
      await client.op.submitReferenceCheck({
        query: {},
        file: { name: 'refs.bib', data: new Blob([bib], { type: 'text/plain' }) },
      })
    ).id;
    expect(refcheckId).toBeTruthy();
  },
  getReferenceCheckTask: async () =>
    expect(['PENDING', 'STARTED', 'SUCCESS']).toContain(
      (await client.op.getReferenceCheckTask({ path: { task_id: refcheckId } })).status,
    ),
  getReferenceCheckResultUrl: async () => {
    await client.waitForReferenceCheck(refcheckId, { pollInitialMs: 10 });
    expect((await client.op.getReferenceCheckResultUrl({ path: { task_id: refcheckId } })).reportUrl).toMatch(
      /^https?:/,
    );
  },
  cancelReferenceCheckTask: async () => {
    const id = await client.startReferenceCheck({
      file: { name: 'r.bib', data: new Blob([`@article{a, doi={${doi}}}`]) },
    });
    await client.op.cancelReferenceCheckTask({ path: { task_id: id } });
    expect((await client.op.getReferenceCheckTask({ path: { task_id: id } })).status).toBe('CANCELLED');
  },
  search: async () =>
    expect(
      (await client.op.search({ query: { term: 'memory', limit: 3, citation_types: ['contrasting'] } })).hits.length,
    ).toBeLessThanOrEqual(3),
  searchPatents: async () =>
    expect((await client.op.searchPatents({ query: { q: 'battery', p: 1 } })).results).toBeDefined(),
  getPatentsSchema: async () => expect((await client.op.getPatentsSchema({})).sortable.length).toBeGreaterThan(0),
  searchClinicalTrials: async () =>
    expect((await client.op.searchClinicalTrials({ query: { q: 'cancer' } })).totalResults).toBeGreaterThanOrEqual(0),
  getClinicalTrialsSchema: async () =>
    expect((await client.op.getClinicalTrialsSchema({})).filterable.length).toBeGreaterThan(0),
  searchGrants: async () =>
    expect((await client.op.searchGrants({ query: { s: 'awardAmount', o: 'desc' } })).results.length).toBeGreaterThan(
      0,
    ),
  getGrantsSchema: async () => expect((await client.op.getGrantsSchema({})).filterable.length).toBeGreaterThan(0),
  getGrant: async () => expect((await client.op.getGrant({ path: { grant_id: 'NSF-2000024' } })).id).toBeTruthy(),
  searchDevice510kSummaries: async () =>
    expect((await client.op.searchDevice510kSummaries({ query: {} })).results.length).toBeGreaterThan(0),
  getDevice510kSummariesSchema: async () =>
    expect((await client.op.getDevice510kSummariesSchema({})).sortable).toBeDefined(),
  getDevice510k: async () =>
    expect((await client.op.getDevice510k({ path: { device_id: 'K100031' } })).id).toBeTruthy(),
  searchFaers: async () => expect((await client.op.searchFaers({ query: { p: 2 } })).results.length).toBeGreaterThan(0),
  getFaersSchema: async () => expect((await client.op.getFaersSchema({})).filterable).toBeDefined(),
  getFaersReport: async () =>
    expect((await client.op.getFaersReport({ path: { report_id: '10000058' } })).id).toBeTruthy(),
  searchMaude: async () =>
    expect((await client.op.searchMaude({ query: { q: 'pump' } })).totalResults).toBeGreaterThanOrEqual(0),
  getMaudeSchema: async () => expect((await client.op.getMaudeSchema({})).filterable).toBeDefined(),
  getMaudeFacets: async () =>
    expect((await client.op.getMaudeFacets({ body: { qs: 'pump' } })).totalResults).toBeGreaterThanOrEqual(0),
} satisfies Record<OperationId, Check>;

describe('every operation of the contract', () => {
  it('has a check for each operation', () => {
    expect(Object.keys(checks).sort()).toEqual(Object.keys(serviceOperations).sort());
  });

  // In the table's order: later checks use what earlier ones created.
  for (const [op, check] of Object.entries(checks)) it(op, check);
});

describe('helpers against the local service', () => {
  it('pages citing past 3,000 and gets every statement once, in the UI vocabulary', async () => {
    const seen = new Set<string>();
    let total = 0;
    const types = new Set<string>();
    for await (const page of client.citing(landmark, { pageSize: 1500 })) {
      total = page.total;
      for (const c of page.citations) {
        seen.add(`${c.id}`);
        if (c.type) types.add(c.type);
      }
    }
    expect(total).toBeGreaterThan(3000);
    expect(seen.size).toBe(total);
    expect(types.has('contradicting')).toBe(false);
  });

  it("follows an author's nextPage links to the end", async () => {
    let papers = 0;
    let totalPapers = 0;
    for await (const page of client.authorPapers(slug, { pageSize: 2 })) {
      papers += page.papers.length;
      totalPapers = page.totalPapers;
    }
    expect(papers).toBe(totalPapers);
  });

  it('filters references_to by source DOI', async () => {
    const first = (await client.referencesTo(landmark, { pageSize: 5 }).next()).value!;
    const source = first.references[0]!.source;
    const pages = [];
    for await (const p of client.referencesTo(landmark, { sourceDois: [source] })) pages.push(p);
    expect(pages.flatMap((p) => p.references).every((r) => r.source.toLowerCase() === source.toLowerCase())).toBe(true);
  });

  it('runs an assistant task to SUCCESS with progress', async () => {
    const steps: string[] = [];
    const task = await client.runAssistant(
      { userInput: 'What limits lithium battery lifetime?' },
      { pollInitialMs: 5, onProgress: (p) => p.step && steps.push(p.step) },
    );
    expect(task.status).toBe('SUCCESS');
    expect(steps[0]).toBe('SCHEDULING_ASSISTANT');
    expect(steps.at(-1)).toBe('GENERATING_RESPONSE');
  });

  it('stops with TIMEOUT on a task the service does not know (PENDING forever)', async () => {
    await expect(client.waitForAssistant('no-such-task', { deadlineMs: 300, pollInitialMs: 20 })).rejects.toMatchObject(
      { code: 'TIMEOUT' },
    );
  });

  it('reports access per scope for a full and a limited key, and refuses an unknown one', async () => {
    const full = await client.checkKey(svc.fullKey);
    expect(full.valid).toBe(true);
    expect(full.access.every((a) => a.granted === true)).toBe(true);
    const limited = await client.checkKey(svc.publicKey);
    expect(limited.access.filter((a) => a.granted).map((a) => a.scope)).toEqual(['public']);
    const unknown = await client.checkKey('not-a-real-key');
    expect(unknown.valid).toBe(false);
  });
});
