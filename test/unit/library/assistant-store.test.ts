import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { titleFromQuestion } from '../../../electron/core/library/assistant-store';
import type { AssistantAnswer } from '../../../shared/model/assistant';
import { testLibrary, type TestLibrary } from './helpers/lib';

const answer = (content: string, dois: string[]): AssistantAnswer =>
  ({
    role: 'assistant',
    content,
    references: dois.map((doi, i) => ({
      doi,
      title: `Paper ${i + 1}`,
      answer: `Passage ${i + 1}`,
      type: i % 2 ? 'citation_statement' : 'abstract',
    })),
  }) as AssistantAnswer;

describe('assistant sessions in the library', () => {
  let t: TestLibrary;
  beforeEach(() => {
    t = testLibrary();
  });
  afterEach(() => t.dispose());

  it('keeps questions, options, answers with their references, usage and the service session id', () => {
    const lib = t.library;
    const q = lib.assistant.addQuestion(null, {
      question: 'Does sleep loss impair memory?',
      options: { numReferences: 2, citationStyle: 'vancouver' },
      scopeLabel: 'the library',
    });
    expect(q).toMatchObject({
      position: 0,
      status: 'pending',
      options: { numReferences: 2, citationStyle: 'vancouver' },
      scopeLabel: 'the library',
      answer: null,
      references: [],
    });
    lib.assistant.setTask(q.id, 'task-1');
    const a = lib.assistant.answerTurn(q.id, {
      answer: answer('Yes [1][2].', ['10.1000/A', 'not a doi']),
      usage: { used: 3, max: 100 },
      remoteSessionId: 42,
    });
    expect(a).toMatchObject({ status: 'answered', taskId: 'task-1', usage: { used: 3, max: 100 } });
    expect(a.answer).toEqual({ role: 'assistant', content: 'Yes [1][2].' });
    expect(a.references.map((r) => r.doi)).toEqual(['10.1000/A', 'not a doi']);
    // References are rows, findable by normalised DOI.
    expect(t.db.prepare('SELECT number, doi, kind, passage FROM assistant_references ORDER BY number').all()).toEqual([
      { number: 1, doi: '10.1000/a', kind: 'abstract', passage: 'Passage 1' },
      { number: 2, doi: null, kind: 'citation_statement', passage: 'Passage 2' },
    ]);
    const follow = lib.assistant.addQuestion(q.sessionId, { question: 'And in children?', options: {} });
    expect(follow.position).toBe(1);
    const session = lib.assistant.getSession(q.sessionId);
    expect(session).toMatchObject({
      title: 'Does sleep loss impair memory?',
      remoteSessionId: 42,
      turns: 2,
      lastStatus: 'pending',
    });
    expect(session.records.map((r) => r.question)).toEqual(['Does sleep loss impair memory?', 'And in children?']);
  });

  it('keeps a failed or cancelled question with its reason, asks it again, and marks questions left waiting at start-up as failed', () => {
    const lib = t.library;
    const q = lib.assistant.addQuestion(null, { question: 'Q', options: {} });
    expect(() => lib.assistant.retryQuestion(q.id)).toThrow(/still waiting/);
    lib.assistant.failTurn(
      q.id,
      'failed',
      { code: 'OFFLINE', message: 'Cannot reach the service.' },
      { used: 5, max: 100 },
    );
    expect(lib.assistant.getTurn(q.id)).toMatchObject({
      status: 'failed',
      error: { code: 'OFFLINE' },
      usage: { used: 5, max: 100 },
      question: 'Q',
    });
    expect(lib.assistant.retryQuestion(q.id)).toMatchObject({ status: 'pending', error: null, taskId: null });
    lib.assistant.answerTurn(q.id, { answer: answer('A', []) });
    expect(() => lib.assistant.retryQuestion(q.id)).toThrow(/already answered/);
    const waiting = lib.assistant.addQuestion(q.sessionId, { question: 'Left waiting', options: {} });
    expect(lib.assistant.interruptPending()).toBe(1);
    expect(lib.assistant.getTurn(waiting.id)).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' } });
  });

  it('keeps feedback on answers only, renames and deletes conversations, and says what is wrong', () => {
    const lib = t.library;
    const q = lib.assistant.addQuestion(null, { question: 'Q', options: {} });
    expect(() => lib.assistant.setFeedback(q.id, 'positive', '')).toThrow(/has none yet/);
    lib.assistant.answerTurn(q.id, { answer: answer('A [1]', ['10.1/a']) });
    expect(lib.assistant.setFeedback(q.id, 'negative', 'Missed a study').feedback).toEqual({
      value: 'negative',
      reason: 'Missed a study',
    });
    expect(lib.assistant.setFeedback(q.id, null, 'ignored').feedback).toBeNull();
    expect(lib.assistant.renameSession(q.sessionId, '  New   name ').title).toBe('New name');
    expect(() => lib.assistant.renameSession(q.sessionId, '   ')).toThrow(/needs a title/);
    expect(() => lib.assistant.renameSession(q.sessionId, 'x'.repeat(501))).toThrow(/at most 500/);
    expect(() => lib.assistant.addQuestion(999, { question: 'Q', options: {} })).toThrow(
      /Conversation 999 is not in the library/,
    );
    lib.assistant.deleteSession(q.sessionId);
    expect(() => lib.assistant.getSession(q.sessionId)).toThrow(/not in the library/);
    expect(() => lib.assistant.deleteSession(q.sessionId)).toThrow(/not in the library/);
    expect(lib.assistant.listSessions()).toEqual([]);
  });

  it('lists conversations by last activity', () => {
    const lib = t.library;
    const a = lib.assistant.addQuestion(null, { question: 'First', options: {} });
    const b = lib.assistant.addQuestion(null, { question: 'Second', options: {} });
    expect(lib.assistant.listSessions().map((s) => s.title)).toEqual(['Second', 'First']);
    lib.assistant.addQuestion(a.sessionId, { question: 'More', options: {} });
    expect(lib.assistant.listSessions().map((s) => s.id)).toEqual([a.sessionId, b.sessionId]);
  });

  it('titles a conversation with its first question, cut at a word', () => {
    expect(titleFromQuestion('  Short\nsecond line')).toBe('Short');
    const long = titleFromQuestion(
      'Does chronic sleep restriction impair working memory and executive function in healthy older adults over seventy?',
    );
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(/\w…$/);
  });
});
