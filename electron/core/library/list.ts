// Listing and search (Library.listing, LibraryClient.listing): one sorted, keyset-paged page of the
// library, the trash, a collection or a search; counts; saved searches. Reads use the read-only
// connection, which in WAL mode sees the last committed state; only saved searches write. A store of
// its own, not a room of the Library's chain: it needs no undo. How the pages are planned: README.md.
import { parseQuery, QuerySyntaxError } from '../../../shared/model/query';
import { NOTE_ITEM_TYPE } from '../../../shared/model/standalone-note';
import { CoreError } from '../errors';
import { fulltextMatch } from './fulltext-match';
import { compileQuery, type FulltextCondition } from './query-sql';
import type { RankFunction } from './rank';
import { ident, joinSql, sql, SqlFragment, type ReadDb, type SqlValue, type WriteDb } from './sql';
import {
  SORT_COLUMNS,
  type ItemId,
  type ListOptions,
  type Page,
  type SavedSearch,
  type Sort,
  type SortColumn,
} from './types';
import { ROW_COLUMNS, ROW_JOINS, type RawRow, type LibraryOptions, toRow, withWaiting } from './library-base';
import { isObject, readStored } from './stored-json';

const SORT_SQL: Record<SortColumn, { column: string; index: string; nullable: boolean }> = {
  title: { column: 'title_sort', index: 'items_by_title', nullable: true },
  creators: { column: 'creators_sort', index: 'items_by_creators', nullable: true },
  year: { column: 'year', index: 'items_by_year', nullable: true },
  container: { column: 'container_sort', index: 'items_by_container', nullable: true },
  type: { column: 'type', index: 'items_by_type', nullable: false },
  // The UNIQUE constraint's own index: (citation_key) then rowid.
  citationKey: { column: 'citation_key', index: 'sqlite_autoindex_items_1', nullable: false },
  dateAdded: { column: 'date_added', index: 'items_by_added', nullable: false },
  dateModified: { column: 'date_modified', index: 'items_by_modified', nullable: false },
  publisher: { column: 'publisher_sort', index: 'items_by_publisher', nullable: true },
  pages: { column: 'pages_sort', index: 'items_by_pages', nullable: true },
  extra: { column: 'extra_sort', index: 'items_by_extra', nullable: true },
  attachments: { column: 'attachments_count', index: 'items_by_attachments', nullable: false },
  notes: { column: 'notes_count', index: 'items_by_notes', nullable: false },
  supporting: { column: 'supporting', index: 'items_by_supporting', nullable: true },
  contrasting: { column: 'contrasting', index: 'items_by_contrasting', nullable: true },
  mentioning: { column: 'mentioning', index: 'items_by_mentioning', nullable: true },
  citing: { column: 'citing', index: 'items_by_citing', nullable: true },
};

const SORT_IDENTS = Object.values(SORT_SQL).map((s) => s.column);
const SORT_INDEXES = Object.values(SORT_SQL).map((s) => s.index);

/** How far along the sort index a filtered page looks before falling back to sorting the filter's matches. */
const WINDOW = 10_000;

/** Deeper pages of a search take the general query: the fast path reads every row up to the page's end. */
const FAST_MAX_DEPTH = 2_000;

interface Cursor {
  s: string;
  d: 'asc' | 'desc';
  /** 0: rows with a value; 1: rows without one (always last). */
  p?: 0 | 1;
  v?: SqlValue;
  id?: number;
  /** Offset, for relevance order. */
  o?: number;
}

const encodeCursor = (c: Cursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(text: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (typeof c !== 'object' || c === null || typeof c.s !== 'string') throw new Error('shape');
    return c;
  } catch {
    throw new CoreError('INVALID_INPUT', 'The page cursor is not valid; start again from the first page.');
  }
}

/**
 * The filters of a list or count besides the query: trash or not, a collection (with its
 * subcollections), Unfiled, references only.
 */
