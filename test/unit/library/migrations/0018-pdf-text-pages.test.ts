import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { openLibrary } from '../../../../electron/core/library/open';
import { compileQuery } from '../../../../electron/core/library/query-sql';
import { fulltextMatchOf } from '../../../../electron/core/library/query-sql';
import { sql } from '../../../../electron/core/library/sql';
import { parseQuery } from '../../../../shared/model/query';
import { databaseAt, migrateTo, populateV2 } from './helpers';

// Pages with common words (on every page), a rare word (one page), phrases on some pages, and a
// phrase split across a page boundary (which matches no page: pages are searched one by one).
function pagesOf(file: number): string[] {
  const common = ['cell protein folding membrane', 'signal cell variance protein', 'protein folding kinetics cell'];
  return Array.from({ length: 6 }, (_, p) => {
    const words = [common[(file + p) % 3]!, `page ${p + 1} of file ${file}.`];
    if ((file + p) % 4 === 0) words.push('We report gene expression under heat stress.');
    if (file === 3 && p === 2) words.push('A ribosome was seen.');
    if (p === 3) words.push('The result is gene');
    if (p === 4) words.unshift('expression of the model');
    return words.join(' ');
  });
}

const FILES = ['a', 'b', 'c', 'd', 'e', 'f'].map((s) => s.repeat(64));
// item → files: item 3 has file b twice over two items (2 and 3) and a second file c; e is attached to
// nothing (left behind by a removed attachment before 0018); item 5 is in the trash.
const ATTACH: [number, string][] = [
  [1, FILES[0]!],
  [2, FILES[1]!],
  [3, FILES[1]!],
  [3, FILES[2]!],
  [4, FILES[3]!],
  [5, FILES[5]!],
];

const QUERIES = [
  'fulltext:cell',
  'fulltext:"protein folding"',
  'fulltext:ribosome',
  'fulltext:"gene expression"',
  'fulltext:prot',
  'fulltext:"protein fold"*',
  '-fulltext:ribosome',
  'fulltext:ribosome OR fulltext:"gene expression"',
  'fulltext:cell year:>2000',
  'fulltext:"result is gene expression"',
  'fulltext:absentword',
];

interface Results {
  ids: number[];
  count: number;
  hits: { itemId: number; page: number; snippet: string }[];
}

/** The evaluation before 0018 (the list's filter, the pages and snippets of FulltextStore.hits then). */
function before(db: Database.Database, query: string): Results {
  const compiled = compileQuery(
    parseQuery(query),
    (expr) =>
      sql`i.id IN (SELECT a.item_id FROM attachments a WHERE a.sha256 IN (SELECT sha256 FROM pdf_text_fts WHERE pdf_text_fts MATCH ${expr}))`,
  );
  const where = compiled.where;
  const ids = db
    .prepare(
      `SELECT i.id FROM items i WHERE i.trashed_at IS NULL AND ${where.text} ORDER BY i.date_added DESC, i.id DESC`,
    )
    .pluck()
    .all(...where.params) as number[];
  const match = fulltextMatchOf(parseQuery(query));
  let hits: Results['hits'] = [];
  if (match !== null && ids.length) {
    const rows = db
      .prepare(
        `SELECT f.rowid AS rid, a.item_id AS itemId, f.page AS page FROM pdf_text_fts f CROSS JOIN attachments a ON a.sha256 = f.sha256
      WHERE pdf_text_fts MATCH ? AND a.item_id IN (${ids.join(',')})`,
      )
      .all(match) as { rid: number; itemId: number; page: number }[];
    rows.sort((x, y) => x.itemId - y.itemId || x.page - y.page);
    const taken = new Map<number, number>();
    const seen = new Set<string>();
    const chosen = rows.filter((r) => {
      const n = taken.get(r.itemId) ?? 0;
      const key = `${r.itemId}:${r.page}`;
      if (n >= 3 || seen.has(key)) return false;
      seen.add(key);
      taken.set(r.itemId, n + 1);
      return true;
    });
    const snippets = new Map(
      (
        db
          .prepare(
            `SELECT rowid AS rid, snippet(pdf_text_fts, 2, '«', '»', '…', 12) AS s FROM pdf_text_fts WHERE pdf_text_fts MATCH ? AND rowid IN (${chosen.map((r) => r.rid).join(',')})`,
          )
          .all(match) as { rid: number; s: string }[]
      ).map((r) => [r.rid, r.s]),
    );
    hits = chosen.map((r) => ({ itemId: r.itemId, page: r.page, snippet: snippets.get(r.rid)! }));
  }
  return { ids, count: ids.length, hits };
}

