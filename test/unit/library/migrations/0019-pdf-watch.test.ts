import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0019 pdf watch', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('keeps a populated version-18 database as it was, and then remembers watched files by path and checksum', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 18);
    const before = h.db.prepare('SELECT id, title FROM items ORDER BY id').raw().all();
    migrateTo(h.db, 19);
    expect(h.db.prepare('SELECT id, title FROM items ORDER BY id').raw().all()).toEqual(before);
    expect(() =>
      h.db.prepare("INSERT INTO pdf_watch_files VALUES ('/in/a.pdf', '/in', 1, 1, NULL, 'lost', NULL, NULL, 1)").run(),
    ).toThrow(/CHECK/);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      const row = {
        path: '/in/a.pdf',
        folder: '/in',
        size: 10,
        mtimeMs: 1000.7,
        sha256: 'abc',
        outcome: 'added' as const,
        itemId: 1,
        message: null,
        seenAt: 5,
      };
      lib.recordWatchedFile(row);
      lib.recordWatchedFile({
        ...row,
        path: '/in/b.pdf',
        sha256: null,
        outcome: 'failed',
        itemId: null,
        message: 'b.pdf was not added: it is empty.',
      });
      lib.recordWatchedFile({ ...row, path: '/elsewhere/c.pdf', folder: '/elsewhere', sha256: 'def' });
      expect(lib.watchedFiles('/in').map((f) => [f.path, f.mtimeMs, f.outcome])).toEqual([
        ['/in/a.pdf', 1000, 'added'],
        ['/in/b.pdf', 1000, 'failed'],
      ]);
      expect(lib.watchCounts('/in')).toEqual({ captured: 1, failed: 1 });
      expect(lib.watchCounts('/nowhere')).toEqual({ captured: 0, failed: 0 });
      expect([lib.watchedChecksum('abc'), lib.watchedChecksum('def'), lib.watchedChecksum('zzz')]).toEqual([
        true,
        true,
        false,
      ]);
      // Seen again with a new size: one row per path, updated.
      lib.recordWatchedFile({ ...row, size: 11, outcome: 'duplicate', itemId: null });
      expect(lib.watchedFiles('/in')[0]).toMatchObject({ size: 11, outcome: 'duplicate' });
    } finally {
      opened.close();
    }
  });
});
