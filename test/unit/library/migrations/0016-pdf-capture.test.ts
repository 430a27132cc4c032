import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';
import { capturesIn } from '../../../helpers/captures';

describe('migration 0016 pdf capture', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('keeps the attachments of a populated version-15 database as linked files, and then stores captures with their evidence', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 15);
    migrateTo(h.db, 16);
    expect(h.db.prepare('SELECT item_id, path, stored FROM attachments').raw().all()).toEqual([
      [1, '/a.pdf', 'linked'],
    ]);
    expect(() => h.db.prepare("UPDATE attachments SET stored = 'moved'").run()).toThrow(/CHECK/);
    expect(() =>
      h.db.prepare("INSERT INTO pdf_captures VALUES (1, 1, 'text', 'identified', 1.5, '[]', '[]', 1)").run(),
    ).toThrow(/CHECK/);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      const stored = lib.capturePdf({
        csl: { id: 'x', type: 'article-journal', title: 'A captured paper', DOI: '10.1234/cap.1' },
        attachment: { path: '/lib/ab/abc.pdf', sha256: 'abc', size: 3, stored: 'copied' },
        method: 'text',
        state: 'identified',
        confidence: 0.9,
        evidence: [{ method: 'text', matched: '10.1234/cap.1', page: 1 }],
        candidates: [],
      });
      expect(stored.status).toBe('added');
      const itemId = (stored as { itemId: number }).itemId;
      expect(capturesIn(opened.db, itemId)).toMatchObject([
        { method: 'text', state: 'identified', confidence: 0.9, evidence: [{ matched: '10.1234/cap.1', page: 1 }] },
      ]);
      expect(lib.attachmentBySha256('abc')).toMatchObject({ itemId });
      // The same content again is the same PDF.
      expect(
        lib.capturePdf({
          csl: { id: 'y', type: 'article-journal', title: 'Other' },
          attachment: { path: '/elsewhere.pdf', sha256: 'abc', size: 3, stored: 'linked' },
          method: 'none',
          state: 'needs-review',
          confidence: 0,
          evidence: [],
          candidates: [],
        }),
      ).toEqual({
        status: 'duplicate',
        itemId,
        reason: 'checksum',
      });
      // Undo of an edit puts the item back with its capture evidence.
      lib.updateItem(itemId, { ...lib.getItem(itemId).csl, title: 'Edited' });
      lib.undo();
      expect(capturesIn(opened.db, itemId)).toHaveLength(1);
    } finally {
      opened.close();
    }
  });
});