function scopeFilters(
  options: Pick<ListOptions, 'trash' | 'collectionId' | 'includeSubcollections' | 'unfiled' | 'references'>,
  where: SqlFragment,
): SqlFragment[] {
  const filters = [options.trash ? sql`i.trashed_at IS NOT NULL` : sql`i.trashed_at IS NULL`, where];
  if (options.collectionId !== undefined) {
    filters.push(
      options.includeSubcollections === false
        ? sql`i.id IN (SELECT item_id FROM collection_items WHERE collection_id = ${options.collectionId})`
        : sql`i.id IN (SELECT item_id FROM collection_items WHERE collection_id IN (
            WITH RECURSIVE sub(id) AS (SELECT ${options.collectionId} UNION SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id AND c.trashed_at IS NULL) SELECT id FROM sub))`,
    );
  }
  // A collection in the Trash files nothing: its items count as Unfiled until it is restored.
  if (options.unfiled)
    filters.push(
      sql`NOT EXISTS (SELECT 1 FROM collection_items ci JOIN collections c ON c.id = ci.collection_id WHERE ci.item_id = i.id AND c.trashed_at IS NULL)`,
    );
  // The type is in the items_filter index: checked without reading the item's row.
  if (options.references) filters.push(sql`i.type <> ${NOTE_ITEM_TYPE}`);
  return filters;
}

/**
 * The filter with its `i.id IN (…)` terms rewritten for a walk in sort order:
 * - `+i.id`: only checked per row, never used to look rows up. Walking a sort index, SQLite would
 *   otherwise take each id of the list and skip-scan the index for it (a tag or a word on 100,000
 *   items, sorted by journal, took 1-5 s instead of milliseconds).
 * - `w.id`: over a window of the sort index (`w`, its ids in order), the terms test the window's id,
 *   so SQLite checks them before it reads the item's row, and reads only the rows that pass.
 */
