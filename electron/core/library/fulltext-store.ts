// The library's side of the PDF full-text index (migration 0017): which attached PDFs still wait to
// be read, the pages of those read, what indexing made of each file, and the page hits with their
// snippets. Reading the PDFs is pdf/fulltext.ts (in the PDF worker); this only stores and searches.
// The index is keyed by SHA-256, apart from items_fts, so rebuilding it touches nothing else.
import Database from 'better-sqlite3';
import type { PageText } from '../pdf/extract';
import { parseQuery } from '../../../shared/model/query';
import { CoreError } from '../errors';
import { fulltextMatch } from './fulltext-match';
import { fulltextMatchOf } from './query-sql';
import { inBatches, inList, sql, type ReadDb, type WriteDb } from './sql';

export type FulltextStatus = 'indexed' | 'no-text' | 'too-big' | 'unreadable';

/** An attached PDF whose text is not indexed yet. */
export interface FulltextPending {
  sha256: string;
  /** Where the file is (a copy in the library folder, or the linked original). */
  path: string;
  /** Bytes, as recorded when it was attached. */
  size: number | null;
}

/** What indexing made of one PDF. */
export interface FulltextOutcome {
  sha256: string;
  status: FulltextStatus;
  pageCount: number;
  /** The pages with text (stored only when status is 'indexed'). */
  pages: PageText[];
  /** For the user: why it is not (fully) searchable, e.g. "no text layer on 3 pages". */
  note: string | null;
}

export interface FulltextSummary {
  /** Attached PDFs (distinct checksums). */
  pdfs: number;
  byStatus: Record<FulltextStatus, number>;
  /** Attached PDFs not read yet. */
  pending: number;
  /** Pages in the index. */
  pages: number;
}

/** A PDF of an item with a note, e.g. pages without text. */
export interface FulltextNote {
  itemId: number;
  sha256: string;
  status: FulltextStatus;
  note: string;
}

export interface FulltextHit {
  itemId: number;
  /** The attachment whose file has the page (the reader opens it there). */
  attachmentId: number;
  /** 1-based. */
  page: number;
  /** A few words around the match, the matched terms between « and ». */
  snippet: string;
}

export const SNIPPET_OPEN = '«';
export const SNIPPET_CLOSE = '»';

export interface FulltextStoreOptions {
  write: WriteDb;
  read: ReadDb;
  now?: () => number;
}

export class FulltextStore {
  readonly #w: WriteDb;
  readonly #r: ReadDb;
  readonly #now: () => number;

  constructor(options: FulltextStoreOptions) {
    this.#w = options.write;
    this.#r = options.read;
    this.#now = options.now ?? Date.now;
  }

  /** Attached PDFs not read yet, one per checksum (a copy in the library folder preferred), oldest first. */
  pending(): FulltextPending[] {
    return this.#r.all<FulltextPending>(sql`
      SELECT a.sha256 AS sha256, a.path AS path, a.size AS size FROM attachments a
      WHERE a.sha256 IS NOT NULL AND a.sha256 NOT IN (SELECT sha256 FROM pdf_text_state)
        AND a.id = (SELECT b.id FROM attachments b WHERE b.sha256 = a.sha256 ORDER BY b.stored = 'copied' DESC, b.id LIMIT 1)
      ORDER BY a.id`);
  }

  /** Stores one PDF's outcome with its pages, in one transaction; a PDF already recorded is refused. */
  record(outcome: FulltextOutcome): void {
    const textPages = outcome.pages.filter((p) => p.text.trim() !== '');
    this.#w.transaction(() => {
      if (this.#w.get(sql`SELECT 1 FROM pdf_text_state WHERE sha256 = ${outcome.sha256}`))
        throw new CoreError('CONFLICT', `The text of PDF ${outcome.sha256.slice(0, 12)}… is already indexed.`);
      if (outcome.status === 'indexed') {
        const insert = this.#w.raw.prepare('INSERT INTO pdf_text_fts (text, sha256, page) VALUES (?, ?, ?)');
        const locate = this.#w.raw.prepare('INSERT INTO pdf_text_pages (id, sha256, page) VALUES (?, ?, ?)');
        for (const p of textPages)
          locate.run(insert.run(p.text, outcome.sha256, p.page).lastInsertRowid, outcome.sha256, p.page);
      }
      this.#w.run(sql`INSERT INTO pdf_text_state (sha256, status, page_count, text_pages, note, indexed_at)
        VALUES (${outcome.sha256}, ${outcome.status}, ${outcome.pageCount}, ${outcome.status === 'indexed' ? textPages.length : 0}, ${outcome.note}, ${this.#now()})`);
    });
  }

