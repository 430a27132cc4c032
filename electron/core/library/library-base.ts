// The ground floor of the Library (library.ts). What changes items and their undo log is still a chain
// of rooms, each a class extending the one before: LibraryBase → UndoLog (undo.ts) → ItemsRoom
// (items.ts) → CollectionsRoom (collections.ts) → ZoteroRoom (zotero-room.ts) → Library. Concerns that need no undo are stores of
// their own, which Library holds as readonly fields and the worker dispatches to by name
// (dispatch.ts storesOf): listing and search (list.ts), the service cache (service-cache.ts), the
// cite cache, auto-exports, the assistant, service collections. This one holds the two connections
// and the row writes several rooms share (protected: dispatch.ts refuses them to a raw 'call'); a
// room's own helpers stay #private to it. Synchronous over better-sqlite3, like every room.
import type { CiteCacheLimits } from './cite-cache';
import type { CslItem } from '../../../shared/model/csl';
import { CoreError } from '../errors';
import { derive } from './derive';
import { FTS_ROWS } from './search-index';
import type { RankFunction } from './rank';
import { inList, sql, type ReadDb, type WriteDb } from './sql';
import type { ItemId, LibraryRow, ServiceWait, TallyState } from './types';

export const ROW_COLUMNS = sql`i.id, i.type, i.citation_key, i.title, i.creators_text, i.year, i.container, i.doi, i.date_added, i.date_modified, i.trashed_at,
  t.found AS t_found, t.fetched_at AS t_fetched_at, t.total AS t_total, t.supporting AS t_supporting, t.contrasting AS t_contrasting,
  t.mentioning AS t_mentioning, t.unclassified AS t_unclassified, t.citing_publications AS t_citing, n.found AS n_found, n.retracted AS n_retracted, n.kinds AS n_kinds,
  i.notes_count, i.attachments_count,
  (SELECT json_array(json_extract(x.csl, '$.publisher'), json_extract(x.csl, '$.page'), substr(json_extract(x.csl, '$.note'), 1, 300)) FROM item_csl x WHERE x.item_id = i.id) AS x_fields,
  (SELECT count(*) FROM attachments a WHERE a.item_id = i.id AND a.mime = 'application/pdf') AS pdf_count`;
export const ROW_JOINS = sql`LEFT JOIN service_tallies t ON t.doi = i.doi LEFT JOIN service_notices n ON n.doi = i.doi`;

// The same text the 0003 migration indexes; kept here for items written after it.
const FTS_SELECT = `${FTS_ROWS} WHERE i.id = ?`;

export interface RawRow {
  id: number;
  type: string;
  citation_key: string;
  title: string | null;
  creators_text: string | null;
  year: number | null;
  container: string | null;
  doi: string | null;
  date_added: number;
  date_modified: number;
  trashed_at: number | null;
  t_found: number | null;
  t_fetched_at: number | null;
  t_total: number | null;
  t_supporting: number | null;
  t_contrasting: number | null;
  t_mentioning: number | null;
  t_unclassified: number | null;
  t_citing: number | null;
  n_found: number | null;
  n_retracted: number | null;
  /** The notice kinds as `,kind,kind,` (service_notices.kinds). */
  n_kinds: string | null;
  notes_count: number;
  attachments_count: number;
  /** [publisher, page, note] from the item's CSL, as JSON (migration 0023's columns show them). */
  x_fields: string | null;
  pdf_count: number;
}

export interface LibraryOptions {
  write: WriteDb;
  read: ReadDb;
  now?: () => number;
  /** Undo entries kept. */
  undoLimit?: number;
  /** Thresholds of the sorted-page strategy (tests make them small to reach every path). */
  paging?: { window?: number };
  /** The bm25 the read connection has (rank.ts); default FTS5's own. */
  rankFunction?: RankFunction;
  /** Why it is not cw_bm25, for the record. */
  rankFallbackReason?: string;
  /** Bounds of the formatted-bibliography cache (cite-cache.ts). */
  citeCacheLimits?: Partial<CiteCacheLimits>;
}

export function tallyState(r: RawRow): TallyState {
  if (r.t_found === null || r.t_fetched_at === null) return { state: 'not-fetched' };
  if (r.t_found === 0) return { state: 'unknown', fetchedAt: r.t_fetched_at };
  return {
    state: 'found',
    fetchedAt: r.t_fetched_at,
    total: r.t_total ?? 0,
    supporting: r.t_supporting ?? 0,
    contrasting: r.t_contrasting ?? 0,
    mentioning: r.t_mentioning ?? 0,
    unclassified: r.t_unclassified ?? 0,
    citingPublications: r.t_citing,
  };
}

export function toRow(r: RawRow): LibraryRow {
  return {
    id: r.id,
    type: r.type as LibraryRow['type'],
    citationKey: r.citation_key,
    title: r.title,
    creators: r.creators_text,
    year: r.year,
    container: r.container,
    doi: r.doi,
    dateAdded: r.date_added,
    dateModified: r.date_modified,
    trashedAt: r.trashed_at,
    evidence: tallyState(r),
    retracted: r.n_found === 1 && r.n_retracted !== null ? r.n_retracted === 1 : null,
    notices: r.n_found === 1 && r.n_kinds ? r.n_kinds.split(',').filter((k) => k !== '') : [],
    ...extraFields(r.x_fields),
    notesCount: r.notes_count,
    files: { count: r.attachments_count, pdf: r.pdf_count },
  };
}

const fieldText = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;

