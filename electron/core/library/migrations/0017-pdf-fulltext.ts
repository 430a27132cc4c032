import type { Migration } from './index';

// The full text of attached PDFs, kept apart from the items' search index (items_fts) so either can be
// rebuilt without the other. Text is stored per page and keyed by the PDF's SHA-256, not by attachment:
// the same file attached twice is read once, and a page hit names its page. pdf_text_state records, per
// checksum, what indexing made of the file (indexed, no text at all, too big, unreadable) and a note for
// the user (e.g. "no text layer on 3 pages"), so an interrupted run resumes by skipping what it holds.
// The checksum and page come before the text: finding a match's file then reads a few bytes of its row,
// not the page's text (a page runs to kilobytes, on overflow pages SQLite reads only when asked).
export const m0017PdfFulltext: Migration = {
  version: 17,
  name: 'pdf-fulltext',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE pdf_text_fts USING fts5(
        sha256 UNINDEXED,
        page UNINDEXED,
        text,
        tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TABLE pdf_text_state (
        sha256      TEXT PRIMARY KEY,
        status      TEXT NOT NULL CHECK (status IN ('indexed', 'no-text', 'too-big', 'unreadable')),
        page_count  INTEGER NOT NULL CHECK (page_count >= 0),
        text_pages  INTEGER NOT NULL CHECK (text_pages >= 0),
        note        TEXT,
        indexed_at  INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
