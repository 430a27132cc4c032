// Assistant sessions in the library (migration 0009): questions with their options, the service's
// answers and their references, feedback, and what went wrong when a question got no answer. Runs in
// the library worker through Library's assistant methods.
import type {
  AssistantAnswer,
  AssistantAnswerReference,
  AssistantFeedbackValue,
  AssistantOptions,
  AssistantSessionDetail,
  AssistantSessionSummary,
  AssistantTurnRecord,
  AssistantTurnStatus,
} from '../../../shared/model/assistant';
import { parseDoi } from '../../../shared/model/doi';
import { CoreError } from '../errors';
import { sql, type WriteDb } from './sql';
import { isObject, readStored } from './stored-json';

export const MAX_SESSION_TITLE = 500;

interface SessionRow {
  id: number;
  title: string;
  remote_session_id: number | null;
  created_at: number;
  updated_at: number;
  turns: number;
  last_status: AssistantTurnStatus | null;
}

interface TurnRow {
  id: number;
  session_id: number;
  position: number;
  question: string;
  options: string;
  scope_label: string | null;
  status: AssistantTurnStatus;
  task_id: string | null;
  answer: string | null;
  error: string | null;
  usage_used: number | null;
  usage_max: number | null;
  feedback: AssistantFeedbackValue | null;
  feedback_reason: string | null;
  created_at: number;
  answered_at: number | null;
}

export interface NewQuestion {
  question: string;
  options: AssistantOptions;
  scopeLabel?: string | null;
}

export interface TurnAnswer {
  answer: AssistantAnswer;
  usage?: { used: number; max: number } | undefined;
  remoteSessionId?: number | undefined;
}

/** A title from a question: its first line, shortened at a word. */
export function titleFromQuestion(question: string): string {
  const line = question.trim().split(/\r?\n/)[0]!.replace(/\s+/g, ' ');
  if (line.length <= 80) return line || 'Untitled conversation';
  const cut = line.slice(0, 79);
  return `${cut.slice(0, Math.max(40, cut.lastIndexOf(' ')))}…`;
}

function cleanTitle(title: string): string {
  const t = title.replace(/\s+/g, ' ').trim();
  if (!t) throw new CoreError('INVALID_INPUT', 'A conversation needs a title (it was empty).', { field: 'title' });
  if (t.length > MAX_SESSION_TITLE)
    throw new CoreError(
      'INVALID_INPUT',
      `A conversation's title can be at most ${MAX_SESSION_TITLE} characters (it had ${t.length}).`,
      { field: 'title' },
    );
  return t;
}

const SESSION_COLUMNS = sql`s.id, s.title, s.remote_session_id, s.created_at, s.updated_at,
  (SELECT count(*) FROM assistant_turns t WHERE t.session_id = s.id) AS turns,
  (SELECT t.status FROM assistant_turns t WHERE t.session_id = s.id ORDER BY t.position DESC LIMIT 1) AS last_status`;

function summary(r: SessionRow): AssistantSessionSummary {
  return {
    id: r.id,
    title: r.title,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    turns: r.turns,
    lastStatus: r.last_status,
  };
}

export class AssistantStore {
  readonly #db: WriteDb;
  readonly #now: () => number;

  constructor(options: { db: WriteDb; now: () => number }) {
    this.#db = options.db;
    this.#now = options.now;
  }

