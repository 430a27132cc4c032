import type { Migration } from './index';

// What enrichment and the retraction watch need to remember between runs:
// - item_edits: which CSL fields the user changed by hand, so filling from the service never
//   overwrites (or re-fills, after the user cleared it) a field the user owns;
// - enrich_runs / enrich_queue: every requested enrichment as a persisted queue of DOIs, so a run that
//   crashed, went offline or was rate-limited resumes where it stopped instead of starting over;
// - item_status / status_changes: the last editorial status seen per DOI and every change of it, so the
//   user is told once when an item becomes retracted, withdrawn, corrected or under concern.
// Statuses already implied by cached notices become the baseline here, so upgrading does not announce
// every known retraction as news.
export const m0006Enrichment: Migration = {
  version: 6,
  name: 'enrichment',
  up(db) {
    db.exec(`
      CREATE TABLE item_edits (
        item_id   INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        field     TEXT NOT NULL,
        edited_at INTEGER NOT NULL,
        PRIMARY KEY (item_id, field)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE enrich_runs (
        id         INTEGER PRIMARY KEY,
        label      TEXT NOT NULL,
        reason     TEXT NOT NULL CHECK (reason IN ('import', 'demand', 'refresh')),
        state      TEXT NOT NULL CHECK (state IN ('running', 'paused', 'done', 'cancelled')),
        total      INTEGER NOT NULL DEFAULT 0,
        done       INTEGER NOT NULL DEFAULT 0,
        failed     INTEGER NOT NULL DEFAULT 0,
        filled     INTEGER NOT NULL DEFAULT 0,
        message    TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX enrich_runs_open ON enrich_runs(id) WHERE state IN ('running', 'paused');

      -- needs: 1 = paper (metadata and notices), 2 = tallies, 3 = both.
      CREATE TABLE enrich_queue (
        id         INTEGER PRIMARY KEY,
        doi        TEXT NOT NULL UNIQUE,
        run_id     INTEGER NOT NULL REFERENCES enrich_runs(id) ON DELETE CASCADE,
        needs      INTEGER NOT NULL CHECK (needs BETWEEN 1 AND 3),
        attempts   INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      ) STRICT;
      CREATE INDEX enrich_queue_by_run ON enrich_queue(run_id, id);

      CREATE TABLE item_status (
        doi        TEXT PRIMARY KEY,
        status     TEXT NOT NULL CHECK (status IN ('none', 'correction', 'expression-of-concern', 'withdrawn', 'retracted')),
        -- The notice kinds behind it, as in service_notices.kinds: ",retracted,has correction,".
        kinds      TEXT NOT NULL DEFAULT ',',
        checked_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE status_changes (
        id         INTEGER PRIMARY KEY,
        doi        TEXT NOT NULL,
        -- NULL: the first time this DOI's notices were seen (reported only when it is flagged).
        previous   TEXT,
        current    TEXT NOT NULL,
        changed_at INTEGER NOT NULL,
        seen_at    INTEGER
      ) STRICT;
      CREATE INDEX status_changes_unseen ON status_changes(id) WHERE seen_at IS NULL;
      CREATE INDEX status_changes_by_doi ON status_changes(doi, id);

      -- A refresh looks for the oldest rows past a cutoff: these keep it to the stale rows, whatever the library's size.
      CREATE INDEX service_papers_by_age ON service_papers(fetched_at);
      CREATE INDEX service_tallies_by_age ON service_tallies(fetched_at);
      CREATE INDEX service_notices_by_age ON service_notices(fetched_at);

      INSERT INTO item_status (doi, status, kinds, checked_at)
      SELECT doi,
        CASE
          WHEN retracted = 1 OR kinds LIKE '%,retracted,%' THEN 'retracted'
          WHEN kinds LIKE '%,withdrawn,%' THEN 'withdrawn'
          WHEN kinds LIKE '%,has expression of concern,%' THEN 'expression-of-concern'
          WHEN kinds LIKE '%,has correction,%' OR kinds LIKE '%,has erratum,%' THEN 'correction'
          ELSE 'none'
        END,
        kinds, fetched_at
      FROM service_notices WHERE found = 1;
    `);
  },
};
