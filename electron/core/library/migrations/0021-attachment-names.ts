import { basename } from 'node:path';
import type { Migration } from './index';

// The name a file had when it was attached. A PDF copied into the library folder is stored under its
// checksum (ab/ab12….pdf), so without this the "Needs review" list and a missing-file message could
// only show that name. Filled for the attachments already there: a linked file's name is its path's;
// a copied one's is known only when the watched folder recorded the file it came from (same
// checksum), and stays NULL otherwise.
export const m0021AttachmentNames: Migration = {
  version: 21,
  name: 'attachment-names',
  up(db) {
    db.exec('ALTER TABLE attachments ADD COLUMN original_name TEXT');
    const set = db.prepare('UPDATE attachments SET original_name = ? WHERE id = ?');
    const linked = db.prepare("SELECT id, path FROM attachments WHERE stored = 'linked'").all() as {
      id: number;
      path: string;
    }[];
    for (const a of linked) set.run(basename(a.path), a.id);
    const copied = db
      .prepare(
        "SELECT a.id, (SELECT w.path FROM pdf_watch_files w WHERE w.sha256 = a.sha256 ORDER BY w.seen_at LIMIT 1) AS source FROM attachments a WHERE a.stored = 'copied' AND a.sha256 IS NOT NULL",
      )
      .all() as { id: number; source: string | null }[];
    for (const a of copied) if (a.source !== null) set.run(basename(a.source), a.id);
  },
};
