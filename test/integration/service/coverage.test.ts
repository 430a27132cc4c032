// Every operation of the contract answers its success status with a body the contract accepts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serviceOperations, type OperationId } from '../../../shared/service/index';
import type { RunningService } from '../../service/server';
import { call, pollUntilDone, seen, startTestService, type CallOptions } from './helpers';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

it('drives every operation of the contract to success', async () => {
  const db = service.corpus.db;
  const doi = db.prepare('SELECT doi FROM papers WHERE t_citing > 0 AND c_cited > 0 LIMIT 1').pluck().get() as string;
  const issn = [...service.corpus.journals.values()][0]!.issn_print;
  const slug = db.prepare('SELECT slug FROM authors LIMIT 1').pluck().get() as string;
  const evidenceId = (dataset: string) =>
    db.prepare('SELECT id FROM evidence WHERE dataset = ? LIMIT 1').pluck().get(dataset) as string;
  const collection = await call<{ slug: string }>(service, 'createCollection', {
    body: { name: 'Coverage', dois: [doi] },
  });
  const assistant = await call<{ id: string }>(service, 'pollAssistant', {
    body: { userInput: 'coverage question about memory' },
  });
  await pollUntilDone(service, 'getAssistantTask', assistant.body.id);
  const form = new FormData();
  form.append('file', new Blob([`References\n1. doi:${doi}`]), 'refs.txt');
  const check = await call<{ id: string }>(service, 'submitReferenceCheck', { rawBody: { data: form } });
  await pollUntilDone(service, 'getReferenceCheckTask', check.body.id);
  const args: Partial<Record<OperationId, CallOptions>> = {
    getJournalIndex: { query: { issn } },
    getJournalIndexBulk: { body: [issn] },
    getIssnEditorialNotices: { query: { issn } },
    getPaper: { params: { doi } },
    getPapers: { body: [doi] },
    getTally: { params: { doi } },
    getTalliesViaGet: { body: [doi] },
    getTallies: { body: [doi] },
    getAggregateTally: { body: [doi] },
    getAuthorPapers: { params: { author_slug: slug } },
    getCitingCitations: { params: { doi } },
    getCitedByCitations: { params: { doi } },
    getReferencesTo: { params: { doi } },
    getReferencesFrom: { params: { doi } },
    getCollection: { params: { collection_slug: collection.body.slug } },
    cancelAssistantTask: { params: { task_id: assistant.body.id } },
    cancelReferenceCheckTask: { params: { task_id: check.body.id } },
    getReferenceCheckResultUrl: { params: { task_id: check.body.id } },
    search: { query: { term: 'memory' } },
    getGrant: { params: { grant_id: evidenceId('grants') } },
    getDevice510k: { params: { device_id: evidenceId('device510k-summaries') } },
    getFaersReport: { params: { report_id: evidenceId('faers') } },
    getMaudeFacets: { body: { qs: 'pump' } },
  };
  for (const id of Object.keys(serviceOperations) as OperationId[]) {
    if (
      id === 'createCollection' ||
      id === 'pollAssistant' ||
      id === 'submitReferenceCheck' ||
      id === 'getAssistantTask' ||
      id === 'getReferenceCheckTask'
    )
      continue;
    const res = await call(service, id, args[id] ?? {});
    expect(res.status, id).toBe(200);
  }
  const succeeded = [...seen.entries()]
    .filter(([, statuses]) => statuses.has(200) || statuses.has(201))
    .map(([id]) => id)
    .sort();
  expect(succeeded).toEqual(Object.keys(serviceOperations).sort());
});
