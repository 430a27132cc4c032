// The assistant task lifecycle and its answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSISTANT_STEPS, GUESSES, type AssistantTask, type AssistantSession } from '../../../shared/service/index';
import type { RunningService } from '../../service/server';
import { call, pollUntilDone, startTestService, TOKENS } from './helpers';

let service: RunningService;

beforeAll(async () => {
  service = await startTestService({ usageMax: 1000 });
});
afterAll(() => service.close());

async function ask(
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<{ task: AssistantTask; steps: string[]; statuses: string[] }> {
  const start = await call<AssistantTask>(service, 'pollAssistant', { body, headers });
  expect(start.status).toBe(200);
  const steps: string[] = [];
  const statuses: string[] = [start.body.status];
  const task = await pollUntilDone<AssistantTask>(service, 'getAssistantTask', start.body.id, 20, (t) => {
    statuses.push(t.status);
    if (t.status === 'STARTED') steps.push(t.info!.step!);
  });
  return { task, steps, statuses };
}

function markers(content: string): number[] {
  return [...content.split('\n\nReferences')[0]!.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
}

describe('assistant tasks', () => {
  it('goes PENDING → STARTED through the steps in order → SUCCESS with cited references', async () => {
    const { task, steps, statuses } = await ask({
      userInput: 'Does sleep deprivation impair working memory in older adults?',
      numReferences: 5,
      answerLength: 'medium',
    });
    expect(statuses[0]).toBe('PENDING');
    expect(steps).toEqual(ASSISTANT_STEPS.filter((s) => s !== 'RETRIEVING_UPLOADED_DOCUMENTS'));
    expect(task.status).toBe('SUCCESS');
    const session = task.result!;
    const answer = session.turns[session.turns.length - 1]!;
    expect(answer.role).toBe('assistant');
    expect(session.turns[session.turns.length - 2]).toMatchObject({
      role: 'user',
      content: 'Does sleep deprivation impair working memory in older adults?',
    });
    const refs = answer.references!;
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.length).toBeLessThanOrEqual(5);
    const used = new Set(markers(answer.content));
    expect([...used].sort((a, b) => a - b)).toEqual(refs.map((_, i) => i + 1));
    for (const r of refs) {
      expect(r.doi).toBeTruthy();
      expect(['abstract', 'citation_statement']).toContain(r.type);
      expect(r.texts!.length).toBeGreaterThan(0);
      expect(r.paper!.doi).toBe(r.doi);
    }
    const report = await fetch(refs[0]!.link!);
    expect(report.status).toBe(200);
    expect(await report.text()).toContain(refs[0]!.doi!);
    // The passages come from the corpus and are about the question.
    expect(refs.some((r) => /sleep|memory|working/i.test(`${r.answer} ${r.title}`))).toBe(true);
    expect(task.usage).toMatchObject({ max: 1000 });
  });

  it('shows progress while STARTED: searches, publications consulted and partial text', async () => {
    const start = await call<AssistantTask>(service, 'pollAssistant', {
      body: {
        userInput: 'tumour mutational burden and immunotherapy response',
        [GUESSES.assistantEffortField]: 'high',
      },
    });
    const infos: NonNullable<AssistantTask['info']>[] = [];
    await pollUntilDone<AssistantTask>(
      service,
      'getAssistantTask',
      start.body.id,
      20,
      (t) => t.info && infos.push(t.info),
    );
    const byStep = new Map(infos.map((i) => [i.step, i]));
    expect(byStep.get('EXECUTING_SEARCHES')!.searches!.length).toBeGreaterThanOrEqual(2);
    expect(byStep.get('EXECUTING_SEARCHES')!.currentSearch).toBeTruthy();
    expect(byStep.get('RETRIEVING_PRIMARY_SOURCES')!.publicationsConsulting!.length).toBeGreaterThan(0);
    expect(byStep.get('GENERATING_RESPONSE')!.response!.length).toBeGreaterThan(0);
    expect(infos.map((i) => i.stepNumber)).toEqual(infos.map((_, k) => k + 1));
  });

  it('adds RETRIEVING_UPLOADED_DOCUMENTS only when reference checks are given', async () => {
    const { steps, task } = await ask({
      userInput: 'ocean heat uptake',
      referenceChecks: ['9a0b5f8e-1111-4222-8333-444455556666'],
    });
    expect(steps).toEqual([...ASSISTANT_STEPS]);
    expect(task.result!.hasUploadedReferences).toBe(true);
  });

  it('honours numReferences, yearFrom/yearTo, dois, journals, topics and abstractsOnly', async () => {
    const ref = (t: AssistantTask) => t.result!.turns.at(-1)!.references!;
    const years = await ask({
      userInput: 'arterial stiffness and blood pressure',
      numReferences: 8,
      yearFrom: '2015',
      yearTo: '2020',
    });
    expect(ref(years.task).length).toBeLessThanOrEqual(8);
    expect(ref(years.task).every((r) => r.paper!.year! >= 2015 && r.paper!.year! <= 2020)).toBe(true);
    const dois = service.corpus.db
      .prepare('SELECT doi FROM papers WHERE field = 1 AND abstract IS NOT NULL LIMIT 3')
      .pluck()
      .all() as string[];
    const only = await ask({ userInput: 'What do these papers find about survival?', dois });
    expect(ref(only.task).every((r) => dois.includes(r.doi!))).toBe(true);
    const topics = await ask({
      userInput: 'effects of warming',
      topics: ['Ecology'],
      abstractsOnly: true,
      numReferences: 6,
    });
    expect(ref(topics.task).length).toBeGreaterThan(0);
    expect(ref(topics.task).every((r) => r.type === 'abstract')).toBe(true);
    const journal = [...service.corpus.journals.values()].find((j) => j.field === 5)!;
    const byJournal = await ask({ userInput: 'adversarial robustness of models', journals: [journal.name] });
    expect(ref(byJournal.task).every((r) => r.paper!.journal === journal.name)).toBe(true);
    const none = await ask({ userInput: 'working memory', numReferences: 0 });
    expect(ref(none.task)).toEqual([]);
    expect(markers(none.task.result!.turns.at(-1)!.content)).toEqual([]);
  });

  it('ranks by date or citations when asked, and formats the reference list in the citation style', async () => {
    const byDate = await ask({ userInput: 'perovskite solar cell stability', rankBy: 'date', numReferences: 6 });
    const years = byDate.task.result!.turns.at(-1)!.references!.map((r) => r.paper!.year!);
    expect(years).toEqual([...years].sort((a, b) => b - a));
    const byCites = await ask({ userInput: 'perovskite solar cell stability', rankBy: 'citations', numReferences: 6 });
    const cites = byCites.task.result!.turns.at(-1)!.references!.map((r) => r.paper!.tally!.citingPublications!);
    expect(cites).toEqual([...cites].sort((a, b) => b - a));
    const answer = async (answerLength: string) =>
      (await ask({ userInput: 'perovskite solar cell stability', answerLength, numReferences: 10 })).task
        .result!.turns.at(-1)!
        .content.split('\n\nReferences')[0]!;
    const [short, long] = [await answer('short'), await answer('long')];
    expect(short.split(/[.!?] /).length).toBeLessThan(long.split(/[.!?] /).length);
    expect(new Set(markers(short))).toEqual(new Set(markers(long)));
    const bib = await ask({ userInput: 'perovskite solar cell stability', citationStyle: 'bibtex', numReferences: 2 });
    expect(bib.task.result!.turns.at(-1)!.content).toMatch(/@article\{/);
    const apa = await ask({
      userInput: 'perovskite solar cell stability',
      citationStyle: 'apa',
      numReferences: 2,
      answerLength: 'short',
    });
    expect(apa.task.result!.turns.at(-1)!.content).toMatch(/\(\d{4}\)\. .+ https:\/\/doi\.org\//);
  });

  it('continues a saved session through sessionId, and a conversation through turns', async () => {
    const first = await ask({
      userInput: 'Does aerobic exercise improve hippocampal neurogenesis?',
      saveSession: true,
    });
    const sessionId = first.task.result!.sessionId!;
    const second = await ask({ userInput: 'And in older adults?', sessionId });
    const s: AssistantSession = second.task.result!;
    expect(s.sessionId).toBe(sessionId);
    expect(s.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(s.turns[2]!.content).toBe('And in older adults?');
    const viaTurns = await ask({ userInput: 'What about sleep?', turns: first.task.result!.turns });
    expect(viaTurns.task.result!.turns).toHaveLength(4);
  });

  it('cancels a running task, fails on an injected fault, and answers PENDING for an unknown id', async () => {
    const start = await call<AssistantTask>(service, 'pollAssistant', { body: { userInput: 'glacier mass balance' } });
    const cancel = await call<AssistantTask>(service, 'cancelAssistantTask', { params: { task_id: start.body.id } });
    expect(cancel.status).toBe(200);
    expect(
      (await call<AssistantTask>(service, 'getAssistantTask', { params: { task_id: start.body.id } })).body.status,
    ).toBe('CANCELLED');
    const failed = await ask({ userInput: 'glacier mass balance' }, { 'x-citewise-fault': 'task-failure' });
    expect(failed.task.status).toBe('FAILURE');
    expect(failed.task.error).toMatch(/failed/);
    expect(
      (await call<AssistantTask>(service, 'getAssistantTask', { params: { task_id: 'no-such-task' } })).body.status,
    ).toBe('PENDING');
  });

  it('advances by time in realistic mode', async () => {
    const timed = await startTestService({ assistantSteps: 'realistic', assistantStepMs: 40 });
    try {
      const start = await call<AssistantTask>(timed, 'pollAssistant', {
        body: { userInput: 'marine heatwave intensity' },
      });
      expect(start.body.status).toBe('PENDING');
      const steps: string[] = [];
      let task = start.body;
      for (let i = 0; i < 200 && task.status !== 'SUCCESS'; i++) {
        await new Promise((r) => setTimeout(r, 10));
        task = (await call<AssistantTask>(timed, 'getAssistantTask', { params: { task_id: start.body.id } })).body;
        if (task.status === 'STARTED' && steps.at(-1) !== task.info!.step) steps.push(task.info!.step!);
      }
      expect(task.status).toBe('SUCCESS');
      const order = ASSISTANT_STEPS.filter((s) => s !== 'RETRIEVING_UPLOADED_DOCUMENTS');
      expect(steps.map((s) => order.indexOf(s as (typeof order)[number]))).toEqual(
        [...steps.map((s) => order.indexOf(s as (typeof order)[number]))].sort((a, b) => a - b),
      );
      expect(steps.length).toBeGreaterThanOrEqual(3);
    } finally {
      await timed.close();
    }
  });

  it('validates the body and counts usage against the maximum', async () => {
    expect((await call(service, 'pollAssistant', { body: { numReferences: 5 } })).status).toBe(422);
    expect((await call(service, 'pollAssistant', { body: { userInput: 'x', numReferences: 1001 } })).status).toBe(422);
    expect((await call(service, 'pollAssistant', { body: { userInput: 'x', rankBy: 'fame' } })).status).toBe(422);
    expect((await call(service, 'pollAssistant', { body: { userInput: 'x' }, token: TOKENS.citations })).status).toBe(
      403,
    );
    const small = await startTestService({ usageMax: 2 });
    try {
      const a = await call<AssistantTask>(small, 'pollAssistant', { body: { userInput: 'x' } });
      expect(a.body.usage).toEqual({ used: 1, max: 2 });
      await call(small, 'pollAssistant', { body: { userInput: 'y' } });
      const over = await call<{ detail: string }>(small, 'pollAssistant', { body: { userInput: 'z' } });
      expect(over.status).toBe(403);
      expect(over.body.detail).toMatch(/usage limit/i);
    } finally {
      await small.close();
    }
  });
});
