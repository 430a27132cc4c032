// The library's side of the PDF full-text index (migration 0017): which attached PDFs still wait to
// be read, the pages of those read, what indexing made of each file, and the page hits with their
// snippets. Reading the PDFs is pdf/fulltext.ts (in the PDF worker); this only stores and searches.
// The index is keyed by SHA-256, apart from items_fts, so rebuilding it touches nothing else.
import type { PageText } from '../pdf/extract';
import { parseQuery } from '../../../shared/model/query';
import { CoreError } from '../errors';
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
      if (this.#w.get(sql`SELECT 1 FROM pdf_text_state WHERE sha256 = ${outcome.sha256}`)) throw new CoreError('CONFLICT', `The text of PDF ${outcome.sha256.slice(0, 12)}… is already indexed.`);
      if (outcome.status === 'indexed') {
        const insert = this.#w.raw.prepare('INSERT INTO pdf_text_fts (text, sha256, page) VALUES (?, ?, ?)');
        for (const p of textPages) insert.run(p.text, outcome.sha256, p.page);
      }
      this.#w.run(sql`INSERT INTO pdf_text_state (sha256, status, page_count, text_pages, note, indexed_at)
        VALUES (${outcome.sha256}, ${outcome.status}, ${outcome.pageCount}, ${outcome.status === 'indexed' ? textPages.length : 0}, ${outcome.note}, ${this.#now()})`);
    });
  }

  /** Empties the full-text index (only it): every attached PDF is pending again. */
  clear(): void {
    this.#w.transaction(() => {
      this.#w.run(sql`DELETE FROM pdf_text_fts`);
      this.#w.run(sql`DELETE FROM pdf_text_state`);
    });
  }

  summary(): FulltextSummary {
    const byStatus: Record<FulltextStatus, number> = { indexed: 0, 'no-text': 0, 'too-big': 0, unreadable: 0 };
    const rows = this.#r.all<{ status: FulltextStatus; n: number }>(sql`SELECT s.status AS status, count(*) AS n FROM pdf_text_state s WHERE s.sha256 IN (SELECT sha256 FROM attachments) GROUP BY s.status`);
    for (const r of rows) byStatus[r.status] = r.n;
    const pdfs = this.#r.get<{ n: number }>(sql`SELECT count(DISTINCT sha256) AS n FROM attachments WHERE sha256 IS NOT NULL`)?.n ?? 0;
    const pages = this.#r.get<{ n: number }>(sql`SELECT coalesce(sum(text_pages), 0) AS n FROM pdf_text_state WHERE sha256 IN (SELECT sha256 FROM attachments)`)?.n ?? 0;
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
    const match = fulltextMatchOf(parseQuery(query));
    if (match === null || itemIds.length === 0) return [];
    // The matching pages first, without ranks or snippets (bm25 over every matching page of a common
    // phrase cost more than the search itself); snippets only for the pages shown, in page order.
    const rows = inBatches(itemIds, (batch) =>
      this.#r.all<{ rid: number; itemId: number; page: number }>(sql`
        SELECT f.rowid AS rid, a.item_id AS itemId, f.page AS page
        FROM pdf_text_fts f CROSS JOIN attachments a ON a.sha256 = f.sha256
        WHERE pdf_text_fts MATCH ${match} AND a.item_id IN ${inList(batch)}`),
    );
    rows.sort((x, y) => x.itemId - y.itemId || x.page - y.page);
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
    const snippets = new Map<number, string>();
    inBatches(chosen.map((r) => r.rid), (batch) =>
      this.#r.all<{ rid: number; snippet: string }>(sql`
        SELECT rowid AS rid, snippet(pdf_text_fts, 2, ${SNIPPET_OPEN}, ${SNIPPET_CLOSE}, '…', 12) AS snippet
        FROM pdf_text_fts WHERE pdf_text_fts MATCH ${match} AND rowid IN ${inList(batch)}`),
    ).forEach((r) => snippets.set(r.rid, r.snippet));
    const out: FulltextHit[] = chosen.map((r) => ({ itemId: r.itemId, page: r.page, snippet: snippets.get(r.rid) ?? '' }));
    return out;
  }
}

type SqlIds = readonly number[];

