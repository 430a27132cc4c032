// The contract document itself: valid OpenAPI 3.1, refs resolve, and every operation Citewise needs
// is there with a stable operationId, a scope, its security and its error answers.
import { describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import {
  ASSISTANT_STEPS,
  CITATION_STYLES,
  CITATION_TYPES,
  SERVICE_LIMITS,
  SERVICE_SCOPES,
  TASK_STATUSES,
} from '../../../shared/service/index';
import {
  collectRefs,
  deref,
  isObject,
  listOperations,
  loadContract,
  resolvePointer,
  type Json,
  type JsonObject,
} from './contract';

const doc = loadContract();
const operations = listOperations(doc);
const byId = new Map(operations.map((o) => [o.operationId, o]));

// operationId, method, path, x-citewise-scope: the list the client and the local service build on.
const EXPECTED: Array<[string, string, string, string]> = [
  ['getJournalIndex', 'get', '/issn-sji', 'public'],
  ['getJournalIndexBulk', 'post', '/issn-sji-bulk', 'public'],
  ['getIssnEditorialNotices', 'get', '/issn-editorial-notices', 'public'],
  ['getPaper', 'get', '/papers/{doi}', 'public'],
  ['getPapers', 'post', '/papers', 'public'],
  ['getTally', 'get', '/tallies/{doi}', 'public'],
  ['getTallies', 'post', '/tallies', 'public'],
  ['getTalliesViaGet', 'get', '/tallies', 'public'],
  ['getAggregateTally', 'post', '/tallies/aggregate', 'public'],
  ['getAuthorPapers', 'get', '/authors/{author_slug}/papers', 'public'],
  ['getCitingCitations', 'get', '/api_partner/citations/citing/{doi}', 'citations'],
  ['getCitedByCitations', 'get', '/api_partner/citations/cited_by/{doi}', 'citations'],
  ['getReferencesTo', 'get', '/api_partner/references/references_to/{doi}', 'citations'],
  ['getReferencesFrom', 'get', '/api_partner/references/references_from/{doi}', 'citations'],
  ['createCollection', 'post', '/api_partner/collections/create', 'collections'],
  ['getCollection', 'get', '/api_partner/collections/{collection_slug}', 'collections'],
  ['pollAssistant', 'post', '/api_partner/assistant/poll', 'assistant'],
  ['getAssistantTask', 'get', '/api_partner/assistant/tasks/{task_id}', 'assistant'],
  ['cancelAssistantTask', 'get', '/api_partner/assistant/tasks/{task_id}/cancel', 'assistant'],
  ['submitReferenceCheck', 'post', '/reference_check', 'reference-check'],
  ['getReferenceCheckTask', 'get', '/reference_check/tasks/{task_id}', 'reference-check'],
  ['cancelReferenceCheckTask', 'get', '/reference_check/tasks/{task_id}/cancel', 'reference-check'],
  ['getReferenceCheckResultUrl', 'get', '/reference_check/tasks/{task_id}/result_url', 'reference-check'],
  ['search', 'get', '/search', 'public'],
  ['searchPatents', 'get', '/api_partner/evidence/patents', 'evidence-patents'],
  ['getPatentsSchema', 'get', '/api_partner/evidence/patents/schema', 'evidence-patents'],
  ['searchClinicalTrials', 'get', '/api_partner/evidence/clinical-trials', 'evidence-clinical-trials'],
  ['getClinicalTrialsSchema', 'get', '/api_partner/evidence/clinical-trials/schema', 'evidence-clinical-trials'],
  ['searchGrants', 'get', '/api_partner/evidence/grants', 'evidence-grants'],
  ['getGrantsSchema', 'get', '/api_partner/evidence/grants/schema', 'evidence-grants'],
  ['getGrant', 'get', '/api_partner/evidence/grants/{grant_id}', 'evidence-grants'],
  ['searchDevice510kSummaries', 'get', '/api_partner/evidence/device510k-summaries', 'evidence-device510k'],
  ['getDevice510kSummariesSchema', 'get', '/api_partner/evidence/device510k-summaries/schema', 'evidence-device510k'],
  ['getDevice510k', 'get', '/api_partner/evidence/device510k/{device_id}', 'evidence-device510k'],
  ['searchFaers', 'get', '/api_partner/evidence/faers', 'evidence-faers'],
  ['getFaersSchema', 'get', '/api_partner/evidence/faers/schema', 'evidence-faers'],
  ['getFaersReport', 'get', '/api_partner/evidence/faers/{report_id}', 'evidence-faers'],
  ['searchMaude', 'get', '/api_partner/evidence/maude', 'evidence-maude'],
  ['getMaudeSchema', 'get', '/api_partner/evidence/maude/schema', 'evidence-maude'],
  ['getMaudeFacets', 'post', '/api_partner/evidence/maude/facets', 'evidence-maude'],
];

const PUBLIC_SECURITY = [{}, { bearerAuth: [] }];
const TOKEN_SECURITY = [{ bearerAuth: [] }];
const UNCAPPED = ['getPaper', 'getTally', 'getAggregateTally'];

function effectiveSecurity(op: JsonObject): Json {
  return op.security ?? doc.security ?? [];
}

function jsonSchemaOf(holder: Json | undefined): Json | undefined {
  const resolved = deref(doc, holder);
  if (!isObject(resolved) || !isObject(resolved.content)) return undefined;
  const media = resolved.content['application/json'];
  return isObject(media) ? deref(doc, media.schema) : undefined;
}

describe('service contract document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://api.scite.ai' }]);
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('is checked by a validator that does catch a broken document', async () => {
    const broken = structuredClone(doc) as { paths: Record<string, Record<string, { operationId: string }>> };
    const papers = broken.paths['/papers']?.post;
    if (papers) papers.operationId = 'getPaper';
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('has no key left without a value (a YAML flow scalar split at a comma)', () => {
    const empty: string[] = [];
    const visit = (node: Json, at: string): void => {
      if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${at}/${i}`));
      else if (isObject(node)) {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'example' || key === 'examples') continue;
          if (value === null) empty.push(`${at}/${key}`);
          else visit(value, `${at}/${key}`);
        }
      }
    };
    visit(doc, '#');
    expect(empty).toEqual([]);
  });

  it('resolves every $ref', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(100);
    const broken = refs.filter(({ ref }) => resolvePointer(doc, ref) === undefined);
    expect(broken).toEqual([]);
  });

  it('has exactly the expected operations, with their methods, paths and scopes', () => {
    const actual = operations.map((o) => [o.operationId, o.method, o.path, o.op['x-citewise-scope']]);
    const sortById = (rows: unknown[][]) => [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(sortById(actual)).toEqual(sortById(EXPECTED));
  });

  it('gives every operation a unique camelCase operationId, a known scope and a declared tag', () => {
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const declaredTags = new Set((doc.tags as JsonObject[]).map((t) => t.name));
    for (const { operationId, op } of operations) {
      expect(operationId).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(SERVICE_SCOPES).toContain(op['x-citewise-scope']);
      const tags = op.tags as string[];
      expect(tags.length, operationId).toBeGreaterThan(0);
      for (const tag of tags) expect(declaredTags.has(tag), `${operationId} tag ${tag}`).toBe(true);
      expect(typeof op.summary, operationId).toBe('string');
    }
  });

  it('exports exactly the scopes the document uses', () => {
    const used = new Set(operations.map((o) => o.op['x-citewise-scope']));
    expect([...used].sort()).toEqual([...SERVICE_SCOPES].sort());
  });

  it('makes the token optional exactly on the public data operations and required elsewhere', () => {
    expect(doc.security).toEqual(TOKEN_SECURITY);
    const optional = [
      'getJournalIndex',
      'getJournalIndexBulk',
      'getIssnEditorialNotices',
      'getPaper',
      'getPapers',
      'getTally',
      'getTallies',
      'getTalliesViaGet',
      'getAggregateTally',
      'search',
    ];
    for (const { operationId, op } of operations) {
      expect(effectiveSecurity(op), operationId).toEqual(
        optional.includes(operationId) ? PUBLIC_SECURITY : TOKEN_SECURITY,
      );
    }
    const schemes = (doc.components as JsonObject).securitySchemes;
    expect(schemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
  });

  it('marks the uncapped operations', () => {
    const marked = operations.filter((o) => o.op['x-citewise-rate-limit'] !== undefined);
    expect(marked.map((o) => o.operationId).sort()).toEqual([...UNCAPPED].sort());
    for (const o of marked) expect(o.op['x-citewise-rate-limit']).toBe('uncapped');
  });

  it('declares a JSON success answer and the error answers of every operation', () => {
    for (const { operationId, op } of operations) {
      const responses = op.responses as JsonObject;
      const success = responses['200'] ?? responses['201'];
      expect(jsonSchemaOf(success), `${operationId} success`).toBeDefined();
      const required = effectiveSecurity(op) as JsonObject[];
      const expected = ['401', '429', '500'];
      if (required.every((r) => Object.keys(r).length > 0)) expected.push('403');
      if (op.parameters !== undefined || op.requestBody !== undefined) expected.push('422');
      for (const status of expected) expect(responses[status], `${operationId} ${status}`).toBeDefined();
    }
    for (const id of ['getPaper', 'getTally', 'getCitingCitations', 'getGrant', 'getDevice510k', 'getFaersReport']) {
      expect((byId.get(id)?.op.responses as JsonObject)['404'], id).toBeDefined();
    }
  });

  it('uses the FastAPI error shapes and sends Retry-After with 429', () => {
    const responses = (doc.components as JsonObject).responses as JsonObject;
    for (const name of ['Unauthorized', 'Forbidden', 'NotFound', 'TooManyRequests', 'InternalServerError']) {
      expect(jsonSchemaOf(responses[name]), name).toMatchObject({
        required: ['detail'],
        properties: { detail: { type: 'string' } },
      });
    }
    expect(jsonSchemaOf(responses.ValidationFailed)).toMatchObject({
      properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationErrorDetail' } } },
    });
    const tooMany = responses.TooManyRequests as JsonObject;
    expect(Object.keys(tooMany.headers as JsonObject)).toContain('Retry-After');
  });

  it('caps bulk bodies at 500 items and the aggregate at 100', () => {
    const bodyOf = (id: string) => {
      const op = byId.get(id)?.op;
      return jsonSchemaOf(op?.requestBody);
    };
    for (const id of ['getPapers', 'getTallies', 'getTalliesViaGet', 'getJournalIndexBulk']) {
      expect(bodyOf(id), id).toMatchObject({
        type: 'array',
        maxItems: SERVICE_LIMITS.bulkMaxItems,
        items: expect.anything(),
      });
    }
    expect(bodyOf('getAggregateTally')).toMatchObject({ type: 'array', maxItems: SERVICE_LIMITS.aggregateMaxItems });
  });

  it('limits the author papers page to 1..50 and offsets to >= 0', () => {
    const params = (byId.get('getAuthorPapers')?.op.parameters as JsonObject[]).map((p) => deref(doc, p) as JsonObject);
    const limit = params.find((p) => p.name === 'limit');
    const offset = params.find((p) => p.name === 'offset');
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: SERVICE_LIMITS.authorPapersMaxLimit });
    expect(offset?.schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
  });

  it('keeps the enumerations the client relies on in step with shared/service/index.ts', () => {
    const schemas = (doc.components as JsonObject).schemas as JsonObject;
    const enumOf = (name: string) => (schemas[name] as JsonObject).enum;
    expect(enumOf('TaskStatus')).toEqual([...TASK_STATUSES]);
    expect(enumOf('CitationStyle')).toEqual([...CITATION_STYLES]);
    expect(enumOf('AssistantStep')).toEqual([...ASSISTANT_STEPS]);
    expect(enumOf('CitationType')).toEqual([...CITATION_TYPES]);
    expect(enumOf('AssistantEffort')).toEqual(['minimal', 'low', 'medium', 'high']);
    expect(enumOf('AssistantAnswerLength')).toEqual(['short', 'medium', 'long']);
    expect(enumOf('AssistantRankBy')).toEqual([
      'all',
      'relevance',
      'date',
      'citations',
      'supporting-citations',
      'contrasting-citations',
      'journal-rank',
    ]);
    expect(enumOf('SearchSort')).toEqual([
      'date',
      'total_cited',
      'total_supported',
      'total_contrasted',
      'total_mentioned',
      'total_citing_publications',
    ]);
    expect(enumOf('SortDirection')).toEqual(['asc', 'desc']);
    const poll = schemas.AssistantPollRequest as JsonObject;
    expect((poll.properties as JsonObject).numReferences).toMatchObject({
      minimum: 0,
      maximum: SERVICE_LIMITS.assistantMaxReferences,
    });
  });

  it('names the Paper count objects and links as the real service does', () => {
    const paper = ((doc.components as JsonObject).schemas as JsonObject).Paper as JsonObject;
    const props = paper.properties as JsonObject;
    expect(props.tally).toEqual({ $ref: '#/components/schemas/Tally' });
    expect(props.citingTally).toEqual({ $ref: '#/components/schemas/CitingTally' });
    for (const name of ['pmPublicationType', 'preprintLinks', 'publicationLinks', 'editorialNotices', 'retracted'])
      expect(props[name], name).toBeDefined();
    const optional = [
      'abstract',
      'shortJournal',
      'keywords',
      'issue',
      'page',
      'tally',
      'citingTally',
      'pmPublicationType',
      'retracted',
    ];
    for (const name of optional) expect(paper.required as string[]).not.toContain(name);
  });
});