describe('migration 0018 pdf text pages', () => {
  let h: ReturnType<typeof databaseAt>;
  afterEach(() => h.dispose());

  function v17WithPages(): Map<string, Results> {
    h = databaseAt(2);
    populateV2(h.db);
    h.db
      .exec(`INSERT INTO items (id, type, citation_key, title, title_sort, year, date_added, date_modified, csl) VALUES
      (3, 'book', 'k3', 'Three', 'three', 2001, 3, 3, '{"id":"3","type":"book","title":"Three"}'),
      (4, 'book', 'k4', 'Four', 'four', 1990, 4, 4, '{"id":"4","type":"book","title":"Four"}'),
      (5, 'book', 'k5', 'Five', 'five', 2005, 5, 5, '{"id":"5","type":"book","title":"Five"}')`);
    migrateTo(h.db, 17);
    h.db.prepare('UPDATE items SET trashed_at = 9 WHERE id = 5').run();
    h.db.prepare('DELETE FROM attachments').run();
    const attach = h.db.prepare(
      "INSERT INTO attachments (item_id, path, sha256, size, added_at, stored) VALUES (?, '/x.pdf', ?, 1, 1, 'copied')",
    );
    for (const [item, sha] of ATTACH) attach.run(item, sha);
    const page = h.db.prepare('INSERT INTO pdf_text_fts (text, sha256, page) VALUES (?, ?, ?)');
    const state = h.db.prepare("INSERT INTO pdf_text_state VALUES (?, 'indexed', 6, 6, NULL, 1)");
    FILES.forEach((sha, f) => {
      pagesOf(f).forEach((text, p) => page.run(text, sha, p + 1));
      state.run(sha);
    });
    return new Map(QUERIES.map((q) => [q, before(h.db, q)]));
  }

  it('keeps the results of every kind of fulltext: search identical, and drops the pages of files no attachment holds', () => {
    const expected = v17WithPages();
    // The fixture covers what it should: a word on every page, a rare word, phrases, nothing found.
    expect(expected.get('fulltext:cell')!.ids).toEqual([4, 3, 2, 1]);
    expect(expected.get('fulltext:ribosome')!.hits).toHaveLength(1);
    expect(expected.get('fulltext:"gene expression"')!.hits.length).toBeGreaterThan(2);
    expect(expected.get('fulltext:"result is gene expression"')!.ids).toEqual([]);
    expect(expected.get('fulltext:cell')!.hits.filter((x) => x.itemId === 3)).toHaveLength(3);
    expect(h.db.prepare('SELECT count(*) FROM pdf_text_fts').pluck().get()).toBe(36);

    migrateTo(h.db, 18);
    // File e (no attachment) is gone; the others' pages are all located.
    expect(h.db.prepare('SELECT count(*) FROM pdf_text_fts').pluck().get()).toBe(30);
    expect(h.db.prepare('SELECT count(*) FROM pdf_text_pages').pluck().get()).toBe(30);
    expect(h.db.prepare('SELECT count(*) FROM pdf_text_state').pluck().get()).toBe(5);
    expect(
      h.db
        .prepare(
          'SELECT count(*) FROM pdf_text_fts f JOIN pdf_text_pages p ON p.id = f.rowid AND p.sha256 = f.sha256 AND p.page = f.page',
        )
        .pluck()
        .get(),
    ).toBe(30);
    h.db.close();

    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      for (const q of QUERIES) {
        const ids = opened.library.listing.list({ query: q }).rows.map((r) => r.id);
        const got: Results = {
          ids,
          count: opened.library.listing.count({ query: q }),
          // The attachment id came later (the reader); the pages and snippets are what this compares.
          hits: opened.fulltext.hits(q, ids).map(({ itemId, page, snippet }) => ({ itemId, page, snippet })),
        };
        expect({ q, ...got }).toEqual({ q, ...expected.get(q)! });
      }
    } finally {
      opened.close();
    }
  });

  it('removes a file’s pages with its last attachment (removed, or its item deleted for good), and a search sees it at once', () => {
    v17WithPages();
    migrateTo(h.db, 18);
    h.db.close();
    const opened = openLibrary(h.file, { skipIntegrityCheck: true });
    try {
      const pagesOf = (sha: string) =>
        opened.db.prepare('SELECT count(*) FROM pdf_text_fts WHERE sha256 = ?').pluck().get(sha);
      const stateOf = (sha: string) =>
        opened.db.prepare('SELECT count(*) FROM pdf_text_state WHERE sha256 = ?').pluck().get(sha);
      const attachmentOf = (item: number, sha: string) =>
        opened.db
          .prepare('SELECT id FROM attachments WHERE item_id = ? AND sha256 = ?')
          .pluck()
          .get(item, sha) as number;
      const ids = (q: string) => opened.library.listing.list({ query: q }).rows.map((r) => r.id);
      expect(ids('fulltext:cell')).toEqual([4, 3, 2, 1]);

      // File b is attached to items 2 and 3: removing one attachment keeps its pages.
      opened.library.removeAttachment(attachmentOf(2, FILES[1]!));
      expect(pagesOf(FILES[1]!)).toBe(6);
      expect(ids('fulltext:cell')).toEqual([4, 3, 1]);
      // Its last attachment: the pages, their locations and the file's state go.
      opened.library.removeAttachment(attachmentOf(3, FILES[1]!));
      expect([pagesOf(FILES[1]!), stateOf(FILES[1]!)]).toEqual([0, 0]);
      expect(opened.db.prepare('SELECT count(*) FROM pdf_text_pages WHERE sha256 = ?').pluck().get(FILES[1]!)).toBe(0);
      expect(pagesOf(FILES[2]!)).toBe(6);

      // Emptying the trash deletes item 5 and, with it, file f's pages.
      expect(pagesOf(FILES[5]!)).toBe(6);
      expect(opened.library.emptyTrash()).toBe(1);
      expect([pagesOf(FILES[5]!), stateOf(FILES[5]!)]).toEqual([0, 0]);
      expect(opened.fulltext.summary()).toEqual({
        pdfs: 3,
        byStatus: { indexed: 3, 'no-text': 0, 'too-big': 0, unreadable: 0 },
        pending: 0,
        pages: 18,
      });

      // Attached again (after the undo of the removal), the file waits to be read again.
      opened.library.undo();
      expect(opened.fulltext.pending().map((p) => p.sha256)).toContain(FILES[5]!);
    } finally {
      opened.close();
    }
  });
});
