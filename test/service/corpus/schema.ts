// The local service's own database. Compact on purpose: what can be regenerated from (seed, id) —
// citation snippets, confidence scores, evidence documents' long text — is regenerated on read.
import type Database from 'better-sqlite3';

export const SCHEMA_VERSION = 9;

export const TABLES = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE journals (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, short TEXT NOT NULL, slug TEXT NOT NULL, code TEXT NOT NULL,
  publisher TEXT NOT NULL, member_id INTEGER NOT NULL, prefix TEXT NOT NULL,
  issn_print TEXT NOT NULL, issn_e TEXT, field INTEGER NOT NULL, first_year INTEGER NOT NULL, quality REAL NOT NULL
) STRICT;
CREATE TABLE affiliations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, slug TEXT NOT NULL) STRICT;
CREATE TABLE authors (
  id INTEGER PRIMARY KEY, given TEXT NOT NULL, family TEXT NOT NULL, slug TEXT NOT NULL, orcid TEXT,
  affiliation_id INTEGER, field INTEGER NOT NULL, created_at TEXT NOT NULL
) STRICT;
CREATE TABLE papers (
  id INTEGER PRIMARY KEY, doi TEXT NOT NULL, slug TEXT NOT NULL, title TEXT NOT NULL, abstract TEXT, keywords TEXT,
  year INTEGER NOT NULL, month INTEGER NOT NULL, day INTEGER NOT NULL, journal_id INTEGER NOT NULL,
  volume TEXT NOT NULL, issue TEXT, page TEXT NOT NULL, type TEXT NOT NULL, ntypes TEXT NOT NULL, pm_type TEXT,
  field INTEGER NOT NULL, retracted INTEGER NOT NULL, notice_flags INTEGER NOT NULL,
  preprint_doi TEXT, published_doi TEXT,
  author_ids TEXT NOT NULL, aff_ids TEXT NOT NULL,
  -- The authors' display fields, denormalised so a paper is one row read: given US family US slug US orcid US lastAffiliation, RS between authors.
  authors_c TEXT NOT NULL,
  t_sup INTEGER NOT NULL, t_con INTEGER NOT NULL, t_men INTEGER NOT NULL, t_unc INTEGER NOT NULL, t_citing INTEGER NOT NULL,
  c_sup INTEGER NOT NULL, c_con INTEGER NOT NULL, c_men INTEGER NOT NULL, c_unc INTEGER NOT NULL, c_cited INTEGER NOT NULL
) STRICT;
CREATE TABLE paper_authors (author_id INTEGER NOT NULL, paper_id INTEGER NOT NULL) STRICT;
CREATE TABLE notices (paper_id INTEGER NOT NULL, status TEXT NOT NULL, date TEXT NOT NULL, notice_doi TEXT NOT NULL) STRICT;
CREATE TABLE refs (target INTEGER NOT NULL, source INTEGER NOT NULL, PRIMARY KEY (target, source)) STRICT, WITHOUT ROWID;
-- kind = type | section << 2 | selfCite << 5
CREATE TABLE citations (target INTEGER NOT NULL, id INTEGER NOT NULL, source INTEGER NOT NULL, kind INTEGER NOT NULL, PRIMARY KEY (target, id)) STRICT, WITHOUT ROWID;
CREATE TABLE evidence (
  dataset TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL, text TEXT NOT NULL,
  sort1 REAL, sort2 REAL, sort3 REAL, sort4 REAL, sort5 REAL,
  PRIMARY KEY (dataset, id)
) STRICT;
CREATE TABLE evidence_fields (dataset TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL, display TEXT NOT NULL, rid INTEGER NOT NULL) STRICT;
`;

export const INDEXES = `
CREATE UNIQUE INDEX papers_doi ON papers(doi);
CREATE INDEX papers_date ON papers(year, month, day);
-- Sorting search results without a term walks these instead of sorting the whole table.
CREATE INDEX papers_citing ON papers(t_citing);
CREATE INDEX papers_total ON papers((t_sup + t_con + t_men + t_unc));
CREATE INDEX papers_sup ON papers(t_sup);
CREATE INDEX papers_con ON papers(t_con);
CREATE INDEX papers_men ON papers(t_men);
CREATE INDEX papers_slug ON papers(slug);
CREATE INDEX paper_authors_author ON paper_authors(author_id, paper_id);
CREATE UNIQUE INDEX authors_slug ON authors(slug);
CREATE INDEX notices_paper ON notices(paper_id);
CREATE INDEX citations_source ON citations(source);
CREATE INDEX refs_source ON refs(source);
CREATE INDEX journals_issn_print ON journals(issn_print);
CREATE INDEX journals_issn_e ON journals(issn_e);
CREATE INDEX evidence_seq ON evidence(dataset, seq);
CREATE INDEX evidence_fields_value ON evidence_fields(dataset, field, value, rid);
CREATE INDEX evidence_fields_rid ON evidence_fields(rid);
CREATE VIRTUAL TABLE papers_fts USING fts5(title, abstract, keywords, content='papers', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
INSERT INTO papers_fts(papers_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE evidence_fts USING fts5(text, content='evidence', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
`;

export function createSchema(db: Database.Database): void {
  db.exec(TABLES);
}
