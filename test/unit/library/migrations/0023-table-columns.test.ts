import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0023 table columns', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it("gives a version-22 library's items their publisher, pages, Extra and counts to sort by, and keeps the counts right after", () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 22);
    h.db.exec(`
      UPDATE item_csl SET csl = json_set(csl, '$.publisher', 'Éditions du Seuil', '$.page', '233–245', '$.note', 'PMID: 123
tex.howpublished: x') WHERE item_id = 1;
      INSERT INTO notes (item_id, body, created_at, modified_at) VALUES (2, 'Second note', 4, 4);
    `);
    migrateTo(h.db, 23);
    expect(
      h.db
        .prepare(
          'SELECT id, publisher_sort, pages_sort, extra_sort, notes_count, attachments_count FROM items ORDER BY id',
        )
        .raw()
        .all(),
    ).toEqual([
      [1, 'editions du seuil', 233, 'pmid: 123 tex.howpublished: x', 0, 1],
      [2, null, null, null, 2, 0],
    ]);
    const indexes = h.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'items_by_%' ORDER BY name")
      .pluck()
      .all();
    expect(indexes).toEqual(
      expect.arrayContaining([
        'items_by_attachments',
        'items_by_extra',
        'items_by_modified',
        'items_by_notes',
        'items_by_pages',
        'items_by_publisher',
      ]),
    );
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      const row = (id: number) => lib.listing.list({ limit: 10 }).rows.find((r) => r.id === id)!;
      expect(row(1)).toMatchObject({
        publisher: 'Éditions du Seuil',
        pages: '233–245',
        extra: 'PMID: 123',
        notesCount: 0,
        files: { count: 1, pdf: 1 },
      });
      const note = lib.addNote(1, 'A new note');
      lib.addAttachment(1, { path: '/b.txt', mime: 'text/plain' });
      expect(row(1)).toMatchObject({ notesCount: 1, files: { count: 2, pdf: 1 } });
      // Undo puts the item's row back with its old counts, then its notes: counted once, not twice.
      lib.undo();
      lib.undo();
      expect(row(1)).toMatchObject({ notesCount: 0, files: { count: 1, pdf: 1 } });
      lib.redo();
      expect(row(1)).toMatchObject({ notesCount: 1 });
      lib.deleteNote(note);
      expect(row(1)).toMatchObject({ notesCount: 0 });
      // A merge moves notes and attachments to the kept item.
      lib.mergeItems(1, [2]);
      expect(row(1)).toMatchObject({ notesCount: 2, files: { count: 1, pdf: 1 } });
      lib.undo();
      expect(row(2)).toMatchObject({ notesCount: 2 });
      expect(row(1)).toMatchObject({ notesCount: 0 });
    } finally {
      opened.close();
    }
  });
});
