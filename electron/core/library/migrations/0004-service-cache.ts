import type { Migration } from './index';

// Data from the Citation and Literature Data Service, keyed by normalised DOI (journal notices by
// ISSN), each row with its fetch time. `found = 0` records that the service does not know the DOI,
// which is not the same as zero tallies; no row at all means "not fetched".
// The tallies are also copied onto items (by triggers, so the cache stays the one source of truth) so
// that sorting by supporting/contrasting/mentioning/citing walks an index like every other column.
// A new item takes its tallies in its INSERT (a per-row trigger there was measured to slow imports).
export const m0004ServiceCache: Migration = {
  version: 4,
  name: 'service-cache',
  up(db) {
    db.exec(`
      CREATE TABLE service_papers (
        doi        TEXT PRIMARY KEY,
        found      INTEGER NOT NULL CHECK (found IN (0, 1)),
        data       TEXT,
        fetched_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE service_paper_links (
        doi        TEXT NOT NULL,
        linked_doi TEXT NOT NULL,
        kind       TEXT NOT NULL CHECK (kind IN ('preprint', 'publication')),
        PRIMARY KEY (doi, linked_doi, kind)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX service_paper_links_by_linked ON service_paper_links(linked_doi);

      CREATE TABLE service_tallies (
        doi                 TEXT PRIMARY KEY,
        found               INTEGER NOT NULL CHECK (found IN (0, 1)),
        total               INTEGER,
        supporting          INTEGER,
        contrasting         INTEGER,
        mentioning          INTEGER,
        unclassified        INTEGER,
        citing_publications INTEGER,
        fetched_at          INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE service_statements (
        doi        TEXT PRIMARY KEY,
        found      INTEGER NOT NULL CHECK (found IN (0, 1)),
        data       TEXT,
        fetched_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE service_notices (
        doi        TEXT PRIMARY KEY,
        found      INTEGER NOT NULL CHECK (found IN (0, 1)),
        retracted  INTEGER CHECK (retracted IN (0, 1)),
        notice_count INTEGER NOT NULL DEFAULT 0,
        -- ",retracted,has correction," so a query can test for one kind without parsing JSON.
        kinds      TEXT NOT NULL DEFAULT ',',
        data       TEXT,
        fetched_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX service_notices_retracted ON service_notices(doi) WHERE retracted = 1;

      CREATE TABLE service_journal_notices (
        issn       TEXT PRIMARY KEY,
        found      INTEGER NOT NULL CHECK (found IN (0, 1)),
        data       TEXT,
        fetched_at INTEGER NOT NULL
      ) STRICT;

      ALTER TABLE items ADD COLUMN supporting INTEGER;
      ALTER TABLE items ADD COLUMN contrasting INTEGER;
      ALTER TABLE items ADD COLUMN mentioning INTEGER;
      ALTER TABLE items ADD COLUMN citing INTEGER;
      -- Partial: most items have no tallies when imported, so inserting them costs these indexes nothing.
      CREATE INDEX items_by_supporting ON items(supporting, id) WHERE supporting IS NOT NULL;
      CREATE INDEX items_by_contrasting ON items(contrasting, id) WHERE contrasting IS NOT NULL;
      CREATE INDEX items_by_mentioning ON items(mentioning, id) WHERE mentioning IS NOT NULL;
      CREATE INDEX items_by_citing ON items(citing, id) WHERE citing IS NOT NULL;

      CREATE TRIGGER service_tallies_ai AFTER INSERT ON service_tallies BEGIN
        UPDATE items SET
          supporting  = CASE WHEN NEW.found = 1 THEN NEW.supporting END,
          contrasting = CASE WHEN NEW.found = 1 THEN NEW.contrasting END,
          mentioning  = CASE WHEN NEW.found = 1 THEN NEW.mentioning END,
          citing      = CASE WHEN NEW.found = 1 THEN NEW.citing_publications END
        WHERE doi = NEW.doi;
      END;
      CREATE TRIGGER service_tallies_au AFTER UPDATE ON service_tallies BEGIN
        UPDATE items SET
          supporting  = CASE WHEN NEW.found = 1 THEN NEW.supporting END,
          contrasting = CASE WHEN NEW.found = 1 THEN NEW.contrasting END,
          mentioning  = CASE WHEN NEW.found = 1 THEN NEW.mentioning END,
          citing      = CASE WHEN NEW.found = 1 THEN NEW.citing_publications END
        WHERE doi = NEW.doi;
      END;
      CREATE TRIGGER service_tallies_ad AFTER DELETE ON service_tallies BEGIN
        UPDATE items SET supporting = NULL, contrasting = NULL, mentioning = NULL, citing = NULL WHERE doi = OLD.doi;
      END;
      CREATE TRIGGER items_tallies_au AFTER UPDATE OF doi ON items
        WHEN NEW.doi IS NOT OLD.doi BEGIN
        UPDATE items SET (supporting, contrasting, mentioning, citing) =
          (SELECT t.supporting, t.contrasting, t.mentioning, t.citing_publications FROM service_tallies t WHERE t.doi = NEW.doi AND t.found = 1)
        WHERE id = NEW.id;
      END;
    `);
  },
};
