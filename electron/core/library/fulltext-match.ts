// One evaluation of a `fulltext:` expression per search: a search lists a page of results, counts
// them and shows the matching pages of the rows on screen, three queries that each evaluated the
// expression over pdf_text_fts (for a phrase on most pages, 12 ms each over 1,000 ten-page PDFs).
// The match (its pages, their files and the items holding those files) is kept per read connection
// and reused until the database changes (PRAGMA data_version moves with every commit of another
// connection, total_changes() with its own).
import type Database from 'better-sqlite3';
import { sql, type ReadDb } from './sql';

export interface FulltextPageMatch {
  /** pdf_text_fts's rowid (= pdf_text_pages.id). */
  rid: number;
  sha256: string;
  page: number;
}

export interface FulltextMatch {
  /** The matching pages, in rowid order. */
  pages: readonly FulltextPageMatch[];
  /** The items with an attachment whose file has a matching page, ascending. */
  itemIds: readonly number[];
  /** itemIds as a JSON array, for `IN (SELECT value FROM json_each(?))`. */
  itemIdsJson: string;
}

/**
 * How many expressions are kept per connection: the last one, which the list, its count and its pages
 * share (a second search finds it again only if it is the same search).
 */
const KEPT = 1;

interface Memo {
  version: string;
  byExpr: Map<string, FulltextMatch>;
}

const memos = new WeakMap<Database.Database, Memo>();

function evaluate(read: ReadDb, expr: string): FulltextMatch {
  // CROSS JOIN: FTS5 finds the rowids (without reading a content row), then each is looked up in the
  // narrow page table.
  const pages = read.all<FulltextPageMatch>(sql`SELECT f.rowid AS rid, p.sha256 AS sha256, p.page AS page
    FROM pdf_text_fts f CROSS JOIN pdf_text_pages p ON p.id = f.rowid WHERE pdf_text_fts MATCH ${expr} ORDER BY f.rowid`);
  const shas = [...new Set(pages.map((p) => p.sha256))];
  const itemIds =
    shas.length === 0
      ? []
      : read.pluck<number>(
          sql`SELECT DISTINCT a.item_id FROM attachments a WHERE a.sha256 IN (SELECT value FROM json_each(${JSON.stringify(shas)})) ORDER BY a.item_id`,
        );
  return { pages, itemIds, itemIdsJson: JSON.stringify(itemIds) };
}

/** The pages and items matching an FTS5 expression over pdf_text_fts, evaluated once per database state. */
export function fulltextMatch(read: ReadDb, expr: string): FulltextMatch {
  // data_version moves with other connections' commits, total_changes() with this one's (a read handle
  // over the write connection).
  const v = read.get<{ v: number; c: number }>(
    sql`SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c`,
  )!;
  const version = `${v.v}:${v.c}`;
  let memo = memos.get(read.raw);
  if (!memo || memo.version !== version) {
    memo = { version, byExpr: new Map() };
    memos.set(read.raw, memo);
  }
  let found = memo.byExpr.get(expr);
  if (found) {
    // Most recently used last.
    memo.byExpr.delete(expr);
  } else {
    found = evaluate(read, expr);
    if (memo.byExpr.size >= KEPT) memo.byExpr.delete(memo.byExpr.keys().next().value!);
  }
  memo.byExpr.set(expr, found);
  return found;
}
