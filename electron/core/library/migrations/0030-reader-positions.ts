import type { Migration } from './index';

// Where the reader (docs/reader.md) left each PDF: the page last shown, so a file opens where it was
// left. Keyed by the file, not the attachment: the file's SHA-256 (the same PDF attached to two items
// is one reading), or `path:` and its path for an attachment recorded without a checksum. A file's
// position goes with its last attachment, as its full text does (migration 0018).
export const m0030ReaderPositions: Migration = {
  version: 30,
  name: 'reader-positions',
  up(db) {
    db.exec(`
      CREATE TABLE reader_positions (
        file_key TEXT PRIMARY KEY,
        page     INTEGER NOT NULL CHECK (page >= 1),
        read_at  INTEGER NOT NULL
      ) STRICT;

      CREATE TRIGGER reader_positions_drop_file AFTER DELETE ON attachments
      WHEN NOT EXISTS (SELECT 1 FROM attachments WHERE sha256 IS old.sha256 AND (old.sha256 IS NOT NULL OR path = old.path))
      BEGIN
        DELETE FROM reader_positions
        WHERE file_key = CASE WHEN old.sha256 IS NOT NULL THEN old.sha256 ELSE 'path:' || old.path END;
      END;
    `);
  },
};
