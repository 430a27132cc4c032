import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { m0027Sync } from '../../../../electron/core/library/migrations/0027-sync';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0027 sync', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it("leaves the previous version's library data as it was, not shared and tracking nothing, until it is shared", () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, m0027Sync.version - 1);
    const tables = ['items', 'item_csl', 'notes', 'collections', 'collection_items', 'attachments', 'item_tags'];
    const before = tables.map((t) => h.db.prepare(`SELECT * FROM ${t} ORDER BY 1`).raw().all());
    migrateTo(h.db, m0027Sync.version);
    expect(tables.map((t) => h.db.prepare(`SELECT * FROM ${t} ORDER BY 1`).raw().all())).toEqual(before);
    expect(h.db.prepare('SELECT tracking, applying FROM sync_flags').get()).toEqual({ tracking: 0, applying: 0 });
    for (const t of [
      'sync_dirty',
      'sync_objects',
      'sync_conflicts',
      'sync_parked',
      'sync_log',
      'sync_files',
      'sync_state',
    ])
      expect(h.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get()).toBe(0);
    h.db.close();

    // Opened, it gets the change log's triggers; a change to a library that is not shared marks nothing.
    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const triggers = opened.db
        .prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync\\_%' ESCAPE '\\'")
        .pluck()
        .get();
      expect(triggers).toBeGreaterThan(20);
      opened.library.addTags([1, 2], ['new']);
      expect(opened.db.prepare('SELECT count(*) FROM sync_dirty').pluck().get()).toBe(0);
      // Shared, every object is marked to be pushed once, and each later change marks its object.
      expect(opened.sync.share('0123456789ab', 'postgresql://me@host:5432/lab')).toEqual({ first: true });
      const marked = opened.db.prepare('SELECT kind, count(*) AS n FROM sync_dirty GROUP BY kind ORDER BY kind').all();
      expect(marked).toEqual([
        { kind: 'attachment', n: 1 },
        { kind: 'collection', n: 2 },
        { kind: 'item', n: 2 },
        { kind: 'membership', n: 1 },
        { kind: 'note', n: 1 },
      ]);
      expect(opened.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      opened.close();
    }
  });
});
