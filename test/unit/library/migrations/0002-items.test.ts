import { afterEach, describe, expect, it } from 'vitest';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0002 items', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('migrates a populated version-1 database, keeping its settings, and creates STRICT item tables', () => {
    h = databaseAt(1);
    h.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('theme', '"dark"');
    migrateTo(h.db, 2);
    expect(h.db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get('theme')).toBe('"dark"');
    populateV2(h.db);
    expect(() =>
      h.db
        .prepare(
          "INSERT INTO items (type, citation_key, date_added, date_modified, csl) VALUES ('book', 'k', 'soon', 1, '{}')",
        )
        .run(),
    ).toThrow(/cannot store TEXT value in INTEGER/);
    expect(() =>
      h.db
        .prepare(
          "INSERT INTO items (type, citation_key, date_added, date_modified, csl) VALUES ('book', 'MULLERDEEP2020', 1, 1, '{}')",
        )
        .run(),
    ).toThrow(/UNIQUE/);
    // Deleting an item takes its creators, tags, notes, memberships and attachments with it.
    h.db.prepare('DELETE FROM items WHERE id = 1').run();
    for (const table of ['creators', 'item_tags', 'collection_items', 'attachments']) {
      expect(h.db.prepare(`SELECT count(*) FROM ${table} WHERE item_id = 1`).pluck().get()).toBe(0);
    }
  });
});
