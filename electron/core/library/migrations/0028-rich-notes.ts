import type { Migration } from './index';
import { noteText, toNoteHtml } from '../../../../shared/model/note-html';

// Rich notes: a note's body is HTML kept to the note allowlist (shared/model/note-html.ts), and its
// text sits beside it for full-text search, titles and plain-text formats. Notes written before were
// plain text: each becomes paragraphs (a blank line a paragraph, a line break a <br>), so they read
// and search as before.
export const m0028RichNotes: Migration = {
  version: 28,
  name: 'rich-notes',
  up(db) {
    db.exec(`ALTER TABLE notes ADD COLUMN text TEXT NOT NULL DEFAULT ''`);
    const update = db.prepare('UPDATE notes SET body = ?, text = ? WHERE id = ?');
    // .all(): better-sqlite3 runs no other statement while an iteration is open.
    for (const row of db.prepare('SELECT id, body FROM notes').all() as { id: number; body: string }[]) {
      const body = toNoteHtml(row.body);
      update.run(body, noteText(body), row.id);
    }
  },
};
