// The Assistant pane's state (renderer/src/panes/assistant/assistant.svelte.ts) in Node
// against a real in-process core and the local test service (one assistant step per poll): the form's
// problems before asking, a question answered and read back from the library, references added and
// marked, the conversation opened last winning, rename and delete, and a question the service refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssistantState } from '../../../renderer/src/panes/assistant/assistant.svelte';
import { coreForTests, enrichmentSettled, onlineCore, until } from './helpers';

let state: AssistantState;
let stop: () => void;

const env = coreForTests(() => onlineCore('assistant'));

beforeAll(async () => {
  state = new AssistantState(env.net.api);
  stop = state.start('vancouver');
  await until(() => state.sessions !== null, 'the conversations');
});

afterAll(async () => {
  stop?.();
});

async function askAndWait(question: string): Promise<void> {
  state.question = question;
  await state.ask();
  await until(() => state.current?.records.at(-1)?.status === 'answered', `the answer to “${question}”`);
}

describe('AssistantState against the test service', () => {
  it("finds the form's problems without asking, at both ends of the reference count", async () => {
    expect(state.options.citationStyle).toBe('vancouver');
    state.question = '   ';
    await state.ask();
    expect(state.formProblem).toEqual({ problem: 'Write a question first.', field: 'question' });
    state.question = 'Does sleep help memory?';
    state.options.numReferences = 1001;
    await state.ask();
    expect(state.formProblem?.field).toBe('numReferences');
    expect(state.sessions).toEqual([]);
    state.options.numReferences = 1000;
    state.options.yearFrom = '2020';
    state.options.yearTo = '2019';
    await state.ask();
    expect(state.formProblem).toEqual({ problem: 'The year range ends before it starts.', field: 'yearTo' });
    state.options.yearFrom = '';
    state.options.yearTo = '';
    state.options.numReferences = 5;
    expect(state.asking).toBe(false);
  });

  it('asks, shows the stored answer, and marks the references added to the library', async () => {
    await askAndWait('Does sleep help memory?');
    expect(state.error).toBeNull();
    expect(state.asking).toBe(false);
    expect(state.question).toBe('');
    expect(state.pending).toBeNull();
    const turn = state.current!.records[0]!;
    expect(turn.references.length).toBeGreaterThan(0);
    expect(state.sessions?.map((s) => s.id)).toEqual([state.current!.id]);
    const doi = turn.references.find((r) => r.doi)!.doi!;
    expect(state.isInLibrary(doi)).toBe(false);

    const report = await state.addReferences(turn.id, null, null);
    expect(report!.added.length + report!.queued.length).toBeGreaterThan(0);
    await until(() => state.isInLibrary(doi), 'the references marked as in the library');
    expect(state.isInLibrary(`https://doi.org/${doi.toUpperCase()}`)).toBe(true);
    expect(state.isInLibrary('not a doi')).toBe(false);
    await enrichmentSettled(env.t.api);
  });

  it('shows the conversation opened last when an earlier read answers after it', async () => {
    const first = state.current!.id;
    state.newConversation();
    await askAndWait('Is coffee bad for the heart?');
    const second = state.current!.id;
    expect(second).not.toBe(first);

    const release = env.net.hold('assistant.sessions.get');
    const slow = state.open(first);
    await state.open(second);
    release();
    await slow;
    expect(state.current?.id).toBe(second);
  });

  it('renames and deletes a conversation, and keeps a refused rename as its error', async () => {
    const id = state.current!.id;
    expect(await state.rename(id, 'Coffee')).toBe(true);
    await until(() => state.sessions?.find((s) => s.id === id)?.title === 'Coffee', 'the new title');
    expect(await state.rename(id, '')).toBe(false);
    expect(state.error?.code).toBe('INVALID_INPUT');
    state.dismissError();
    await state.remove(id);
    expect(state.current).toBeNull();
    await until(() => state.sessions?.every((s) => s.id !== id) === true, 'the list without it');
    await state.remove(id);
    expect(state.error?.code).toBe('NOT_FOUND');
    state.dismissError();
  });

  it('keeps a question the service refused (usage used up) with its reason, as one message', async () => {
    const limited = await onlineCore('assistant-usage', { service: { usageMax: 0 } });
    try {
      const s = new AssistantState(limited.api);
      const off = s.start(undefined);
      s.question = 'Will this be answered?';
      await s.ask();
      expect(s.asking).toBe(false);
      // Kept as a failed question with its reason and Ask again: no second message.
      expect(s.current?.records.map((r) => [r.question, r.status, r.error?.code])).toEqual([
        ['Will this be answered?', 'failed', 'FORBIDDEN'],
      ]);
      expect(s.error).toBeNull();
      expect(s.question).toBe('');
      off();
    } finally {
      await limited.close();
    }
  });
});