/** Publisher, pages and Extra (CSL note, its first line) of a row, from ROW_COLUMNS' x_fields. */
function extraFields(json: string | null): Pick<LibraryRow, 'publisher' | 'pages' | 'extra'> {
  const [publisher, pages, note] = json ? (JSON.parse(json) as unknown[]) : [];
  const extra = fieldText(note);
  return {
    publisher: fieldText(publisher),
    pages: fieldText(pages),
    extra: extra === null ? null : (extra.split('\n')[0] ?? '').trim() || null,
  };
}

/**
 * What the items wait for from the citation service (ServiceWait), for one page of rows: a pending
 * capture its title search; a DOI placeholder its metadata, until the service has answered for the
 * DOI (a DOI the service does not know waits for nothing more). Read per page, not in the list's
 * query; the placeholders come from a partial index (migration 0020), so no CSL is read.
 */
export function waitingOf(db: ReadDb, ids: readonly ItemId[]): Map<ItemId, ServiceWait> {
  const out = new Map<ItemId, ServiceWait>();
  for (const batch of chunk(ids)) {
    const rows = db.all<{ id: number; kind: 'metadata' | 'title-search'; value: string | null }>(sql`
      SELECT c.item_id AS id, 'title-search' AS kind, json_extract(c.evidence, '$[0].matched') AS value
        FROM pdf_captures c WHERE c.state = 'pending' AND c.item_id IN ${inList(batch)}
      UNION ALL
      SELECT i.id, 'metadata', i.doi FROM items i
        WHERE i.id IN ${inList(batch)} AND i.doi IS NOT NULL
          AND i.id IN (SELECT item_id FROM item_csl WHERE json_extract(csl, '$.custom.citewise.pendingMetadata') = 1)
          AND NOT EXISTS (SELECT 1 FROM service_papers p WHERE p.doi = i.doi AND p.found = 0)`);
    for (const r of rows) {
      if (r.value === null || out.has(r.id)) continue;
      out.set(
        r.id,
        r.kind === 'metadata' ? { for: 'metadata', doi: r.value } : { for: 'title-search', title: r.value },
      );
    }
  }
  return out;
}

/** The rows with what they wait for from the service (waitingOf). */
export function withWaiting<R extends LibraryRow>(db: ReadDb, rows: R[]): R[] {
  const waiting = waitingOf(
    db,
    rows.map((r) => r.id),
  );
  return waiting.size === 0 ? rows : rows.map((r) => (waiting.has(r.id) ? { ...r, waiting: waiting.get(r.id)! } : r));
}

export const notFound = (what: string): CoreError => new CoreError('NOT_FOUND', `${what} is not in the library.`);

export function chunk<T>(values: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

export abstract class LibraryBase {
  protected readonly w: WriteDb;
  protected readonly r: ReadDb;
  protected readonly now: () => number;

  constructor(options: LibraryOptions) {
    this.w = options.write;
    this.r = options.read;
    this.now = options.now ?? Date.now;
  }

  protected deleteRow(id: ItemId): void {
    this.w.run(sql`DELETE FROM items_fts WHERE rowid = ${id}`);
    this.w.run(sql`DELETE FROM items WHERE id = ${id}`);
  }

  protected reindex(ids: readonly ItemId[]): void {
    const del = this.w.raw.prepare('DELETE FROM items_fts WHERE rowid = ?');
    const ins = this.w.raw.prepare(
      `INSERT INTO items_fts (rowid, title, abstract, creators, container, tags, notes, citation_key) ${FTS_SELECT}`,
    );
    for (const id of ids) {
      del.run(id);
      ins.run(id);
    }
  }

  protected rowOf(db: ReadDb, id: ItemId): { id: number; citation_key: string; csl: string; date_added: number } {
    const row = db.get<{ id: number; citation_key: string; csl: string; date_added: number }>(
      sql`SELECT i.id, i.citation_key, r.csl, i.date_added FROM items i JOIN item_csl r ON r.item_id = i.id WHERE i.id = ${id}`,
    );
    if (!row) throw notFound(`Item ${id}`);
    return row;
  }

  protected writeItem(id: ItemId, csl: CslItem, key: string, now = this.now()): void {
    const d = derive(csl);
    this.w
      .run(sql`UPDATE items SET type = ${csl.type}, citation_key = ${key}, title = ${d.title}, title_sort = ${d.titleSort}, creators_text = ${d.creatorsText},
      creators_sort = ${d.creatorsSort}, year = ${d.year}, container = ${d.container}, container_sort = ${d.containerSort}, doi = ${d.doi},
      publisher_sort = ${d.publisherSort}, pages_sort = ${d.pagesSort}, extra_sort = ${d.extraSort}, date_modified = ${now} WHERE id = ${id}`);
    this.w.run(sql`UPDATE item_csl SET csl = ${JSON.stringify(csl)} WHERE item_id = ${id}`);
    this.w.run(sql`DELETE FROM creators WHERE item_id = ${id}`);
    for (const c of d.creators) {
      this.w.run(
        sql`INSERT INTO creators (item_id, role, position, family, given, literal, family_norm) VALUES (${id}, ${c.role}, ${c.position}, ${c.family}, ${c.given}, ${c.literal}, ${c.familyNorm})`,
      );
    }
    this.reindex([id]);
  }

  protected tagId(name: string): number {
    this.w.run(sql`INSERT INTO tags (name) VALUES (${name}) ON CONFLICT(name) DO NOTHING`);
    return this.w.get<{ id: number }>(sql`SELECT id FROM tags WHERE name = ${name}`)!.id;
  }
}
