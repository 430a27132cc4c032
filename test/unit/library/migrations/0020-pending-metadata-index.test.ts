import { afterEach, describe, expect, it } from 'vitest';
import { waitingOf } from '../../../../electron/core/library/library-base';
import { readHandle, type ReadDb } from '../../../../electron/core/library/sql';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0020 pending-metadata index', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it("indexes a version-19 library's DOI placeholders, which the waiting marks then find without reading CSL", () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 19);
    // Item 1 is a DOI placeholder made before this migration; item 2 is an ordinary item.
    h.db
      .prepare(
        `UPDATE item_csl SET csl = json_set(csl, '$.custom', json('{"citewise":{"pendingMetadata":true}}')) WHERE item_id = 1`,
      )
      .run();
    const before = h.db.prepare('SELECT item_id, csl FROM item_csl ORDER BY item_id').raw().all();
    migrateTo(h.db, 20);
    expect(h.db.prepare('SELECT item_id, csl FROM item_csl ORDER BY item_id').raw().all()).toEqual(before);
    expect(
      h.db
        .prepare(
          "SELECT item_id FROM item_csl INDEXED BY item_csl_pending_metadata WHERE json_extract(csl, '$.custom.citewise.pendingMetadata') = 1",
        )
        .pluck()
        .all(),
    ).toEqual([1]);

    const db = readHandle(h.db);
    expect([...waitingOf(db, [1, 2])]).toEqual([[1, { for: 'metadata', doi: '10.1000/a' }]]);

    // The index follows the CSL: once enrichment clears the flag, the item waits for nothing.
    h.db
      .prepare(`UPDATE item_csl SET csl = json_remove(csl, '$.custom.citewise.pendingMetadata') WHERE item_id = 1`)
      .run();
    expect([...waitingOf(db, [1, 2])]).toEqual([]);
    expect(h.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it("reads the placeholders through the index, not the page's CSL", () => {
    h = databaseAt(20);
    // waitingOf's own query, explained instead of run.
    const plans: string[] = [];
    const explain: ReadDb = {
      ...readHandle(h.db),
      all: <T>(q: { text: string; params: readonly unknown[] }) => {
        plans.push(
          ...(h.db.prepare(`EXPLAIN QUERY PLAN ${q.text}`).all(...q.params) as { detail: string }[]).map(
            (p) => p.detail,
          ),
        );
        return [] as T[];
      },
    };
    waitingOf(explain, [1, 2]);
    expect(plans.join(' | ')).toMatch(/item_csl USING (COVERING )?INDEX item_csl_pending_metadata/);
    expect(plans.join(' | ')).not.toMatch(/SEARCH r USING INTEGER PRIMARY KEY|SCAN item_csl(?! USING)/);
  });
});
