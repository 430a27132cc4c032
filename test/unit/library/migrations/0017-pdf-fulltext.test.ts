import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0017 pdf full text', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('leaves a populated version-16 database alone, and then indexes, finds and clears PDF pages apart from items_fts', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 16);
    h.db.prepare("UPDATE attachments SET sha256 = 'aaa', size = 10").run();
    migrateTo(h.db, 17);
    expect(h.db.prepare('SELECT count(*) FROM pdf_text_fts').pluck().get()).toBe(0);
    expect(() => h.db.prepare("INSERT INTO pdf_text_state VALUES ('x', 'maybe', 1, 1, NULL, 1)").run()).toThrow(
      /CHECK/,
    );
    expect(() => h.db.prepare("INSERT INTO pdf_text_state VALUES ('x', 'indexed', -1, 1, NULL, 1)").run()).toThrow(
      /CHECK/,
    );
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const ft = opened.fulltext;
      // The attachment from before the migration waits to be read.
      expect(ft.pending()).toEqual([{ sha256: 'aaa', path: '/a.pdf', size: 10 }]);
      ft.record({
        sha256: 'aaa',
        status: 'indexed',
        pageCount: 3,
        pages: [
          { page: 1, text: 'Introduction to the study of ribosomes.' },
          { page: 2, text: 'Here we measured gene expression in yeast; the gene expression changed.' },
          { page: 3, text: '' },
        ],
        note: 'no text layer on 1 page',
      });
      expect(ft.pending()).toEqual([]);
      // A second record of the same checksum is refused and leaves nothing behind.
      expect(() =>
        ft.record({ sha256: 'aaa', status: 'indexed', pageCount: 1, pages: [{ page: 1, text: 'more' }], note: null }),
      ).toThrow(/already indexed/);
      expect(opened.db.prepare('SELECT count(*) FROM pdf_text_fts').pluck().get()).toBe(2);
      expect(ft.summary()).toEqual({
        pdfs: 1,
        byStatus: { indexed: 1, 'no-text': 0, 'too-big': 0, unreadable: 0 },
        pending: 0,
        pages: 2,
      });
      expect(ft.notes()).toEqual([{ itemId: 1, sha256: 'aaa', status: 'indexed', note: 'no text layer on 1 page' }]);

      // fulltext: searches the pages, not the items' fields, and the other way round.
      const ids = (query: string) => opened.library.listing.list({ query }).rows.map((r) => r.id);
      expect(ids('fulltext:"gene expression"')).toEqual([1]);
      expect(ids('fulltext:ribosom')).toEqual([1]);
      expect(ids('fulltext:"expression gene"')).toEqual([]);
      expect(ids('"gene expression"')).toEqual([]);
      expect(ids('fulltext:deep')).toEqual([]);
      expect(ids('deep fulltext:yeast')).toEqual([1]);
      expect(ids('book OR fulltext:yeast').sort()).toEqual([1, 2]);
      expect(ids('-fulltext:yeast')).toEqual([2]);
      expect(opened.library.listing.count({ query: 'fulltext:yeast' })).toBe(1);

      expect(ft.hits('fulltext:"gene expression"', [1, 2])).toEqual([
        {
          itemId: 1,
          attachmentId: opened.db.prepare('SELECT id FROM attachments WHERE item_id = 1').pluck().get(),
          page: 2,
          snippet: 'Here we measured «gene expression» in yeast; the «gene expression» changed.',
        },
      ]);
      expect(ft.hits('author:müller', [1])).toEqual([]);

      ft.clear();
      expect(ft.pending()).toHaveLength(1);
      expect(ids('fulltext:yeast')).toEqual([]);
      // The items' own index is untouched.
      expect(ids('deep')).toEqual([1]);
    } finally {
      opened.close();
    }
  });
});