  /** Empties the full-text index (only it): every attached PDF is pending again. */
  clear(): void {
    this.#w.transaction(() => {
      this.#w.run(sql`DELETE FROM pdf_text_fts`);
      this.#w.run(sql`DELETE FROM pdf_text_pages`);
      this.#w.run(sql`DELETE FROM pdf_text_state`);
    });
  }

  summary(): FulltextSummary {
    const byStatus: Record<FulltextStatus, number> = { indexed: 0, 'no-text': 0, 'too-big': 0, unreadable: 0 };
    const rows = this.#r.all<{ status: FulltextStatus; n: number }>(
      sql`SELECT s.status AS status, count(*) AS n FROM pdf_text_state s WHERE s.sha256 IN (SELECT sha256 FROM attachments) GROUP BY s.status`,
    );
    for (const r of rows) byStatus[r.status] = r.n;
    const pdfs =
      this.#r.get<{ n: number }>(sql`SELECT count(DISTINCT sha256) AS n FROM attachments WHERE sha256 IS NOT NULL`)
        ?.n ?? 0;
    const pages =
      this.#r.get<{ n: number }>(
        sql`SELECT coalesce(sum(text_pages), 0) AS n FROM pdf_text_state WHERE sha256 IN (SELECT sha256 FROM attachments)`,
      )?.n ?? 0;
    const recorded = rows.reduce((sum, r) => sum + r.n, 0);
    return { pdfs, byStatus, pending: pdfs - recorded, pages };
  }

  /** Every indexed page's text, in index order (for checks and the benchmark's baseline). */
  pageTexts(): string[] {
    return this.#r.pluck<string>(sql`SELECT text FROM pdf_text_fts ORDER BY rowid`);
  }

  /** The notes of the given items' PDFs (all items when omitted): pages without text, files skipped. */
  notes(itemIds?: readonly number[]): FulltextNote[] {
    const q = (ids: SqlIds | null): FulltextNote[] =>
      this.#r.all<FulltextNote>(sql`SELECT a.item_id AS itemId, s.sha256 AS sha256, s.status AS status, s.note AS note
        FROM pdf_text_state s JOIN attachments a ON a.sha256 = s.sha256
        WHERE s.note IS NOT NULL ${ids === null ? sql`` : sql`AND a.item_id IN ${inList(ids)}`} ORDER BY a.item_id, a.id`);
    return itemIds === undefined ? q(null) : inBatches(itemIds, (batch) => q(batch));
  }

  /**
   * The matching pages of the given items for the `fulltext:` terms of `query`, at most `perItem` per
   * item, in page order; none when the query has no such term.
   */
  hits(query: string, itemIds: readonly number[], perItem = 3): FulltextHit[] {
    const expr = fulltextMatchOf(parseQuery(query));
    if (expr === null || itemIds.length === 0) return [];
    // The match the list and its count used (evaluated once per search), its pages grouped by file.
    const match = fulltextMatch(this.#r, expr);
    const byFile = new Map<string, { rid: number; page: number }[]>();
    for (const p of match.pages) {
      const list = byFile.get(p.sha256);
      if (list) list.push(p);
      else byFile.set(p.sha256, [p]);
    }
    const wanted = new Set(itemIds);
    const files = inBatches(itemIds, (batch) =>
      this.#r.all<{ itemId: number; attachmentId: number; sha256: string }>(
        sql`SELECT item_id AS itemId, id AS attachmentId, sha256 FROM attachments WHERE item_id IN ${inList(batch)} AND sha256 IS NOT NULL`,
      ),
    );
    const rows: { rid: number; itemId: number; attachmentId: number; page: number }[] = [];
    for (const f of files)
      if (wanted.has(f.itemId))
        for (const p of byFile.get(f.sha256) ?? [])
          rows.push({ rid: p.rid, itemId: f.itemId, attachmentId: f.attachmentId, page: p.page });
    rows.sort((x, y) => x.itemId - y.itemId || x.page - y.page || x.rid - y.rid || x.attachmentId - y.attachmentId);
    const taken = new Map<number, number>();
    const seen = new Set<string>();
    const chosen: typeof rows = [];
    for (const r of rows) {
      const n = taken.get(r.itemId) ?? 0;
      // The same file attached twice to one item finds each page twice.
      const key = `${r.itemId}:${r.page}`;
      if (n >= perItem || seen.has(key)) continue;
      seen.add(key);
      taken.set(r.itemId, n + 1);
      chosen.push(r);
    }
    const snippets = this.#snippets(expr, [...new Set(chosen.map((r) => r.rid))]);
    return chosen.map((r) => ({
      itemId: r.itemId,
      attachmentId: r.attachmentId,
      page: r.page,
      snippet: snippets.get(r.rid) ?? '',
    }));
  }

  /** The page the reader last showed of a file (migration 0030), or null: never read. */
  readerPage(fileKey: string): number | null {
    return (
      this.#r.get<{ page: number }>(sql`SELECT page FROM reader_positions WHERE file_key = ${fileKey}`)?.page ?? null
    );
  }

  /** Remembers the page the reader shows of a file. */
  rememberReaderPage(fileKey: string, page: number): void {
    this.#w.run(sql`INSERT INTO reader_positions (file_key, page, read_at) VALUES (${fileKey}, ${page}, ${this.#now()})
      ON CONFLICT(file_key) DO UPDATE SET page = excluded.page, read_at = excluded.read_at`);
  }

  /**
   * FTS5 snippets of the given pages. snippet() over pdf_text_fts with `rowid IN (…)` seeks each page in
   * the expression's whole doclist (0.3 ms a page for a phrase on most pages, seconds for a prefix on
   * every page); the same pages in a scratch FTS5 table with the same tokenizer give the same snippets
   * (they depend on the page's text and the expression only) from a doclist of a few rows.
   */
  #snippets(expr: string, rids: readonly number[]): Map<number, string> {
    const out = new Map<number, string>();
    if (rids.length === 0) return out;
    const texts = inBatches(rids, (batch) =>
      this.#r.all<{ rid: number; text: string }>(
        sql`SELECT rowid AS rid, text FROM pdf_text_fts WHERE rowid IN ${inList(batch)}`,
      ),
    );
    const scratch = (this.#scratch ??= SnippetScratch.open());
    return scratch.snippets(expr, texts);
  }

  #scratch: SnippetScratch | undefined;

  /** Frees the scratch table of snippets (the store stays usable; it is made again when needed). */
  close(): void {
    this.#scratch?.close();
    this.#scratch = undefined;
  }
}

/** An in-memory FTS5 table, tokenized as pdf_text_fts is, holding only the pages whose snippets are shown. */
class SnippetScratch {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #index: Database.Statement;
  readonly #select: Database.Statement;
  readonly #empty: Database.Statement;
  readonly #emptyTexts: Database.Statement;

  private constructor(db: Database.Database) {
    this.#db = db;
    // External content: emptying it ('delete-all') does not tokenize the pages again, as a DELETE from
    // an FTS5 table with its own content does.
    db.exec(`CREATE TABLE texts (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
      CREATE VIRTUAL TABLE pages USING fts5(text, content = 'texts', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');`);
    this.#insert = db.prepare('INSERT INTO texts (id, text) VALUES (?, ?)');
    this.#index = db.prepare('INSERT INTO pages (rowid, text) VALUES (?, ?)');
    this.#select = db.prepare(
      `SELECT rowid AS rid, snippet(pages, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}', '…', 12) AS snippet FROM pages WHERE pages MATCH ?`,
    );
    this.#empty = db.prepare("INSERT INTO pages (pages) VALUES ('delete-all')");
    this.#emptyTexts = db.prepare('DELETE FROM texts');
  }

  static open(): SnippetScratch {
    return new SnippetScratch(new Database(':memory:'));
  }

  snippets(expr: string, pages: readonly { rid: number; text: string }[]): Map<number, string> {
    const out = new Map<number, string>();
    const run = this.#db.transaction(() => {
      for (const p of pages) {
        this.#insert.run(p.rid, p.text);
        this.#index.run(p.rid, p.text);
      }
      for (const r of this.#select.all(expr) as { rid: number; snippet: string }[]) out.set(r.rid, r.snippet);
      this.#empty.run();
      this.#emptyTexts.run();
    });
    run();
    return out;
  }

  close(): void {
    this.#db.close();
  }
}

type SqlIds = readonly number[];
