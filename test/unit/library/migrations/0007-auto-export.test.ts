import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLibrary } from '../../../../electron/core/library/open';
import { databaseAt, migrateTo, populateV2 } from './helpers';

describe('migration 0007 auto-export', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  it('adds auto-export definitions and their cache to a populated version-5 database, which then opens as a working library', () => {
    h = databaseAt(2);
    populateV2(h.db);
    migrateTo(h.db, 5);
    h.db
      .prepare(
        "INSERT INTO undo_log (stack, label, created_at, payload) VALUES ('undo', 'Edit item', 9, '{\"restore\":[],\"remove\":[]}')",
      )
      .run();
    migrateTo(h.db, 7);
    expect(h.db.prepare('SELECT count(*) FROM auto_exports').pluck().get()).toBe(0);
    expect(() =>
      h.db.prepare("INSERT INTO auto_exports (path, format, created_at) VALUES ('/x.docx', 'docx', 1)").run(),
    ).toThrow(/CHECK/);
    h.db.close();

    const out = mkdtempSync(join(tmpdir(), 'citewise-mig8-'));
    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const lib = opened.library;
      expect(lib.getItem(1)).toMatchObject({ citationKey: 'mullerDeep2020', collections: [2] });
      expect(lib.undoHistory().undo.map((e) => e.label)).toEqual(['Edit item']);
      // Collection "Thesis" (1) holds item 1 through its subcollection "Chapter" (2).
      const def = lib.autoExports.add({
        path: join(out, 'thesis.bib'),
        format: 'bibtex',
        scope: { kind: 'collection', collectionId: 1, subcollections: true },
      });
      expect(lib.autoExports.run(def.id)).toMatchObject({ status: 'written', itemCount: 1 });
      expect(readFileSync(join(out, 'thesis.bib'), 'utf8')).toContain('@article{mullerDeep2020,');
      expect(lib.autoExports.list()).toMatchObject([{ id: def.id, status: 'written', itemCount: 1 }]);
    } finally {
      opened.close();
      rmSync(out, { recursive: true, force: true });
    }
  });
});
