// Local copies of service collections and the journal index cache (migration 0010), and the library's
// side of the Collections and Journals panes: the DOIs of a selection or a library collection, which
// DOIs the library already holds, and the journals its items appear in. Runs in the library worker.
import { parseDoi, parseIssn } from '../../../shared/model/doi';
import type {
  Cached,
  CollectionOrigin,
  ServiceCollectionRecord,
  ServiceCollectionSummary,
} from '../../../shared/model/service-collections';
import type { Collection, EditorialNoticeCounts, JournalIndexRecord } from '../../../shared/service';
import { CoreError } from '../errors';
import { inBatches, inList, sql, type WriteDb } from './sql';
import { DamagedRecordError, isObject, readStored } from './stored-json';

interface CollectionRow {
  id: number;
  slug: string;
  name: string;
  origin: CollectionOrigin['kind'];
  request: string;
  data: string;
  created_at: number;
  fetched_at: number;
}

interface CacheRow {
  issn: string;
  found: number;
  data: string | null;
  fetched_at: number;
}

function cached<T>(row: CacheRow | undefined): Cached<T> {
  if (!row) return { state: 'not-fetched' };
  if (row.found === 0 || row.data === null) return { state: 'unknown', fetchedAt: row.fetched_at };
  // A cached answer damaged on disk is a miss: it is asked for again rather than failing the view.
  try {
    return {
      state: 'found',
      fetchedAt: row.fetched_at,
      value: readStored<T>(row.data, `The cached journal ${row.issn}`),
    };
  } catch (err) {
    if (err instanceof DamagedRecordError) return { state: 'not-fetched' };
    throw err;
  }
}

const collectionOf = (row: CollectionRow): Collection =>
  readStored<Collection>(row.data, `The dataset collection “${row.name}”`, isObject);

function summary(row: CollectionRow, collection: Collection): ServiceCollectionSummary {
  const matched = collection.matchedDoiCount ?? collection.doiQuery?.query?.dois?.length ?? 0;
  const unmatched = collection.unmatchedDoiCount ?? collection.unmatchedDois?.length ?? 0;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    origin: readStored<CollectionOrigin>(row.request, `The request of the dataset collection “${row.name}”`, isObject),
    matched,
    unmatched,
    total: collection.totalDoiCount ?? matched + unmatched,
    warning: collection.warning ? collection.warning : null,
    createdAt: row.created_at,
    fetchedAt: row.fetched_at,
  };
}

/** The ISSNs written in a CSL ISSN field: one, several separated by commas or spaces, or an array. */
export function issnsOf(value: unknown): string[] {
  const parts = Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value.split(/[,;]|\s(?=\d{4}-?\d{3}[\dXx])/)
      : [];
  const out: string[] = [];
  for (const p of parts) {
    const parsed = parseIssn(p);
    if (parsed.ok && !out.includes(parsed.issn)) out.push(parsed.issn);
  }
  return out;
}

export class ServiceCollectionsStore {
  readonly #db: WriteDb;
  readonly #now: () => number;
  #journalsMemo: { version: string; value: ReturnType<ServiceCollectionsStore['libraryJournals']> } | null = null;

  constructor(options: { db: WriteDb; now: () => number }) {
    this.#db = options.db;
    this.#now = options.now;
  }

  // ── service collections ──

