import type { Migration } from './index';

// The replica's side of sharing a library on PostgreSQL (electron/core/sync, docs/sharing.md).
// - sync_flags: whether changes are tracked (once the library is shared) and whether the sync itself is
//   writing (the server's changes must not come back as local ones); read by the change-log triggers,
//   which sync/changelog.ts installs from the table of shared kinds (sync/kinds.ts).
// - sync_dirty: the objects changed here since they were last pushed, one row each; `mark` counts the
//   changes, so a push clears only what it sent.
// - sync_objects: each shared object's uid, the server version this replica has, and the object as the
//   server had it at that version (`base`, the third side of a three-way merge).
// - sync_conflicts: fields changed on both sides, each with both values, until the user chooses.
// - sync_parked: objects from the server waiting for another (a note for an item not here yet).
// - sync_log: what sync did that the user should hear of (a delete that gave way to an edit, a key
//   that had to change).
// - sync_files: attachment files to upload or download, with how far each got (resumable).
// - sync_state: the server's identity, the pull cursor, the last sync times.
export const m0027Sync: Migration = {
  version: 27,
  name: 'sync',
  up(db) {
    db.exec(`
      CREATE TABLE sync_flags (
        id       INTEGER PRIMARY KEY CHECK (id = 1),
        tracking INTEGER NOT NULL DEFAULT 0 CHECK (tracking IN (0, 1)),
        applying INTEGER NOT NULL DEFAULT 0 CHECK (applying IN (0, 1))
      ) STRICT;
      INSERT INTO sync_flags (id) VALUES (1);

      CREATE TABLE sync_dirty (
        kind     TEXT NOT NULL,
        local_id ANY NOT NULL,
        mark     INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (kind, local_id)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE sync_objects (
        kind     TEXT NOT NULL,
        local_id ANY NOT NULL,
        uid      TEXT NOT NULL,
        version  INTEGER NOT NULL DEFAULT 0,
        base     TEXT,
        PRIMARY KEY (kind, local_id),
        UNIQUE (kind, uid)
      ) STRICT;

      CREATE TABLE sync_conflicts (
        kind           TEXT NOT NULL,
        uid            TEXT NOT NULL,
        field          TEXT NOT NULL,
        local_value    TEXT,
        server_value   TEXT,
        server_version INTEGER NOT NULL,
        server_by      TEXT,
        detected_at    INTEGER NOT NULL,
        PRIMARY KEY (kind, uid, field)
      ) STRICT;

      CREATE TABLE sync_parked (
        kind        TEXT NOT NULL,
        uid         TEXT NOT NULL,
        version     INTEGER NOT NULL,
        deleted     INTEGER NOT NULL CHECK (deleted IN (0, 1)),
        data        TEXT,
        modified_by TEXT,
        reason      TEXT NOT NULL,
        PRIMARY KEY (kind, uid)
      ) STRICT;

      CREATE TABLE sync_log (
        id       INTEGER PRIMARY KEY,
        at       INTEGER NOT NULL,
        kind     TEXT NOT NULL,
        uid      TEXT,
        local_id ANY,
        message  TEXT NOT NULL
      ) STRICT;

      CREATE TABLE sync_files (
        sha256     TEXT PRIMARY KEY,
        direction  TEXT NOT NULL CHECK (direction IN ('upload', 'download')),
        size       INTEGER NOT NULL CHECK (size >= 0),
        done_bytes INTEGER NOT NULL DEFAULT 0,
        state      TEXT NOT NULL CHECK (state IN ('wanted', 'on-demand', 'done', 'failed', 'too-big')),
        error      TEXT,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE sync_state (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `);
  },
};
