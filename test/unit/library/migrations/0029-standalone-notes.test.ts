import { afterEach, describe, expect, it } from 'vitest';
import { m0029StandaloneNotes } from '../../../../electron/core/library/migrations/0029-standalone-notes';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

const VERSION = m0029StandaloneNotes.version;
// What the Zotero data-folder import wrote for a standalone note before there were note items.
const IMPORTED = JSON.stringify({
  id: 'NOTEBBBB',
  type: 'document',
  title: 'Standalone: ideas for chapter 2',
  custom: { zotero: { itemType: 'note' } },
});

describe('migration standalone notes', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('makes what a Zotero import made of a standalone note a note item, and nothing else', () => {
    h = databaseAt(2);
    populateV2(h.db);
    const insert = h.db.prepare(
      `INSERT INTO items (id, type, citation_key, title, title_sort, date_added, date_modified, csl) VALUES (?, 'document', ?, ?, ?, 3, 4, ?)`,
    );
    insert.run(10, 'standaloneIdeas', 'Standalone: ideas for chapter 2', 'standalone ideas for chapter 2', IMPORTED);
    // The same mark on a record with a field of its own (a user's edit): not recognised, left as it is.
    insert.run(
      11,
      'edited',
      'Edited',
      'edited',
      JSON.stringify({ ...JSON.parse(IMPORTED), title: 'Edited', publisher: 'Self' }),
    );
    // A standalone attachment's item (the other kind that import made): never a note.
    insert.run(
      12,
      'attach',
      'Scan',
      'scan',
      JSON.stringify({ id: 'ATTX', type: 'document', title: 'Scan', custom: { zotero: { itemType: 'attachment' } } }),
    );
    // An ordinary document with one note.
    insert.run(13, 'doc', 'Doc', 'doc', JSON.stringify({ id: 'doc', type: 'document', title: 'Doc' }));
    const note = h.db.prepare('INSERT INTO notes (item_id, body, created_at, modified_at) VALUES (?, ?, 5, 6)');
    for (const id of [10, 11, 12, 13]) note.run(id, `Note of ${id}`);
    migrateTo(h.db, VERSION - 1);
    const before = h.db.prepare('SELECT * FROM items ORDER BY id').all() as { id: number; type: string }[];
    const notesBefore = h.db.prepare('SELECT * FROM notes ORDER BY id').all();
    migrateTo(h.db, VERSION);

    const after = h.db.prepare('SELECT * FROM items ORDER BY id').all() as { id: number; type: string }[];
    expect(after).toEqual(before.map((r) => (r.id === 10 ? { ...r, type: 'note' } : r)));
    expect(JSON.parse(h.db.prepare('SELECT csl FROM item_csl WHERE item_id = 10').pluck().get() as string)).toEqual({
      id: 'NOTEBBBB',
      type: 'note',
      title: 'Standalone: ideas for chapter 2',
    });
    for (const id of [11, 12])
      expect(
        JSON.parse(h.db.prepare('SELECT csl FROM item_csl WHERE item_id = ?').pluck().get(id) as string).type,
      ).toBe('document');
    expect(h.db.prepare('SELECT * FROM notes ORDER BY id').all()).toEqual(notesBefore);
    expect(h.db.pragma('integrity_check', { simple: true })).toEqual('ok');
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.getItem(10)).toMatchObject({ type: 'note', citationKey: 'standaloneIdeas' });
      expect(lib.noteItemIds([1, 2, 10, 11, 12, 13])).toEqual([10]);
      // Its note now carries the title: an edit retitles it.
      lib.updateNote(lib.getItem(10).notes[0]!.id, '<p>Chapter two, revised</p>');
      expect(lib.getItem(10).title).toBe('Chapter two, revised');
    } finally {
      opened.close();
    }
  });
});