  /** Keeps the service's answer for a collection: a new copy, or the refreshed one (same slug). */
  save(collection: Collection, origin: CollectionOrigin, fetchedAt = this.#now()): ServiceCollectionRecord {
    if (!collection.slug || typeof collection.slug !== 'string')
      throw new CoreError(
        'SERVICE_ERROR',
        'The service answered without the collection’s slug, so it could not be kept.',
      );
    this.#db.run(sql`INSERT INTO service_collections (slug, name, origin, request, data, created_at, fetched_at)
      VALUES (${collection.slug}, ${collection.name || collection.slug}, ${origin.kind}, ${JSON.stringify(origin)}, ${JSON.stringify(collection)}, ${fetchedAt}, ${fetchedAt})
      ON CONFLICT(slug) DO UPDATE SET name = excluded.name, data = excluded.data, fetched_at = excluded.fetched_at`);
    const row = this.#db.get<CollectionRow>(sql`SELECT * FROM service_collections WHERE slug = ${collection.slug}`)!;
    return { ...summary(row, collection), collection };
  }

  /** Replaces the kept answer of a collection already kept (a refresh). */
  update(id: number, collection: Collection, fetchedAt = this.#now()): ServiceCollectionRecord {
    const row = this.#row(id);
    if (collection.slug && collection.slug !== row.slug)
      throw new CoreError(
        'SERVICE_ERROR',
        `The service answered with another collection (${collection.slug}) than the one asked for (${row.slug}).`,
      );
    this.#db.run(
      sql`UPDATE service_collections SET name = ${collection.name || row.name}, data = ${JSON.stringify(collection)}, fetched_at = ${fetchedAt} WHERE id = ${id}`,
    );
    return this.get(id);
  }

  list(): ServiceCollectionSummary[] {
    return this.#db
      .all<CollectionRow>(sql`SELECT * FROM service_collections ORDER BY created_at DESC, id DESC`)
      .map((row) => summary(row, collectionOf(row)));
  }

  get(id: number): ServiceCollectionRecord {
    const row = this.#row(id);
    const collection = collectionOf(row);
    return { ...summary(row, collection), collection };
  }

  /** Forgets the local copy; the collection stays on the service (which offers no way to delete it). */
  remove(id: number): void {
    this.#row(id);
    this.#db.run(sql`DELETE FROM service_collections WHERE id = ${id}`);
  }

  #row(id: number): CollectionRow {
    const row = this.#db.get<CollectionRow>(sql`SELECT * FROM service_collections WHERE id = ${id}`);
    if (!row) throw new CoreError('NOT_FOUND', `Service collection ${id} is not kept in this library.`);
    return row;
  }

  // ── the library's DOIs ──

  /** The DOIs of these items (in the library, not in the Trash), in the order given, once each. */
  doisOfItems(ids: readonly number[]): string[] {
    const rows = inBatches([...ids], (batch) =>
      this.#db.all<{ id: number; doi: string }>(
        sql`SELECT id, doi FROM items WHERE id IN ${inList(batch)} AND doi IS NOT NULL AND trashed_at IS NULL`,
      ),
    );
    const byId = new Map(rows.map((r) => [r.id, r.doi]));
    return [...new Set(ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])))];
  }

  /** A library collection's name and the DOIs of its items, its subcollections' included. */
  doisOfCollection(collectionId: number): { name: string; dois: string[]; items: number } {
    const name = this.#db.pluck<string>(sql`SELECT name FROM collections WHERE id = ${collectionId}`)[0];
    if (name === undefined) throw new CoreError('NOT_FOUND', `Collection ${collectionId} is not in the library.`);
    const rows = this.#db.all<{
      doi: string | null;
    }>(sql`WITH RECURSIVE tree(id) AS (SELECT ${collectionId} UNION SELECT c.id FROM collections c JOIN tree t ON c.parent_id = t.id)
      SELECT DISTINCT i.id, i.doi FROM items i JOIN collection_items ci ON ci.item_id = i.id WHERE ci.collection_id IN (SELECT id FROM tree) AND i.trashed_at IS NULL ORDER BY i.id`);
    return { name, dois: [...new Set(rows.flatMap((r) => (r.doi ? [r.doi] : [])))], items: rows.length };
  }

  /** Which of these DOIs are items in the library (not in the Trash), normalised. */
  doisInLibrary(dois: readonly string[]): string[] {
    const normalised = [
      ...new Set(
        dois.flatMap((d) => {
          const p = parseDoi(d);
          return p.ok ? [p.doi as string] : [];
        }),
      ),
    ];
    return inBatches(normalised, (batch) =>
      this.#db.pluck<string>(sql`SELECT DISTINCT doi FROM items WHERE doi IN ${inList(batch)} AND trashed_at IS NULL`),
    );
  }

  // ── journals ──

  putJournalIndex(issn: string, records: JournalIndexRecord[] | null, fetchedAt = this.#now()): void {
    const parsed = parseIssn(issn);
    if (!parsed.ok) throw new CoreError('INVALID_INPUT', `"${issn}" is not a valid ISSN. ${parsed.reason}`);
    const found = records !== null && records.length > 0;
    this.#db
      .run(sql`INSERT INTO service_journal_index (issn, found, data, fetched_at) VALUES (${parsed.issn}, ${found ? 1 : 0}, ${found ? JSON.stringify(records) : null}, ${fetchedAt})
      ON CONFLICT(issn) DO UPDATE SET found = excluded.found, data = excluded.data, fetched_at = excluded.fetched_at`);
  }

  /** Editorial notice totals of one ISSN, kept in 0004's service_journal_notices (null: the service has none). */
  putJournalNotices(issn: string, notices: EditorialNoticeCounts | null, fetchedAt = this.#now()): void {
    const parsed = parseIssn(issn);
    if (!parsed.ok) throw new CoreError('INVALID_INPUT', `"${issn}" is not a valid ISSN. ${parsed.reason}`);
    this.#db
      .run(sql`INSERT INTO service_journal_notices (issn, found, data, fetched_at) VALUES (${parsed.issn}, ${notices ? 1 : 0}, ${notices ? JSON.stringify(notices) : null}, ${fetchedAt})
      ON CONFLICT(issn) DO UPDATE SET found = excluded.found, data = excluded.data, fetched_at = excluded.fetched_at`);
  }

  /** Writes a batch of journal answers in one transaction. */
  putJournals(
    batch: {
      index?: Record<string, JournalIndexRecord[] | null>;
      notices?: Record<string, EditorialNoticeCounts | null>;
    },
    fetchedAt = this.#now(),
  ): void {
    this.#db.transaction(() => {
      for (const [issn, records] of Object.entries(batch.index ?? {})) this.putJournalIndex(issn, records, fetchedAt);
      for (const [issn, notices] of Object.entries(batch.notices ?? {}))
        this.putJournalNotices(issn, notices, fetchedAt);
    });
  }

  /** The cached index and notices of these ISSNs (normalised; invalid ones are left out). */
  journalCache(
    issns: readonly string[],
  ): Record<string, { index: Cached<JournalIndexRecord[]>; notices: Cached<EditorialNoticeCounts> }> {
    const keys = [
      ...new Set(
        issns.flatMap((i) => {
          const p = parseIssn(i);
          return p.ok ? [p.issn as string] : [];
        }),
      ),
    ];
    const index = new Map(
      inBatches(keys, (b) =>
        this.#db.all<CacheRow>(
          sql`SELECT issn, found, data, fetched_at FROM service_journal_index WHERE issn IN ${inList(b)}`,
        ),
      ).map((r) => [r.issn, r]),
    );
    const notices = new Map(
      inBatches(keys, (b) =>
        this.#db.all<CacheRow>(
          sql`SELECT issn, found, data, fetched_at FROM service_journal_notices WHERE issn IN ${inList(b)}`,
        ),
      ).map((r) => [r.issn, r]),
    );
    return Object.fromEntries(
      keys.map((k) => [
        k,
        { index: cached<JournalIndexRecord[]>(index.get(k)), notices: cached<EditorialNoticeCounts>(notices.get(k)) },
      ]),
    );
  }

  /**
   * The journals the library's items appear in: each item counts once, under the first valid ISSN of
   * its ISSN field, or else of the paper the service describes for its DOI. Most items first.
   * Remembered until the library next changes: opening a journal asks for its item count, and reading
   * 100,000 items for that each time would take a second.
   */
  libraryJournals(): { journals: { issn: string; title: string | null; items: number }[]; itemsWithoutIssn: number } {
    // This connection's writes, and commits by other connections (the command line on the same file).
    const version = `${this.#db.pluck<number>(sql`SELECT total_changes()`)[0]!}:${String(this.#db.raw.pragma('data_version', { simple: true }))}`;
    if (this.#journalsMemo?.version === version) return this.#journalsMemo.value;
    // The CSL is compact JSON written by the library (JSON.stringify), so a string ISSN field is found by
    // its key without parsing every record; an array goes through json_extract. The service's paper is
    // read only for items without an ISSN field.
    const rows = this.#db.all<{ issn: string | null; container: string | null; issns: string | null }>(
      sql`SELECT CASE WHEN instr(r.csl, '"ISSN":"') > 0 THEN substr(r.csl, instr(r.csl, '"ISSN":"') + 8, 60)
                      WHEN instr(r.csl, '"ISSN":[') > 0 THEN json_extract(r.csl, '$.ISSN') END AS issn,
             i.container,
             CASE WHEN instr(r.csl, '"ISSN":') = 0 AND i.doi IS NOT NULL THEN (SELECT json_extract(p.data, '$.issns') FROM service_papers p WHERE p.doi = i.doi AND p.found = 1) END AS issns
        FROM items i JOIN item_csl r ON r.item_id = i.id WHERE i.trashed_at IS NULL`,
    );
    const journals = new Map<string, { items: number; titles: Map<string, number> }>();
    let without = 0;
    for (const r of rows) {
      let issn: string | undefined;
      if (r.issn !== null)
        issn = issnsOf(
          r.issn.startsWith('[') ? (JSON.parse(r.issn) as unknown) : r.issn.slice(0, Math.max(0, r.issn.indexOf('"'))),
        )[0];
      if (!issn && r.issns) issn = issnsOf(JSON.parse(r.issns) as unknown)[0];
      if (!issn) {
        without++;
        continue;
      }
      const j = journals.get(issn) ?? { items: 0, titles: new Map<string, number>() };
      j.items++;
      if (r.container) j.titles.set(r.container, (j.titles.get(r.container) ?? 0) + 1);
      journals.set(issn, j);
    }
    const list = [...journals.entries()].map(([issn, j]) => ({
      issn,
      title: [...j.titles.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null,
      items: j.items,
    }));
    list.sort((a, b) => b.items - a.items || a.issn.localeCompare(b.issn));
    const value = { journals: list, itemsWithoutIssn: without };
    this.#journalsMemo = { version, value };
    return value;
  }

  /** Items with this ISSN (in their ISSN field) and their most common journal name. */
  journalInLibrary(issn: string): { items: number; title: string | null } {
    const found = this.libraryJournals().journals.find((j) => j.issn === issn);
    return found ? { items: found.items, title: found.title } : { items: 0, title: null };
  }
}