  createSession(title: string): AssistantSessionSummary {
    const now = this.#now();
    const id = Number(
      this.#db.run(
        sql`INSERT INTO assistant_sessions (title, created_at, updated_at) VALUES (${cleanTitle(title)}, ${now}, ${now})`,
      ).lastInsertRowid,
    );
    return this.#summary(id);
  }

  listSessions(): AssistantSessionSummary[] {
    return this.#db
      .all<SessionRow>(sql`SELECT ${SESSION_COLUMNS} FROM assistant_sessions s ORDER BY s.updated_at DESC, s.id DESC`)
      .map(summary);
  }

  getSession(id: number): AssistantSessionDetail {
    const row = this.#db.get<SessionRow>(sql`SELECT ${SESSION_COLUMNS} FROM assistant_sessions s WHERE s.id = ${id}`);
    if (!row) throw new CoreError('NOT_FOUND', `Conversation ${id} is not in the library (it may have been deleted).`);
    const turns = this.#db.all<TurnRow>(sql`SELECT * FROM assistant_turns WHERE session_id = ${id} ORDER BY position`);
    return { ...summary(row), remoteSessionId: row.remote_session_id, records: turns.map((t) => this.#record(t)) };
  }

  renameSession(id: number, title: string): AssistantSessionSummary {
    const changed = this.#db.run(
      sql`UPDATE assistant_sessions SET title = ${cleanTitle(title)} WHERE id = ${id}`,
    ).changes;
    if (changed === 0)
      throw new CoreError('NOT_FOUND', `Conversation ${id} is not in the library (it may have been deleted).`);
    return this.#summary(id);
  }

  deleteSession(id: number): void {
    const changed = this.#db.run(sql`DELETE FROM assistant_sessions WHERE id = ${id}`).changes;
    if (changed === 0)
      throw new CoreError('NOT_FOUND', `Conversation ${id} is not in the library (it may have been deleted).`);
  }

  /** Adds a question to a conversation (a new one when `sessionId` is null); it waits for its answer. */
  addQuestion(sessionId: number | null, input: NewQuestion): AssistantTurnRecord {
    return this.#db.transaction(() => {
      const now = this.#now();
      let sid = sessionId;
      if (sid === null) sid = this.createSession(titleFromQuestion(input.question)).id;
      else if (!this.#db.get(sql`SELECT 1 FROM assistant_sessions WHERE id = ${sid}`))
        throw new CoreError('NOT_FOUND', `Conversation ${sid} is not in the library (it may have been deleted).`);
      const position =
        (this.#db.get<{ p: number | null }>(
          sql`SELECT max(position) AS p FROM assistant_turns WHERE session_id = ${sid}`,
        )?.p ?? -1) + 1;
      const id = Number(
        this.#db.run(
          sql`INSERT INTO assistant_turns (session_id, position, question, options, scope_label, created_at) VALUES (${sid}, ${position}, ${input.question}, ${JSON.stringify(input.options)}, ${input.scopeLabel ?? null}, ${now})`,
        ).lastInsertRowid,
      );
      this.#db.run(sql`UPDATE assistant_sessions SET updated_at = ${now} WHERE id = ${sid}`);
      return this.getTurn(id);
    });
  }

  /** Asks a failed or cancelled question again: its error goes, it waits for an answer. */
  retryQuestion(turnId: number): AssistantTurnRecord {
    const turn = this.getTurn(turnId);
    if (turn.status === 'answered' || turn.status === 'pending')
      throw new CoreError(
        'CONFLICT',
        `This question is ${turn.status === 'answered' ? 'already answered' : 'still waiting for its answer'}; only a failed or cancelled one is asked again.`,
      );
    this.#db.run(sql`UPDATE assistant_turns SET status = 'pending', error = NULL, task_id = NULL WHERE id = ${turnId}`);
    return this.getTurn(turnId);
  }

  setTask(turnId: number, taskId: string): void {
    this.#db.run(sql`UPDATE assistant_turns SET task_id = ${taskId} WHERE id = ${turnId}`);
  }

  /**
   * Whether an outcome may still be written: only to a question waiting for it, and (given the task
   * it came from) only from the task the question is waiting on — a late answer to a question since
   * asked again, cancelled or failed is dropped.
   */
  #awaits(turn: AssistantTurnRecord, taskId: string | undefined): boolean {
    return turn.status === 'pending' && (taskId === undefined || turn.taskId === null || turn.taskId === taskId);
  }

  /** Stores the answer and its references in one transaction (unless the question no longer waits for it). */
  answerTurn(turnId: number, input: TurnAnswer, taskId?: string): AssistantTurnRecord {
    return this.#db.transaction(() => {
      const turn = this.getTurn(turnId);
      if (!this.#awaits(turn, taskId)) return turn;
      const now = this.#now();
      const { references = [], ...answer } = input.answer;
      this.#db.run(sql`DELETE FROM assistant_references WHERE turn_id = ${turnId}`);
      references.forEach((ref, i) => {
        const doi = typeof ref.doi === 'string' ? parseDoi(ref.doi) : null;
        this.#db.run(
          sql`INSERT INTO assistant_references (turn_id, number, doi, kind, title, passage, data) VALUES (${turnId}, ${i + 1}, ${doi?.ok ? doi.doi : null}, ${ref.type ?? null}, ${ref.title ?? null}, ${ref.answer ?? null}, ${JSON.stringify(ref)})`,
        );
      });
      this.#db.run(
        sql`UPDATE assistant_turns SET status = 'answered', answer = ${JSON.stringify(answer)}, error = NULL, usage_used = ${input.usage?.used ?? null}, usage_max = ${input.usage?.max ?? null}, answered_at = ${now} WHERE id = ${turnId}`,
      );
      this.#db.run(sql`UPDATE assistant_sessions SET updated_at = ${now} WHERE id = ${turn.sessionId}`);
      if (input.remoteSessionId !== undefined)
        this.#db.run(
          sql`UPDATE assistant_sessions SET remote_session_id = ${input.remoteSessionId} WHERE id = ${turn.sessionId}`,
        );
      return this.getTurn(turnId);
    });
  }

  /** A question without an answer: failed (with the reason) or cancelled; the question stays. */
  failTurn(
    turnId: number,
    status: 'failed' | 'cancelled',
    error: { code: string; message: string },
    usage?: { used: number; max: number },
    taskId?: string,
  ): AssistantTurnRecord {
    const turn = this.getTurn(turnId);
    if (!this.#awaits(turn, taskId)) return turn;
    this.#db.run(
      sql`UPDATE assistant_turns SET status = ${status}, error = ${JSON.stringify(error)}, usage_used = ${usage?.used ?? turn.usage?.used ?? null}, usage_max = ${usage?.max ?? turn.usage?.max ?? null} WHERE id = ${turnId}`,
    );
    this.#db.run(sql`UPDATE assistant_sessions SET updated_at = ${this.#now()} WHERE id = ${turn.sessionId}`);
    return this.getTurn(turnId);
  }

  /** Questions left waiting when Citewise last closed: their tasks are gone, so they failed. */
  interruptPending(): number {
    return this.#db.run(
      sql`UPDATE assistant_turns SET status = 'failed', error = ${JSON.stringify({ code: 'CANCELLED', message: 'Citewise closed before the answer arrived. Ask again to retry.' })} WHERE status = 'pending'`,
    ).changes;
  }

  setFeedback(turnId: number, value: AssistantFeedbackValue | null, reason: string): AssistantTurnRecord {
    const turn = this.getTurn(turnId);
    if (turn.status !== 'answered')
      throw new CoreError('CONFLICT', 'Feedback is given on an answer; this question has none yet.');
    this.#db.run(
      sql`UPDATE assistant_turns SET feedback = ${value}, feedback_reason = ${value ? reason : null} WHERE id = ${turnId}`,
    );
    return this.getTurn(turnId);
  }

  getTurn(turnId: number): AssistantTurnRecord {
    const row = this.#db.get<TurnRow>(sql`SELECT * FROM assistant_turns WHERE id = ${turnId}`);
    if (!row)
      throw new CoreError(
        'NOT_FOUND',
        `Question ${turnId} is not in the library (its conversation may have been deleted).`,
      );
    return this.#record(row);
  }

  #summary(id: number): AssistantSessionSummary {
    return summary(
      this.#db.get<SessionRow>(sql`SELECT ${SESSION_COLUMNS} FROM assistant_sessions s WHERE s.id = ${id}`)!,
    );
  }

  #record(t: TurnRow): AssistantTurnRecord {
    const refs = this.#db
      .pluck<string>(sql`SELECT data FROM assistant_references WHERE turn_id = ${t.id} ORDER BY number`)
      .map((d, i) =>
        readStored<AssistantAnswerReference>(d, `Reference ${i + 1} of the assistant's answer ${t.id}`, isObject),
      );
    return {
      id: t.id,
      sessionId: t.session_id,
      position: t.position,
      question: t.question,
      options: readStored<AssistantOptions>(t.options, `The options of the assistant's question ${t.id}`, isObject),
      scopeLabel: t.scope_label,
      status: t.status,
      taskId: t.task_id,
      answer: t.answer ? readStored<AssistantAnswer>(t.answer, `The assistant's answer ${t.id}`, isObject) : null,
      references: refs,
      error: t.error
        ? readStored<{ code: string; message: string }>(
            t.error,
            `The error of the assistant's question ${t.id}`,
            isObject,
          )
        : null,
      usage: t.usage_used !== null && t.usage_max !== null ? { used: t.usage_used, max: t.usage_max } : null,
      feedback: t.feedback ? { value: t.feedback, reason: t.feedback_reason ?? '' } : null,
      createdAt: t.created_at,
      answeredAt: t.answered_at,
    };
  }
}
