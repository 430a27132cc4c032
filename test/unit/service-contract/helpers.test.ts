// The pure helpers of shared/service/index.ts.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type AssistantPollRequest,
  type AssistantTask,
  type Paper,
  type PathParams,
  type QueryParams,
  type ReferenceCheckScheduled,
  type RequestBody,
  type SuccessBody,
  type TalliesResponse,
  GUESSES,
  SERVICE_SCOPES,
  encodeDoiForPath,
  evidenceSchemaPath,
  fillPath,
  isServiceScope,
  isTerminalTaskStatus,
  serviceOperations,
} from '../../../shared/service/index';

describe('service contract helpers', () => {
  it('keeps DOI slashes literal and encodes the rest', () => {
    expect(encodeDoiForPath('10.1000/abc/def')).toBe('10.1000/abc/def');
    expect(encodeDoiForPath('10.1002/(SICI)1097-4636<1::AID>3.0.CO;2-#')).toBe(
      '10.1002/(SICI)1097-4636%3C1%3A%3AAID%3E3.0.CO%3B2-%23',
    );
    expect(encodeDoiForPath('10.1/a b?c')).toBe('10.1/a%20b%3Fc');
  });

  it('fills path templates from the operation table', () => {
    expect(fillPath(serviceOperations.getPaper.path, { doi: '10.1000/x.1' })).toBe('/papers/10.1000/x.1');
    expect(fillPath(serviceOperations.getAssistantTask.path, { task_id: 'a/b' })).toBe(
      '/api_partner/assistant/tasks/a%2Fb',
    );
    expect(fillPath(serviceOperations.cancelAssistantTask.path, { task_id: 't1' })).toBe(
      GUESSES.assistantCancelPath.replace('{task_id}', 't1'),
    );
    expect(() => fillPath('/papers/{doi}', {})).toThrow(/doi/);
  });

  it('builds evidence schema paths from the guessed template', () => {
    expect(evidenceSchemaPath('grants')).toBe(serviceOperations.getGrantsSchema.path);
    expect(evidenceSchemaPath('maude')).toBe(serviceOperations.getMaudeSchema.path);
  });

  it('recognises scopes and terminal statuses', () => {
    for (const scope of SERVICE_SCOPES) expect(isServiceScope(scope)).toBe(true);
    expect(isServiceScope('evidence')).toBe(false);
    expect(isServiceScope(1)).toBe(false);
    expect(isTerminalTaskStatus('STARTED')).toBe(false);
    expect(isTerminalTaskStatus('PENDING')).toBe(false);
    expect(isTerminalTaskStatus('CANCELLED')).toBe(true);
    expect(isTerminalTaskStatus('REVOKED')).toBe(true);
  });

  it('derives request and answer types per operation', () => {
    expectTypeOf<SuccessBody<'getPaper'>>().toEqualTypeOf<Paper>();
    expectTypeOf<SuccessBody<'getTallies'>>().toEqualTypeOf<TalliesResponse>();
    expectTypeOf<SuccessBody<'submitReferenceCheck'>>().toEqualTypeOf<ReferenceCheckScheduled>();
    expectTypeOf<SuccessBody<'pollAssistant'>>().toEqualTypeOf<AssistantTask>();
    expectTypeOf<RequestBody<'pollAssistant'>>().toEqualTypeOf<AssistantPollRequest>();
    expectTypeOf<RequestBody<'getTallies'>>().toEqualTypeOf<string[]>();
    expectTypeOf<PathParams<'getPaper'>>().toEqualTypeOf<{ doi: string }>();
    expectTypeOf<QueryParams<'searchGrants'>>().toHaveProperty(GUESSES.evidenceFilterParam);
    expectTypeOf<QueryParams<'searchGrants'>>().toHaveProperty(GUESSES.evidencePageParam);
    expectTypeOf<QueryParams<'getCitingCitations'>>().toHaveProperty(GUESSES.citingSourceDoiParam);
    expectTypeOf<AssistantPollRequest>().toHaveProperty(GUESSES.assistantEffortField);
    expect(serviceOperations.pollAssistant.method).toBe('post');
  });
});
