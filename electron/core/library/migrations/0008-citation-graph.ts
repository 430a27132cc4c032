import type { Migration } from './index';

// The citation graph's store. Statements fetched for the graph are kept per direction they were
// fetched in ('citing': from the statements toward `target`, paged; 'references': from the statements
// `source` makes), keyed by normalised DOIs, each with its fetch time, so a graph reopens offline.
// Paper metadata and tallies of the graph's papers go to the service cache of migration 0004.
// graph_fetches records how far each paper's expansion got, so paging resumes where it stopped.
// Saved graphs keep their seed and their papers; their edges are read back from the statements.
export const m0008CitationGraph: Migration = {
  version: 8,
  name: 'citation-graph',
  up(db) {
    db.exec(`
      CREATE TABLE graph_statements (
        origin     TEXT NOT NULL CHECK (origin IN ('citing', 'references')),
        source     TEXT NOT NULL,
        target     TEXT NOT NULL,
        key        TEXT NOT NULL,
        type       TEXT CHECK (type IS NULL OR type IN ('supporting', 'contrasting', 'mentioning')),
        section    TEXT,
        self_cite  INTEGER NOT NULL DEFAULT 0 CHECK (self_cite IN (0, 1)),
        snippet    TEXT,
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (origin, target, source, key)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX graph_statements_by_source ON graph_statements(source, target);

      CREATE TABLE graph_fetches (
        doi        TEXT NOT NULL,
        direction  TEXT NOT NULL CHECK (direction IN ('citing', 'references')),
        fetched    INTEGER NOT NULL CHECK (fetched >= 0),
        total      INTEGER NOT NULL CHECK (total >= 0),
        histogram  TEXT,
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (doi, direction)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE graphs (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        seed       TEXT NOT NULL,
        seed_dois  TEXT NOT NULL,
        dois       TEXT NOT NULL,
        node_count INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX graphs_by_name ON graphs(name COLLATE NOCASE);
    `);
  },
};
