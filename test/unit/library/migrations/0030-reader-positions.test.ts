import { afterEach, describe, expect, it } from 'vitest';
import { m0030ReaderPositions } from '../../../../electron/core/library/migrations/0030-reader-positions';
import { databaseAt, migrateTo, populateV2 } from './helpers';

const VERSION = m0030ReaderPositions.version;

describe('migration reader positions', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it("adds the table, keeps the attachments, and drops a file's position with its last attachment", () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, VERSION - 1);
    const add = h.db.prepare(
      "INSERT INTO attachments (item_id, path, sha256, size, added_at, stored) VALUES (1, ?, ?, 1, 1, 'linked')",
    );
    const twiceA = add.run('/one/a.pdf', 'aaa').lastInsertRowid;
    const twiceB = add.run('/two/a.pdf', 'aaa').lastInsertRowid;
    const once = add.run('/b.pdf', 'bbb').lastInsertRowid;
    const noHash = add.run('/c.pdf', null).lastInsertRowid;
    const before = h.db.prepare('SELECT * FROM attachments ORDER BY id').all();
    migrateTo(h.db, VERSION);
    expect(h.db.prepare('SELECT * FROM attachments ORDER BY id').all()).toEqual(before);

    const remember = h.db.prepare('INSERT INTO reader_positions (file_key, page, read_at) VALUES (?, ?, 5)');
    remember.run('aaa', 4);
    remember.run('bbb', 7);
    remember.run('path:/c.pdf', 2);
    remember.run('path:/a.pdf', 9); // the leftover populateV2 attachment (no checksum)
    expect(() => remember.run('zero', 0)).toThrow(/CHECK/);
    const keys = () => h.db.prepare('SELECT file_key FROM reader_positions ORDER BY file_key').pluck().all();

    // One of two attachments of the same file: the position stays.
    h.db.prepare('DELETE FROM attachments WHERE id = ?').run(twiceA);
    expect(keys()).toEqual(['aaa', 'bbb', 'path:/a.pdf', 'path:/c.pdf']);
    h.db.prepare('DELETE FROM attachments WHERE id = ?').run(twiceB);
    expect(keys()).toEqual(['bbb', 'path:/a.pdf', 'path:/c.pdf']);
    h.db.prepare('DELETE FROM attachments WHERE id = ?').run(noHash);
    expect(keys()).toEqual(['bbb', 'path:/a.pdf']);
    h.db.prepare('DELETE FROM attachments WHERE id = ?').run(once);
    expect(keys()).toEqual(['path:/a.pdf']);
  });
});
