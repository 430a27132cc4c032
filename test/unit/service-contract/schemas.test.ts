// The component schemas compile under Ajv (JSON Schema 2020-12, strict), the document's own
// examples validate, responses stay open to new fields, and request bodies stay exact.
import { describe, expect, it } from 'vitest';
import {
  createSchemaValidator,
  deref,
  isObject,
  listOperations,
  loadContract,
  type Json,
  type JsonObject,
} from './contract';

const doc = loadContract();
const validator = createSchemaValidator(doc);
const schemas = (doc.components as JsonObject).schemas as JsonObject;

function valid(name: string, value: unknown): boolean {
  return validator.get(name)(value) === true;
}

function errorsOf(name: string, value: unknown): string {
  const validate = validator.get(name);
  validate(value);
  return JSON.stringify(validate.errors);
}

const tally = {
  doi: '10.1000/a',
  total: 5,
  supporting: 1,
  contradicting: 1,
  mentioning: 3,
  unclassified: 0,
  citingPublications: 4,
};
const paper = {
  doi: '10.1000/a',
  id: 7,
  title: 'A title',
  slug: 'a-title-Xy1',
  authors: [
    {
      authorName: 'B. Writer',
      family: 'Writer',
      given: 'B.',
      authorSlug: 'b-writer-Q1',
      authorSequenceNumber: 1,
      authorID: '12',
    },
  ],
  journal: 'Journal',
  journalSlug: 'jrnl',
  publisher: 'Publisher',
  memberId: 1,
  issns: ['1234-5679'],
  volume: '1',
  year: 2001,
  type: 'journal-article',
  normalizedTypes: ['article'],
  editorialNotices: [
    { doi: '10.1000/a', status: 'Retracted', date: '2020-1-2', noticeDoi: '10.1000/a.retraction', urls: [] },
  ],
  preprintLinks: [],
  publicationLinks: [{ publishedDoi: '10.1000/b' }],
};

