import type { Migration } from './index';

// Where each full-text page is, apart from its text: pdf_text_pages has one narrow row per row of
// pdf_text_fts (the same rowid) with the file's checksum and the page. Finding the files of a match
// then reads this table (about 50 rows per database page) instead of each match's content row, which
// FTS5 reads one statement step at a time: for a word on all 10,000 pages of 1,000 PDFs that was
// 340 ms, against 13 ms for the match itself.
// A file's pages and state are removed with its last attachment (a trigger, so removing an
// attachment, purging an item and undoing an add all do it); before this they stayed until a rebuild.
export const m0018PdfTextPages: Migration = {
  version: 18,
  name: 'pdf-text-pages',
  up(db) {
    db.exec(`
      CREATE TABLE pdf_text_pages (
        id     INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL,
        page   INTEGER NOT NULL
      ) STRICT;
      INSERT INTO pdf_text_pages (id, sha256, page) SELECT rowid, sha256, page FROM pdf_text_fts ORDER BY rowid;
      CREATE INDEX pdf_text_pages_by_sha256 ON pdf_text_pages(sha256);

      -- Files no attachment holds any more (left behind before this migration).
      DELETE FROM pdf_text_fts WHERE rowid IN (SELECT id FROM pdf_text_pages WHERE sha256 NOT IN (SELECT sha256 FROM attachments WHERE sha256 IS NOT NULL));
      DELETE FROM pdf_text_pages WHERE sha256 NOT IN (SELECT sha256 FROM attachments WHERE sha256 IS NOT NULL);
      DELETE FROM pdf_text_state WHERE sha256 NOT IN (SELECT sha256 FROM attachments WHERE sha256 IS NOT NULL);

      CREATE TRIGGER pdf_text_drop_file AFTER DELETE ON attachments
      WHEN old.sha256 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM attachments WHERE sha256 = old.sha256)
      BEGIN
        DELETE FROM pdf_text_fts WHERE rowid IN (SELECT id FROM pdf_text_pages WHERE sha256 = old.sha256);
        DELETE FROM pdf_text_pages WHERE sha256 = old.sha256;
        DELETE FROM pdf_text_state WHERE sha256 = old.sha256;
      END;
    `);
  },
};
