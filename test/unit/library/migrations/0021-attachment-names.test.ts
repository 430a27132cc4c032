import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0021 attachment names', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it("names a version-20 library's attachments where it can: linked ones from their path, copies from the watched file they came from", () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 20);
    // A copy the watched folder captured (its source is on record) and one added through Add → PDFs… (not).
    h.db.exec(`
      INSERT INTO attachments (id, item_id, path, sha256, size, mime, added_at, stored) VALUES
        (2, 2, '/data/attachments/ab/abc.pdf', 'abc', 3, 'application/pdf', 2, 'copied'),
        (3, 1, '/data/attachments/de/def.pdf', 'def', 3, 'application/pdf', 3, 'copied');
      INSERT INTO pdf_watch_files VALUES ('/inbox/Watson and Crick 1953.pdf', '/inbox', 3, 1, 'abc', 'added', 2, NULL, 1);
    `);
    const before = h.db
      .prepare('SELECT id, item_id, path, sha256, size, stored FROM attachments ORDER BY id')
      .raw()
      .all();
    migrateTo(h.db, 21);
    expect(
      h.db.prepare('SELECT id, item_id, path, sha256, size, stored FROM attachments ORDER BY id').raw().all(),
    ).toEqual(before);
    expect(h.db.prepare('SELECT id, original_name FROM attachments ORDER BY id').raw().all()).toEqual([
      [1, 'a.pdf'],
      [2, 'Watson and Crick 1953.pdf'],
      [3, null],
    ]);
    h.db.close();

    // From here on, captures store the name the file had, and items show it with how the file is kept.
    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      const stored = lib.capturePdf({
        csl: { id: 'x', type: 'article-journal', title: 'A captured paper' },
        attachment: {
          path: '/data/attachments/12/123.pdf',
          sha256: '123',
          size: 3,
          stored: 'copied',
          originalName: 'franklin-photo51.pdf',
        },
        method: 'none',
        state: 'needs-review',
        confidence: 0,
        evidence: [],
        candidates: [],
      });
      const itemId = (stored as { itemId: number }).itemId;
      expect(lib.getItem(itemId).attachments).toEqual([
        expect.objectContaining({
          path: '/data/attachments/12/123.pdf',
          stored: 'copied',
          originalName: 'franklin-photo51.pdf',
        }),
      ]);
      expect(lib.getItem(1).attachments).toEqual([
        expect.objectContaining({ id: 1, stored: 'linked', originalName: 'a.pdf' }),
        expect.objectContaining({ id: 3, stored: 'copied', originalName: null }),
      ]);
      const linked = lib.addAttachment(2, { path: '/papers/Smith 1999.pdf' });
      expect(lib.getItem(2).attachments.find((a) => a.id === linked)).toMatchObject({
        stored: 'linked',
        originalName: 'Smith 1999.pdf',
      });
    } finally {
      opened.close();
    }
  });
});
