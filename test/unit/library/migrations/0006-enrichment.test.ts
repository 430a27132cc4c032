import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0006 enrichment', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds the queue, edit record and status tables to a populated version-5 database, taking cached notices as the baseline', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 5);
    h.db.exec(`
      INSERT INTO service_notices (doi, found, retracted, notice_count, kinds, data, fetched_at) VALUES ('10.1000/a', 1, 1, 1, ',retracted,', '[]', 7);
      INSERT INTO service_notices (doi, found, retracted, notice_count, kinds, data, fetched_at) VALUES ('10.1000/b', 1, 0, 1, ',has correction,', '[]', 7);
      INSERT INTO service_notices (doi, found, retracted, notice_count, kinds, data, fetched_at) VALUES ('10.1000/c', 0, NULL, 0, ',', NULL, 7);
      INSERT INTO undo_log (stack, label, created_at, payload) VALUES ('undo', 'Edit item', 1, '{"restore":[],"remove":[]}');
    `);
    migrateTo(h.db, 6);
    expect(h.db.prepare('SELECT doi, status FROM item_status ORDER BY doi').all()).toEqual([
      { doi: '10.1000/a', status: 'retracted' },
      { doi: '10.1000/b', status: 'correction' },
    ]);
    expect(h.db.prepare('SELECT count(*) FROM status_changes').pluck().get()).toBe(0);
    expect(() =>
      h.db
        .prepare(
          "INSERT INTO enrich_runs (label, reason, state, created_at, updated_at) VALUES ('x', 'demand', 'bogus', 1, 1)",
        )
        .run(),
    ).toThrow(/CHECK/);
    h.db.prepare('INSERT INTO item_edits (item_id, field, edited_at) VALUES (1, ?, 1)').run('title');
    h.db.prepare('DELETE FROM items WHERE id = 1').run();
    expect(h.db.prepare('SELECT count(*) FROM item_edits').pluck().get()).toBe(0);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      expect(opened.library.getItem(2)).toMatchObject({
        citationKey: 'smithBook1999',
        notes: [{ body: '<p>A seminal note</p>', text: 'A seminal note' }],
      });
      expect(opened.library.undoHistory().undo).toHaveLength(1);
      // The previous baseline makes a re-check with the same notices report nothing new.
      expect(opened.enrichment.reconcileStatuses()).toEqual([]);
      // Item 2, the only one left, has no DOI: nothing to ask the service.
      expect(opened.enrichment.enqueue({ kind: 'library' })).toEqual({ run: null, withoutDoi: 1 });
    } finally {
      opened.close();
    }
  });
});
