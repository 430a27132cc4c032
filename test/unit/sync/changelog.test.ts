// The replica's change log (electron/core/sync/changelog.ts): triggers made from the shared kinds mark
// every write path's objects, only while the library is shared and never while the sync applies the
// server's changes; they come back when a table rebuild drops them; every table is either shared or
// declared local, so a new table cannot be forgotten.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLogTriggers, installChangeLog } from '../../../electron/core/sync/changelog';
import { LOCAL_TABLES, SYNC_KINDS } from '../../../electron/core/sync/kinds';
import { importItems, testLibrary, type TestLibrary } from '../library/helpers/lib';

let t: TestLibrary;
beforeEach(() => {
  t = testLibrary();
});
afterEach(() => t.dispose());

const dirty = (): string[] =>
  (
    t.db.prepare('SELECT kind, local_id FROM sync_dirty ORDER BY kind, local_id').all() as {
      kind: string;
      local_id: unknown;
    }[]
  ).map((r) => `${r.kind}:${String(r.local_id)}`);
const clear = (): void => void t.db.exec('DELETE FROM sync_dirty');

describe('the change log of a shared library', () => {
  it('marks the object each write path changes, and nothing before the library is shared', () => {
    const lib = t.library;
    const [a, b] = importItems(lib, [
      { id: 'a', type: 'book', title: 'A', DOI: '10.1000/a' },
      { id: 'b', type: 'book', title: 'B' },
    ]).ids as [number, number];
    expect(dirty()).toEqual([]);
    t.sync.share('0123456789ab', 'postgresql://me@h:5432/d');
    clear();
    const cases: [string, () => void, string[]][] = [
      ['edit', () => lib.updateItem(a, { ...lib.getItem(a).csl, title: 'A2' }), [`item:${a}`]],
      ['key', () => lib.setCitationKey(b, 'bee'), [`item:${b}`]],
      ['tags', () => lib.addTags([a, b], ['t']), [`item:${a}`, `item:${b}`]],
      ['trash', () => lib.trashItems([b]), [`item:${b}`]],
      ['note', () => lib.addNote(a, 'n'), ['note:1']],
      ['collection', () => lib.createCollection('C'), ['collection:1']],
      ['membership', () => lib.addToCollection(1, [a]), [`membership:1:${a}`]],
      ['search', () => lib.listing.saveSearch('S', 'year:2000'), ['saved_search:1']],
      [
        'tallies',
        () =>
          lib.serviceCache.putTallies({
            found: { '10.1000/a': { total: 1, supporting: 1, contrasting: 0, mentioning: 0, unclassified: 0 } },
          }),
        ['tallies:10.1000/a'],
      ],
      ['attachment', () => lib.addAttachment(a, { path: '/x.pdf', sha256: 'a'.repeat(64), size: 1 }), ['attachment:1']],
      // Undo puts the item's row back whole: it, and what hangs on it, are marked.
      ['undo', () => lib.undo(), [`item:${a}`, 'attachment:1', 'note:1', `membership:1:${a}`]],
      ['delete', () => lib.deleteItems([b]), [`item:${b}`]],
    ];
    for (const [what, run, expected] of cases) {
      clear();
      run();
      expect(dirty(), what).toEqual(expected.sort());
    }
    // While the sync writes what the server sent, nothing is marked.
    clear();
    t.db.exec('UPDATE sync_flags SET applying = 1');
    lib.updateItem(a, { ...lib.getItem(a).csl, title: 'A3' });
    t.db.exec('UPDATE sync_flags SET applying = 0');
    expect(dirty()).toEqual([]);
  });

  it('counts repeated changes of one object on its mark', () => {
    const [a] = importItems(t.library, [{ id: 'a', type: 'book', title: 'A' }]).ids as [number];
    t.sync.share('0123456789ab', 'postgresql://me@h:5432/d');
    clear();
    t.library.addTags([a], ['x']);
    t.library.addTags([a], ['y']);
    expect(t.db.prepare('SELECT mark FROM sync_dirty').pluck().get()).toBeGreaterThanOrEqual(2);
  });

  it('makes a dropped or altered trigger again at the next open, and does nothing when all are there', () => {
    const names = [...changeLogTriggers().keys()];
    t.db.exec(`DROP TRIGGER ${names[0]}`);
    t.db.exec(`DROP TRIGGER ${names[5]}`);
    expect(installChangeLog(t.db)).toEqual({ made: 2, dropped: 0 });
    expect(installChangeLog(t.db)).toEqual({ made: 0, dropped: 0 });
    t.db.exec('CREATE TRIGGER sync_gone_items_insert AFTER INSERT ON items BEGIN SELECT 1; END');
    expect(installChangeLog(t.db)).toEqual({ made: 0, dropped: 1 });
  });

  it('knows every table of the library: shared by a kind, or declared local with a reason', () => {
    const shared = new Set(SYNC_KINDS.flatMap((k) => k.sources.map((s) => s.table)));
    const tables = t.db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts_%' AND name NOT LIKE 'sync_%'",
      )
      .pluck()
      .all() as string[];
    const unknown = tables.filter((name) => !shared.has(name) && !Object.hasOwn(LOCAL_TABLES, name));
    expect(
      unknown,
      'declare each in sync/kinds.ts: a kind that shares it, or LOCAL_TABLES with why (docs/sharing.md)',
    ).toEqual([]);
    for (const name of Object.keys(LOCAL_TABLES)) expect(shared.has(name), name).toBe(false);
  });
});
