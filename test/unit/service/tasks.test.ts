// Tasks are polled with backoff to a terminal status, report progress, stop with TIMEOUT at their
// deadline and ask the service to cancel when abandoned.
import { describe, expect, it } from 'vitest';
import type { TaskProgress } from '../../../electron/core/service';
import { client, fakeFetch, json, KEY, VirtualClock } from './fakes';

const STEPS = [
  'SCHEDULING_ASSISTANT',
  'GENERATING_SEARCH_STRATEGY',
  'EXECUTING_SEARCHES',
  'RETRIEVING_PRIMARY_SOURCES',
  'COMPOSING_RESPONSE',
  'GENERATING_RESPONSE',
];

function assistantService(final: 'SUCCESS' | 'FAILURE' | 'never') {
  let polls = 0;
  let cancelled = false;
  return {
    get cancelled() {
      return cancelled;
    },
    script: (req: { url: URL; method: string }) => {
      const path = req.url.pathname;
      if (path === '/api_partner/assistant/poll') return json({ id: 't1', status: 'PENDING' });
      if (path.endsWith('/cancel')) {
        cancelled = true;
        return json({});
      }
      if (cancelled) return json({ id: 't1', status: 'CANCELLED' });
      const i = polls++;
      if (final === 'never' || i < STEPS.length) {
        const step = STEPS[Math.min(i, STEPS.length - 1)]!;
        return json({
          id: 't1',
          status: final === 'never' ? 'PENDING' : 'STARTED',
          info:
            final === 'never'
              ? {}
              : {
                  step,
                  stepNumber: i + 1,
                  response: 'partial '.repeat(i),
                  searches: ['q1'],
                  publicationsConsulting: ['10.1/a'],
                },
        });
      }
      return final === 'SUCCESS'
        ? json({ id: 't1', status: 'SUCCESS', result: { turns: [] } })
        : json({ id: 't1', status: 'FAILURE', error: 'model overloaded' });
    },
  };
}

describe('tasks', () => {
  it('polls to SUCCESS, reporting each step with its number, text, searches and publications', async () => {
    const clock = new VirtualClock();
    const svc = assistantService('SUCCESS');
    const { fetch } = fakeFetch(svc.script, clock);
    const progress: TaskProgress[] = [];
    const task = await client(fetch, { clock, getKey: async () => KEY }).runAssistant(
      { userInput: 'q' },
      { onProgress: (p) => progress.push(p) },
    );
    expect(task.status).toBe('SUCCESS');
    expect(progress.map((p) => p.step).filter(Boolean)).toEqual(STEPS);
    expect(progress[2]).toMatchObject({
      taskId: 't1',
      kind: 'assistant',
      status: 'STARTED',
      stepNumber: 3,
      response: 'partial partial ',
      searches: ['q1'],
      publicationsConsulting: ['10.1/a'],
    });
    expect(progress.at(-1)!.status).toBe('SUCCESS');
  });

  it('returns a FAILURE task with its error', async () => {
    const clock = new VirtualClock();
    const { fetch } = fakeFetch(assistantService('FAILURE').script, clock);
    const task = await client(fetch, { clock, getKey: async () => KEY }).runAssistant({ userInput: 'q' });
    expect(task).toMatchObject({ status: 'FAILURE', error: 'model overloaded' });
  });

  it('stops with TIMEOUT when a task stays PENDING past the deadline, backing off meanwhile, and cancels it', async () => {
    const clock = new VirtualClock();
    const svc = assistantService('never');
    const { fetch, seen } = fakeFetch(svc.script, clock);
    const err = await client(fetch, { clock, getKey: async () => KEY })
      .runAssistant({ userInput: 'q' }, { deadlineMs: 60_000, pollInitialMs: 500, pollMaxMs: 5000 })
      .then(
        () => Promise.reject(new Error('expected a failure')),
        (e: unknown) => e as { code: string; message: string },
      );
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/did not finish within 60 s \(last status PENDING\)/);
    expect(svc.cancelled).toBe(true);
    // Intervals grow by half each time up to the maximum.
    expect(clock.sleeps.slice(0, 6)).toEqual([500, 750, 1125, 1688, 2532, 3798]);
    expect(Math.max(...clock.sleeps)).toBe(5000);
    expect(seen.length).toBeLessThan(25);
  });

  it('cancels: the wait ends with CANCELLED and the service is told', async () => {
    const svc = assistantService('never');
    const { fetch } = fakeFetch(svc.script);
    const a = new AbortController();
    const p = client(fetch, { getKey: async () => KEY }).runAssistant(
      { userInput: 'q' },
      { signal: a.signal, pollInitialMs: 5 },
    );
    setTimeout(() => a.abort(), 30);
    await expect(p).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(svc.cancelled).toBe(true);
  });

  it('runs a reference check to its result', async () => {
    const clock = new VirtualClock();
    let polls = 0;
    const { fetch, seen } = fakeFetch((req) => {
      if (req.method === 'POST') return json({ id: 'rc1' }, 201);
      return polls++ < 2
        ? json({ status: 'STARTED', info: { description: 'Extracting references', step: polls, totalSteps: 5 } })
        : json({ status: 'SUCCESS', result: { metadata: {}, filetype: 'pdf', citations: [] } });
    }, clock);
    const c = client(fetch, { clock, getKey: async () => KEY });
    const id = await c.startReferenceCheck({ fileUrl: 'https://example.org/paper.pdf' });
    const progress: TaskProgress[] = [];
    const task = await c.waitForReferenceCheck(id, { onProgress: (p) => progress.push(p) });
    expect(task.status).toBe('SUCCESS');
    expect(seen[0]!.url.searchParams.get('file_url')).toBe('https://example.org/paper.pdf');
    expect(progress[0]).toMatchObject({
      kind: 'reference-check',
      description: 'Extracting references',
      stepNumber: 1,
      totalSteps: 5,
    });
  });
});

describe('assistant request', () => {
  it('sends the effort under the guessed wire name from the guess table', async () => {
    const { GUESSES } = await import('../../../shared/service');
    const { fetch, seen } = fakeFetch(() => json({ id: 't1', status: 'PENDING' }));
    await client(fetch, { getKey: async () => KEY }).startAssistant({ userInput: 'q', effort: 'high' });
    expect(seen[0]!.body).toEqual({ userInput: 'q', [GUESSES.assistantEffortField]: 'high' });
  });
});
