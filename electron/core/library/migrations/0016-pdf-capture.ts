import type { Migration } from './index';

// PDF capture: an attachment is either copied into the library folder (content-addressed by SHA-256)
// or linked where it is; its checksum finds a PDF already in the library. pdf_captures keeps, per
// captured attachment, how the item was identified (which step, from which string), how sure that is,
// and the candidates of an unsure match for the "Needs review" view. Attachments from before were all
// paths the user typed, so they are linked.
export const m0016PdfCapture: Migration = {
  version: 16,
  name: 'pdf-capture',
  up(db) {
    db.exec(`
      ALTER TABLE attachments ADD COLUMN stored TEXT NOT NULL DEFAULT 'linked' CHECK (stored IN ('linked', 'copied'));
      CREATE INDEX attachments_by_sha256 ON attachments(sha256) WHERE sha256 IS NOT NULL;
      CREATE TABLE pdf_captures (
        attachment_id INTEGER PRIMARY KEY REFERENCES attachments(id) ON DELETE CASCADE,
        item_id       INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        method        TEXT NOT NULL CHECK (method IN ('xmp', 'info', 'text', 'title-search', 'none')),
        state         TEXT NOT NULL CHECK (state IN ('identified', 'needs-review', 'pending', 'kept')),
        confidence    REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
        evidence      TEXT NOT NULL CHECK (json_valid(evidence)),
        candidates    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(candidates)),
        captured_at   INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX pdf_captures_by_item ON pdf_captures(item_id);
      CREATE INDEX pdf_captures_unsettled ON pdf_captures(state) WHERE state <> 'identified';
    `);
  },
};