function idListsAs(where: SqlFragment, as: '+i.id' | 'w.id'): SqlFragment {
  return new SqlFragment(where.text.replace(/(^|[\s(])i\.id ((?:NOT )?IN \()/g, `$1${as} $2`), where.params);
}

/**
 * The filters joined with the trash test (scopeFilters puts it first) last: it reads the item's row,
 * which an index-only test before it (an id list, the narrow filter index) saves for rows it rejects.
 */
const trashLast = (filters: readonly SqlFragment[]): SqlFragment =>
  joinSql([...filters.slice(1), filters[0]!], ' AND ');

function sqlText(text: string): SqlFragment {
  return sql([text] as unknown as TemplateStringsArray);
}

/** What ListingStore needs: the connections and the clock, and the ranking and paging of LibraryOptions. */
export type ListingOptions = Pick<LibraryOptions, 'paging' | 'rankFunction' | 'rankFallbackReason'> & {
  write: WriteDb;
  read: ReadDb;
  now: () => number;
};

export class ListingStore {
  readonly #w: WriteDb;
  readonly #r: ReadDb;
  readonly #now: () => number;
  readonly #window: number;
  /** The bm25 weights of the index's rank setting; null when it is something else. */
  #rankArgs: string[] | null | undefined;
  readonly #rankFn: RankFunction;
  readonly #rankFallbackReason: string | undefined;

  constructor(options: ListingOptions) {
    this.#w = options.write;
    this.#r = options.read;
    this.#now = options.now;
    this.#window = options.paging?.window ?? WINDOW;
    this.#rankFn = options.rankFunction ?? 'bm25';
    this.#rankFallbackReason = options.rankFallbackReason;
  }

  // ── Listing and search ──

  /** One page of the library (or the trash, a collection, a search), sorted by an index, keyset-paged. */
  list(options: ListOptions = {}): Page {
    const page = this.#page(options);
    return { ...page, rows: withWaiting(this.#r, page.rows) };
  }

  #page(options: ListOptions): Page {
    const limit = Math.max(1, Math.min(options.limit ?? 100, 1000));
    const compiled = compileQuery(this.#parse(options.query ?? ''), this.#fulltext);
    // Without words to rank by, relevance means newest first, which the date index serves.
    let sort: Sort =
      options.sort ??
      (compiled.match ? { column: 'relevance', direction: 'desc' } : { column: 'dateAdded', direction: 'desc' });
    if (sort.column === 'relevance' && !compiled.match) sort = { column: 'dateAdded', direction: 'desc' };
    const filters = scopeFilters(options, compiled.where);
    if (options.offset !== undefined && options.cursor)
      throw new CoreError('INVALID_INPUT', 'A page starts at a cursor or at an offset, not both.');
    const cursor = options.cursor
      ? decodeCursor(options.cursor)
      : options.offset
        ? this.#cursorAt(options.offset, sort, filters, compiled.match)
        : null;
    if (cursor && (cursor.s !== sort.column || cursor.d !== sort.direction)) {
      throw new CoreError(
        'INVALID_INPUT',
        'The page cursor belongs to another sort order; start again from the first page.',
      );
    }

    if (sort.column === 'relevance') {
      const offset = cursor?.o ?? 0;
      let rows: RawRow[] | null = null;
      // No filter but "not in the trash" (scopeFilters gives that and the query's own conditions first).
      const plain = !options.trash && filters.length === 2 && compiled.where.text === '1';
      if (compiled.match && plain && offset + limit < FAST_MAX_DEPTH) {
        // Fast path: FTS5 picks the best rows itself (ORDER BY rank LIMIT), then they are joined. Trashed
        // items still have index rows, so if one ranks anywhere up to the end of the page (it would shift
        // the page), the general query below runs instead.
        const found = this.#r
          .all<RawRow>(sql`SELECT ${ROW_COLUMNS} FROM (SELECT rowid, ${this.#rank('items_fts')} AS score FROM items_fts WHERE items_fts MATCH ${compiled.match}
            ORDER BY score, rowid LIMIT ${offset + limit + 1}) f JOIN items i ON i.id = f.rowid ${ROW_JOINS} ORDER BY f.score, f.rowid`);
        if (found.every((r) => r.trashed_at === null)) rows = found.slice(offset);
      }
      // With filters: each match is checked against the narrow items_filter index (migration 0011),
      // not the item's row, and only the page's rows are read whole.
      rows ??= compiled.match
        ? this.#r
            .all<RawRow>(sql`SELECT ${ROW_COLUMNS} FROM (SELECT f.rowid AS id, ${this.#rank('f.items_fts')} AS score
              FROM items_fts f JOIN items i INDEXED BY items_filter ON i.id = f.rowid
              WHERE items_fts MATCH ${compiled.match} AND ${trashLast(filters)}
              ORDER BY score, id LIMIT ${limit + 1} OFFSET ${offset}) r
            JOIN items i ON i.id = r.id ${ROW_JOINS} ORDER BY r.score, r.id`)
        : this.#r.all<RawRow>(sql`SELECT ${ROW_COLUMNS} FROM items i ${ROW_JOINS} WHERE ${joinSql(filters, ' AND ')}
            ORDER BY i.date_added DESC, i.id DESC LIMIT ${limit + 1} OFFSET ${offset}`);
      const more = rows.length > limit;
      return {
        rows: rows.slice(0, limit).map(toRow),
        nextCursor: more ? encodeCursor({ s: 'relevance', d: sort.direction, o: offset + limit }) : null,
      };
    }

    if (!SORT_COLUMNS.includes(sort.column))
      throw new CoreError('INVALID_INPUT', `Cannot sort by "${String(sort.column)}".`);
    const spec = SORT_SQL[sort.column];
    const c = ident(spec.column, SORT_IDENTS);
    const desc = sort.direction === 'desc';
    const dir = sqlText(desc ? 'DESC' : 'ASC');
    const cmp = sqlText(desc ? '<' : '>');
    if (compiled.match)
      filters.push(sql`i.id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ${compiled.match})`);
    const where = joinSql(filters, ' AND ');
    // SQLite's planner prefers an index on the filter and then sorts every match, which is slow when
    // the filter is broad (supporting:>10, tag:review). A probe for one page of matches tells narrow
    // filters (fewer matches than a page: sorted whole, cheaply) from broad ones, which walk a bounded
    // window of the sort index and find their page early; when the window holds less than a page, the
    // planner's way runs after all.
    const filtered = filters.length > 2 || compiled.where.text !== '1';
    const broad =
      filtered &&
      this.#r.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM (SELECT 1 FROM items i WHERE ${where} LIMIT ${limit + 1})`,
      )!.n > limit;
    // A filter on the sort column itself (year:2015..2020 sorted by year): the index walk starts where
    // the range does, so it needs no window, and its matches come in sort order.
    const selfFiltered = filtered && new RegExp(`\\bi\\.${spec.column}\\b`).test(where.text);
    const out: RawRow[] = [];
    const phase: 0 | 1 = cursor?.p ?? 0;
    let nextCursor: string | null = null;

    if (phase === 0) {
      const after =
        cursor && cursor.p === 0 ? sql` AND (i.${c}, i.id) ${cmp} (${cursor.v ?? null}, ${cursor.id ?? 0})` : sql``;
      const notNull = spec.nullable ? sql` AND i.${c} IS NOT NULL` : sql``;
      let rows: (RawRow & { sort_value: SqlValue })[] = [];
      if (broad) {
        const index = ident(spec.index, SORT_INDEXES);
        const walkWhere = trashLast(filters);
        // The window's far end, read from the index alone: whether the window reaches the index's end.
        const end = selfFiltered
          ? undefined
          : this.#r.get<{ v: SqlValue; id: number }>(
              sql`SELECT i.${c} AS v, i.id AS id FROM items i INDEXED BY ${index} WHERE 1${notNull}${after} ORDER BY i.${c} ${dir}, i.id ${dir} LIMIT 1 OFFSET ${this.#window}`,
            );
        rows = selfFiltered
          ? this.#r.all<RawRow & { sort_value: SqlValue }>(
              sql`SELECT ${ROW_COLUMNS}, i.${c} AS sort_value FROM items i INDEXED BY ${index} ${ROW_JOINS} WHERE ${idListsAs(walkWhere, '+i.id')}${notNull}${after}
                  ORDER BY i.${c} ${dir}, i.id ${dir} LIMIT ${limit + 1}`,
            )
          : // The window is the next rows of the sort index, counted (a subquery with LIMIT, run as a
            // co-routine whose order the outer query keeps, so nothing is sorted). A bound on the sort
            // value instead would not stop the walk where many rows share a value (every item of one
            // import has the same date added), and the walk went on to the end of the index. NOT INDEXED
            // keeps each row's lookup on the primary key (the planner would otherwise range-scan a
            // filter's index, supporting:>10, once per window row).
            this.#r.all<RawRow & { sort_value: SqlValue }>(
              sql`SELECT ${ROW_COLUMNS}, w.v AS sort_value FROM (SELECT i.${c} AS v, i.id AS id FROM items i INDEXED BY ${index} WHERE 1${notNull}${after}
                    ORDER BY i.${c} ${dir}, i.id ${dir} LIMIT ${this.#window}) w CROSS JOIN items i NOT INDEXED ON i.id = w.id ${ROW_JOINS}
                  WHERE ${idListsAs(walkWhere, 'w.id')} ORDER BY w.v ${dir}, w.id ${dir} LIMIT ${limit + 1}`,
            );
        // Fewer than a page inside the window: complete only if the window reached the end of the index.
        if (rows.length <= limit && !end) {
          out.push(...rows);
          if (!spec.nullable) return { rows: out.map(toRow), nextCursor: null };
          rows = [];
        }
      }
      if (rows.length <= limit && out.length === 0) {
        // Few matches: found through the filter and sorted. The unary + keeps SQLite from walking the
        // sort index instead, which for a filter with a few hundred matches means the whole table —
        // unless the filter is a range of the sort column itself (supporting:>10 sorted by supporting):
        // then the index walk starts at the range and finds the page at once. "Has a value" is written
        // so that it cannot pick the sort index either.
        const plus = filtered && !selfFiltered;
        const afterPlain =
          cursor && cursor.p === 0 ? sql` AND (+i.${c}, +i.id) ${cmp} (${cursor.v ?? null}, ${cursor.id ?? 0})` : sql``;
        const notNullPlain = spec.nullable ? sql` AND +i.${c} IS NOT NULL` : sql``;
        rows = this.#r.all<RawRow & { sort_value: SqlValue }>(
          sql`SELECT ${ROW_COLUMNS}, i.${c} AS sort_value FROM items i ${ROW_JOINS} WHERE ${where}${plus ? notNullPlain : notNull}${plus ? afterPlain : after}
              ORDER BY ${plus ? sql`+i.${c} ${dir}, +i.id ${dir}` : sql`i.${c} ${dir}, i.id ${dir}`} LIMIT ${limit + 1}`,
        );
      }
      if (rows.length > limit) {
        const last = rows[limit - 1]!;
        return {
          rows: rows.slice(0, limit).map(toRow),
          nextCursor: encodeCursor({ s: sort.column, d: sort.direction, p: 0, v: last.sort_value, id: last.id }),
        };
      }
      out.push(...rows);
      if (!spec.nullable) return { rows: out.map(toRow), nextCursor: null };
    }
    // Rows without a value come last in either direction, in id order.
    const afterId = cursor?.p === 1 && cursor.id !== undefined ? sql` AND i.id ${cmp} ${cursor.id}` : sql``;
    const want = limit - out.length;
    const rows = this.#r.all<RawRow>(
      // A narrow filter finds its rows and sorts them; walking the table in id order would read all of it.
      sql`SELECT ${ROW_COLUMNS} FROM items i ${ROW_JOINS} WHERE ${where} AND i.${c} IS NULL${afterId} ORDER BY ${filtered && !broad ? sql`+i.id` : sql`i.id`} ${dir} LIMIT ${want + 1}`,
    );
    out.push(...rows.slice(0, want));
    if (rows.length > want) {
      // want = 0: the previous phase filled the page; the next one starts at the first row without a value.
      const last = want > 0 ? rows[want - 1]!.id : undefined;
      nextCursor = encodeCursor(
        last === undefined
          ? { s: sort.column, d: sort.direction, p: 1 }
          : { s: sort.column, d: sort.direction, p: 1, id: last },
      );
    }
    return { rows: out.map(toRow), nextCursor };
  }

  /**
   * The cursor of the page that starts `offset` rows into the list: the keyset of the row before it,
   * read from the sort index alone (no row is built for the rows skipped), so the page itself and the
   * ones after it are read as any other. Rows with a value come first, then those without (in id
   * order), as list() pages them. Past the end: a cursor after the last row (an empty page).
   */
  #cursorAt(offset: number, sort: Sort, filters: SqlFragment[], match: string | null | undefined): Cursor {
    if (sort.column === 'relevance') return { s: 'relevance', d: sort.direction, o: offset };
    if (!SORT_COLUMNS.includes(sort.column))
      throw new CoreError('INVALID_INPUT', `Cannot sort by "${String(sort.column)}".`);
    const spec = SORT_SQL[sort.column];
    const c = ident(spec.column, SORT_IDENTS);
    const dir = sqlText(sort.direction === 'desc' ? 'DESC' : 'ASC');
    const all = match
      ? [...filters, sql`i.id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ${match})`]
      : filters;
    const where = joinSql(all, ' AND ');
    const notNull = spec.nullable ? sql` AND i.${c} IS NOT NULL` : sql``;
    const before = this.#r.get<{ v: SqlValue; id: number }>(
      sql`SELECT i.${c} AS v, i.id AS id FROM items i WHERE ${where}${notNull} ORDER BY i.${c} ${dir}, i.id ${dir} LIMIT 1 OFFSET ${offset - 1}`,
    );
    if (before) return { s: sort.column, d: sort.direction, p: 0, v: before.v, id: before.id };
    if (!spec.nullable) return this.#pastEnd(sort);
    // Among the rows without a value (the page's first row with one would have been found above).
    const valued = this.#r.get<{ n: number }>(sql`SELECT count(*) AS n FROM items i WHERE ${where}${notNull}`)!.n;
    const lastNull = this.#r.get<{ id: number }>(
      sql`SELECT i.id AS id FROM items i WHERE ${where} AND i.${c} IS NULL ORDER BY i.id ${dir} LIMIT 1 OFFSET ${offset - 1 - valued}`,
    );
    return lastNull ? { s: sort.column, d: sort.direction, p: 1, id: lastNull.id } : this.#pastEnd(sort);
  }

  /** A cursor no row comes after. */
  #pastEnd(sort: Sort): Cursor {
    const desc = sort.direction === 'desc';
    return { s: sort.column, d: sort.direction, p: 1, id: desc ? 0 : Number.MAX_SAFE_INTEGER };
  }

  /** Which bm25 ranks searches here (cw_bm25: the same scores, faster; see rank.ts), and why not cw_bm25. */
  searchRanking(): { fn: RankFunction; reason?: string } {
    return this.#rankFallbackReason ? { fn: this.#rankFn, reason: this.#rankFallbackReason } : { fn: this.#rankFn };
  }

  /** How many items a list would show (for the status bar); counts through the same filters. */
  count(options: Omit<ListOptions, 'sort' | 'cursor' | 'limit'> = {}): number {
    const compiled = compileQuery(this.#parse(options.query ?? ''), this.#fulltext);
    const filters = scopeFilters(options, compiled.where);
    if (compiled.match)
      filters.push(sql`i.id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ${compiled.match})`);
    return this.#r.get<{ n: number }>(sql`SELECT count(*) AS n FROM items i WHERE ${joinSql(filters, ' AND ')}`)!.n;
  }

  // ── Saved searches ──

  saveSearch(name: string, query: string, sort: Sort | null = null): number {
    this.#parse(query);
    const now = this.#now();
    const r = this.#w
      .run(sql`INSERT INTO saved_searches (name, query, sort, created_at, modified_at) VALUES (${name.trim()}, ${query}, ${sort ? JSON.stringify(sort) : null}, ${now}, ${now})
      ON CONFLICT(name) DO UPDATE SET query = excluded.query, sort = excluded.sort, modified_at = excluded.modified_at`);
    return (
      Number(r.lastInsertRowid) ||
      this.#w.get<{ id: number }>(sql`SELECT id FROM saved_searches WHERE name = ${name.trim()}`)!.id
    );
  }

  listSavedSearches(): SavedSearch[] {
    return this.#r
      .all<{ id: number; name: string; query: string; sort: string | null }>(
        sql`SELECT id, name, query, sort FROM saved_searches ORDER BY name COLLATE NOCASE`,
      )
      .map((s) => ({
        id: s.id,
        name: s.name,
        query: s.query,
        sort: s.sort ? readStored<Sort>(s.sort, `The sort order of the saved search “${s.name}”`, isObject) : null,
      }));
  }

  deleteSavedSearch(id: number): void {
    this.#w.run(sql`DELETE FROM saved_searches WHERE id = ${id}`);
  }

  /** The ids a list would show, all of them, oldest first (what an export of a collection or a search covers). */
  // One statement over the same filters as list and count, in list's dateAdded-ascending order: walking
  // the pages (1,000 rows each, every row's columns read) took 0.43 s for 10,000 ids.
  idsOf(options: Omit<ListOptions, 'sort' | 'cursor' | 'limit'> = {}): ItemId[] {
    const compiled = compileQuery(this.#parse(options.query ?? ''));
    const filters = scopeFilters(options, compiled.where);
    if (compiled.match)
      filters.push(sql`i.id IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ${compiled.match})`);
    return this.#r.pluck<ItemId>(
      sql`SELECT i.id FROM items i WHERE ${joinSql(filters, ' AND ')} ORDER BY i.date_added ASC, i.id ASC`,
    );
  }

  // ── Internals ──

  /** `fulltext:` terms test the item ids of the match, evaluated once for the list, its count and its pages. */
  readonly #fulltext: FulltextCondition = (expr) =>
    sql`i.id IN (SELECT value FROM json_each(${fulltextMatch(this.#r, expr).itemIdsJson}))`;

  /**
   * The ranking, as a direct call of the rank function the index is configured with (migration 0003
   * stores it as the table's 'rank'). Ordering by the `rank` column makes FTS5 evaluate that setting
   * for every match, which was measured to take twice as long as calling bm25 itself; a broad word
   * matches tens of thousands of items. Read once from the index's own configuration.
   */
  #rank(table: 'items_fts' | 'f.items_fts'): SqlFragment {
    this.#rankArgs ??= (() => {
      const config = this.#r.get<{ v: string }>(sql`SELECT v FROM items_fts_config WHERE k = 'rank'`)?.v ?? '';
      const m = /^\s*bm25\s*\(\s*((?:-?\d+(?:\.\d+)?\s*,\s*)*-?\d+(?:\.\d+)?)?\s*\)\s*$/.exec(config);
      return m ? (m[1] ? m[1].split(',').map((w) => String(Number(w))) : []) : null;
    })();
    // An unknown rank setting: leave it to FTS5.
    if (this.#rankArgs === null) return sqlText(table === 'f.items_fts' ? 'f.rank' : 'rank');
    return sqlText(`${this.#rankFn}(${[table, ...this.#rankArgs].join(', ')})`);
  }

  #parse(query: string) {
    try {
      return parseQuery(query);
    } catch (err) {
      if (err instanceof QuerySyntaxError)
        throw new CoreError('INVALID_INPUT', err.message, { start: err.span.start, end: err.span.end });
      throw err;
    }
  }
}
