import type { Migration } from './index';

// The files the watched folder (Settings → Watch a folder) has shown Citewise, so a restart does not
// capture them again: by path with the size and modification time they had (unchanged: not read
// again), and by checksum (the same file renamed or copied: not captured again). A file that failed
// is kept with its reason, so it is reported once rather than retried at every scan.
export const m0019PdfWatch: Migration = {
  version: 19,
  name: 'pdf-watch',
  up(db) {
    db.exec(`
      CREATE TABLE pdf_watch_files (
        path     TEXT PRIMARY KEY,
        folder   TEXT NOT NULL,
        size     INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        sha256   TEXT,
        outcome  TEXT NOT NULL CHECK (outcome IN ('added', 'attached', 'duplicate', 'failed')),
        item_id  INTEGER,
        message  TEXT,
        seen_at  INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX pdf_watch_files_by_folder ON pdf_watch_files(folder);
      CREATE INDEX pdf_watch_files_by_sha256 ON pdf_watch_files(sha256) WHERE sha256 IS NOT NULL;
    `);
  },
};
