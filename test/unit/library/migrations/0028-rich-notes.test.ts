import { afterEach, describe, expect, it } from 'vitest';
import { m0028RichNotes } from '../../../../electron/core/library/migrations/0028-rich-notes';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

const VERSION = m0028RichNotes.version;

describe('migration rich notes', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('turns the plain notes of a populated library into paragraphs, keeps their text searchable, and changes nothing else', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, VERSION - 1);
    h.db
      .prepare('INSERT INTO notes (item_id, body, created_at, modified_at) VALUES (1, ?, 5, 6)')
      .run('Line one\nline <two> & more\n\nSecond paragraph');
    const items = h.db.prepare('SELECT * FROM items ORDER BY id').all();
    const stamps = h.db.prepare('SELECT id, item_id, created_at, modified_at FROM notes ORDER BY id').all();
    migrateTo(h.db, VERSION);
    expect(h.db.prepare('SELECT body, text FROM notes ORDER BY id').all()).toEqual([
      { body: '<p>A seminal note</p>', text: 'A seminal note' },
      {
        body: '<p>Line one<br>line &lt;two&gt; &amp; more</p><p>Second paragraph</p>',
        text: 'Line one\nline <two> & more\n\nSecond paragraph',
      },
    ]);
    expect(h.db.prepare('SELECT * FROM items ORDER BY id').all()).toEqual(items);
    expect(h.db.prepare('SELECT id, item_id, created_at, modified_at FROM notes ORDER BY id').all()).toEqual(stamps);
    expect(h.db.pragma('integrity_check', { simple: true })).toEqual('ok');
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.getItem(1).notes.map((n) => n.text)).toEqual(['Line one\nline <two> & more\n\nSecond paragraph']);
      // A note written after the migration is found by its words, not by its markup.
      lib.updateNote(1, '<h2>Seminal</h2><p>the <strong>ribosome</strong> paper</p>');
      expect(lib.listing.list({ query: 'note:ribosome', limit: 10 }).rows.map((r) => r.id)).toEqual([2]);
      expect(lib.listing.list({ query: 'note:strong', limit: 10 }).rows).toEqual([]);
    } finally {
      opened.close();
    }
  });
});
