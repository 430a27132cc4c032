import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0009 assistant', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds assistant conversations to a populated version-8 database, which then opens as a working library', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 7);
    h.db.prepare("INSERT INTO auto_exports (path, format, created_at) VALUES ('/tmp/x.bib', 'bibtex', 1)").run();
    // Version 8's own data (the citation graph) comes through untouched.
    migrateTo(h.db, 8);
    h.db
      .prepare(
        "INSERT INTO graph_statements (origin, source, target, key, type, fetched_at) VALUES ('citing', '10.1/a', '10.1/b', 'k1', 'supporting', 3)",
      )
      .run();
    h.db
      .prepare(
        "INSERT INTO graphs (name, seed, seed_dois, dois, node_count, created_at, updated_at) VALUES ('Thesis', '{}', '[]', '[\"10.1/a\"]', 1, 1, 1)",
      )
      .run();
    migrateTo(h.db, 9);
    expect(h.db.prepare('SELECT type FROM graph_statements').pluck().all()).toEqual(['supporting']);
    expect(h.db.prepare('SELECT name FROM graphs').pluck().all()).toEqual(['Thesis']);
    expect(h.db.prepare('SELECT count(*) FROM assistant_sessions').pluck().get()).toBe(0);
    h.db.prepare("INSERT INTO assistant_sessions (id, title, created_at, updated_at) VALUES (1, 'S', 1, 1)").run();
    expect(() =>
      h.db
        .prepare(
          "INSERT INTO assistant_turns (session_id, position, question, status, created_at) VALUES (1, 0, 'q', 'thinking', 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() =>
      h.db
        .prepare("INSERT INTO assistant_turns (session_id, position, question, created_at) VALUES (99, 0, 'q', 1)")
        .run(),
    ).toThrow(/FOREIGN KEY/);
    h.db.prepare('DELETE FROM assistant_sessions').run();
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.getItem(1)).toMatchObject({ citationKey: 'mullerDeep2020' });
      expect(lib.autoExports.list()).toHaveLength(1);
      const turn = lib.assistant.addQuestion(null, {
        question: 'Does deep learning generalise?',
        options: { numReferences: 3 },
      });
      expect(lib.assistant.listSessions()).toMatchObject([
        { id: turn.sessionId, title: 'Does deep learning generalise?', turns: 1, lastStatus: 'pending' },
      ]);
      // Deleting a conversation deletes its turns and their references.
      lib.assistant.answerTurn(turn.id, {
        answer: {
          role: 'assistant',
          content: 'Yes [1].',
          references: [{ doi: '10.1000/A', answer: 'p', type: 'abstract' }],
        },
      });
      lib.assistant.deleteSession(turn.sessionId);
      expect(opened.db.prepare('SELECT count(*) FROM assistant_turns').pluck().get()).toBe(0);
      expect(opened.db.prepare('SELECT count(*) FROM assistant_references').pluck().get()).toBe(0);
    } finally {
      opened.close();
    }
  });
});
