import type { Migration } from './index';

// Assistant sessions kept in the library, so a conversation can be read offline, renamed and deleted.
// A turn is one question with its options and, once the service answered, the answer (the service's
// turn without its references, as JSON) and its references as rows (DOI, kind, passage), so a
// reference is findable by DOI without parsing answers. A question whose task failed, timed out or
// was cancelled stays with its error, so it can be asked again.
export const m0009Assistant: Migration = {
  version: 9,
  name: 'assistant',
  up(db) {
    db.exec(`
      CREATE TABLE assistant_sessions (
        id                INTEGER PRIMARY KEY,
        title             TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 500),
        remote_session_id INTEGER,
        created_at        INTEGER NOT NULL,
        updated_at        INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX assistant_sessions_by_update ON assistant_sessions(updated_at DESC);
      CREATE TABLE assistant_turns (
        id           INTEGER PRIMARY KEY,
        session_id   INTEGER NOT NULL REFERENCES assistant_sessions(id) ON DELETE CASCADE,
        position     INTEGER NOT NULL,
        question     TEXT NOT NULL,
        options      TEXT NOT NULL DEFAULT '{}',
        scope_label  TEXT,
        status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'answered', 'failed', 'cancelled')),
        task_id      TEXT,
        answer       TEXT,
        error        TEXT,
        usage_used   INTEGER,
        usage_max    INTEGER,
        feedback     TEXT CHECK (feedback IN ('positive', 'negative')),
        feedback_reason TEXT,
        created_at   INTEGER NOT NULL,
        answered_at  INTEGER,
        UNIQUE (session_id, position)
      ) STRICT;
      CREATE INDEX assistant_turns_by_task ON assistant_turns(task_id) WHERE task_id IS NOT NULL;
      CREATE TABLE assistant_references (
        turn_id  INTEGER NOT NULL REFERENCES assistant_turns(id) ON DELETE CASCADE,
        number   INTEGER NOT NULL,
        doi      TEXT,
        kind     TEXT,
        title    TEXT,
        passage  TEXT,
        data     TEXT NOT NULL,
        PRIMARY KEY (turn_id, number)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX assistant_references_by_doi ON assistant_references(doi) WHERE doi IS NOT NULL;
    `);
  },
};