describe('component schemas', () => {
  it('all compile with Ajv 2020 in strict mode', () => {
    expect(validator.names.length).toBe(Object.keys(schemas).length);
    for (const name of validator.names) expect(() => validator.get(name), name).not.toThrow();
  });

  it('accept their own examples', () => {
    for (const [name, schema] of Object.entries(schemas)) {
      if (!isObject(schema) || !Array.isArray(schema.examples)) continue;
      for (const example of schema.examples) {
        if (isObject(example) || Array.isArray(example))
          expect(valid(name, example), `${name}: ${errorsOf(name, example)}`).toBe(true);
      }
    }
  });

  it('accept the request and response examples of the operations', () => {
    const pairs: Array<{ where: string; schema: Json; example: Json }> = [];
    const collect = (where: string, holder: Json | undefined) => {
      const resolved = deref(doc, holder);
      if (!isObject(resolved) || !isObject(resolved.content)) return;
      for (const [type, media] of Object.entries(resolved.content)) {
        if (isObject(media) && media.example !== undefined && media.schema !== undefined)
          pairs.push({ where: `${where} ${type}`, schema: media.schema, example: media.example });
      }
    };
    for (const { operationId, op } of listOperations(doc)) {
      collect(`${operationId} request`, op.requestBody);
      for (const [status, response] of Object.entries(op.responses as JsonObject))
        collect(`${operationId} ${status}`, response);
    }
    expect(pairs.length).toBeGreaterThan(10);
    for (const { where, schema, example } of pairs) {
      const validate = validator.compileInline(schema);
      expect(validate(example), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('accept a paper as the real service sends it, including fields it adds later', () => {
    expect(valid('Paper', paper), errorsOf('Paper', paper)).toBe(true);
    expect(
      valid('Paper', {
        ...paper,
        tally,
        citingTally: {
          sourceDoi: '10.1000/a',
          total: 1,
          supporting: 0,
          contradicting: 0,
          mentioning: 1,
          unclassified: 0,
          numCitedPublications: 30,
        },
        somethingNew: { x: 1 },
      }),
    ).toBe(true);
    expect(valid('PapersResponse', { papers: { '10.1000/a': paper } })).toBe(true);
  });

  it('reject a paper without a DOI, a tally with a negative count and an unknown citation type', () => {
    const { doi: _doi, ...withoutDoi } = paper;
    expect(valid('Paper', withoutDoi)).toBe(false);
    expect(valid('Tally', { ...tally, supporting: -1 })).toBe(false);
    expect(valid('Citation', { id: 1, source: '10.1/a', target: '10.1/b', type: 'contrasting' })).toBe(false);
    expect(
      valid('Citation', {
        id: 1,
        source: '10.1/a',
        target: '10.1/b',
        type: 'contradicting',
        selfCites: [{ type: 'SHAREDAUTHOR', family: 'F', given: 'G' }],
      }),
    ).toBe(true);
  });

  it('keep request bodies exact', () => {
    expect(
      valid('AssistantPollRequest', {
        userInput: 'q?',
        effort: 'high',
        citationStyle: 'vancouver',
        numReferences: 1000,
      }),
    ).toBe(true);
    expect(valid('AssistantPollRequest', { userInput: 'q?', numReferences: 1001 })).toBe(false);
    expect(valid('AssistantPollRequest', { userInput: 'q?', reasoningEffort: 'high' })).toBe(false);
    expect(valid('AssistantPollRequest', { userInput: 'q?', citationStyle: 'turabian' })).toBe(false);
    expect(
      valid('CollectionCreateRequest', { name: 'n', dois: ['10.1/a'], query: { term: 't', hasRetraction: true } }),
    ).toBe(true);
    expect(valid('CollectionCreateRequest', { name: 'n', query: { term: 't', has_retraction: true } })).toBe(false);
    expect(valid('MaudeFacetsRequest', { qs: 'pump', fs: '', whitelist: ['a'] })).toBe(true);
    expect(valid('MaudeFacetsRequest', { qs: 'pump', extra: 1 })).toBe(false);
    expect(
      valid(
        'DoiList',
        Array.from({ length: 500 }, (_, i) => `10.1/${i}`),
      ),
    ).toBe(true);
    expect(
      valid(
        'DoiList',
        Array.from({ length: 501 }, (_, i) => `10.1/${i}`),
      ),
    ).toBe(false);
  });

  it('describe tasks with the six statuses and the assistant steps', () => {
    const task = {
      id: 't1',
      status: 'STARTED',
      info: { step: 'RETRIEVING_PRIMARY_SOURCES', stepNumber: 4 },
      usage: { used: 1, max: 10 },
    };
    expect(valid('AssistantTask', task), errorsOf('AssistantTask', task)).toBe(true);
    expect(valid('AssistantTask', { ...task, status: 'RUNNING' })).toBe(false);
    expect(valid('AssistantTask', { ...task, info: { step: 'THINKING' } })).toBe(false);
    const done = {
      id: 't1',
      status: 'SUCCESS',
      result: {
        sessionId: 3,
        turns: [
          { role: 'user', content: 'q?' },
          {
            role: 'assistant',
            content: 'Yes [1].',
            structuredResponse: null,
            searchStrategy: null,
            warning: null,
            model: null,
            settings: null,
            publicationsConsulted: null,
            references: [
              {
                doi: '10.1/a',
                type: 'citation_statement',
                patent: null,
                refCheckId: null,
                included: true,
                paper: {
                  doi: '10.1/a',
                  tally: { total: 1, supporting: 1, contradicting: 0, mentioning: 0, unclassified: 0 },
                  authors: [{ authorName: 'A', authorSequenceNumber: '1' }],
                },
              },
            ],
          },
        ],
      },
    };
    expect(valid('AssistantTask', done), errorsOf('AssistantTask', done)).toBe(true);
    for (const status of ['PENDING', 'STARTED', 'SUCCESS', 'FAILURE', 'REVOKED', 'CANCELLED'])
      expect(valid('ReferenceCheckTask', { status })).toBe(true);
    const checked = {
      status: 'SUCCESS',
      result: {
        metadata: { title: 'T', authors: [{ family: 'F', given: 'G' }] },
        filetype: 'pdf',
        citations: [{ target: '10.1/b', snippet: 'text <cite data-doi="10.1/b">1</cite>', refLocation: 'b1/1' }],
      },
      overallTally: { total: 1, supporting: 0, contradicting: 0, mentioning: 1, unclassified: 0 },
    };
    expect(valid('ReferenceCheckTask', checked), errorsOf('ReferenceCheckTask', checked)).toBe(true);
  });

  it('describe the evidence envelopes and the MAUDE facets', () => {
    const hv = { id: 'x', name: 'X', highlighted: '<strong class="highlight">X</strong>' };
    const grants = {
      totalResults: 1,
      delay: 12,
      resultsPerPage: 10,
      from: 0,
      results: [
        {
          slug: 'g',
          dataset: 'grants',
          uid: 'u',
          grantsTotal: 1,
          grants: [{ title: hv, abstract: null, tags: [hv], awardStartDate: '2020-01-01' }],
        },
      ],
    };
    expect(valid('GrantSearchResponse', grants), errorsOf('GrantSearchResponse', grants)).toBe(true);
    expect(valid('GrantSearchResponse', { ...grants, from: undefined })).toBe(false);
    const trials = {
      totalResults: 1,
      delay: 1,
      resultsPerPage: 10,
      from: 0,
      results: [
        { title: hv, description: null, briefDescription: 'plain', sponsors: [hv], dates: { startDate: '2020-01-01' } },
      ],
    };
    expect(valid('ClinicalTrialSearchResponse', trials), errorsOf('ClinicalTrialSearchResponse', trials)).toBe(true);
    expect(
      valid('MaudeFacetsResponse', { exact: true, facets: { event_type: { Malfunction: 3 } }, totalResults: 3 }),
    ).toBe(true);
    expect(valid('EvidenceSchemaResponse', { filterable: [{ name: 'country' }], sortable: ['_relevance'] })).toBe(true);
    expect(valid('IssnEditorialNotices', { issn: '2049-3630' })).toBe(true);
    expect(
      valid('JournalIndexBulkResponse', {
        '1234-5679': [{ issns: ['1234-5679'], journal: 'J', journalSlug: 'j', relativeYear: '2020', sjiTwoYears: 0.9 }],
      }),
    ).toBe(true);
  });

  it('describe FastAPI errors', () => {
    expect(valid('HttpError', { detail: 'Not found' })).toBe(true);
    expect(
      valid('ValidationError', { detail: [{ loc: ['body', 0], msg: 'field required', type: 'value_error.missing' }] }),
    ).toBe(true);
    expect(valid('ValidationError', { detail: 'oops' })).toBe(false);
  });
});
