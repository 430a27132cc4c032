// The library store: items with their creators, tags, notes, collections and attachments; duplicates
// and merge; undo. Synchronous over better-sqlite3: it runs inside the library worker (worker.ts), and
// tests use it directly. Writes go through the WriteDb; reads use a separate read-only connection,
// which in WAL mode sees the last committed state, so a long import never shows half its rows.
// Library is the top of a chain of rooms (library-base.ts lists them) and holds the stores that need
// no undo as fields (`listing`, `serviceCache`, `citeCache`…); this module holds imports,
// duplicates and merge, export and the manuscript lookup.
import { CiteCacheStore } from './cite-cache';
import { plainCslText, type CslItem } from '../../../shared/model/csl';
import { writtenDoi } from '../../../shared/model/doi';
import { statusFromNotices } from '../../../shared/model/item-status';
import type { CitationLookup, CitedItemFacts, LookupResult, MatchedBy } from '../../../shared/model/manuscript';
import { normaliseTitle } from '../formats/fingerprint';
import { CoreError } from '../errors';
import { exportItems, type ExportFormat } from '../formats';
import type { PreparedItem } from './derive';
import { recordUserEdits } from './edits';
import { AssistantStore } from './assistant-store';
import { AutoExportStore } from './auto-export-store';
import { libraryCounts, type LibraryCounts } from './counts';
import { ImportSession } from './import-session';
import { ServiceCollectionsStore } from './service-collections-store';
import { inBatches, inList, sql, type WriteDb } from './sql';
import { isNoteItem, NOTE_ITEM_TYPE } from '../../../shared/model/standalone-note';
import type { DuplicateGroup, ImportOptions, ItemId, RelatedItem } from './types';
import { ROW_COLUMNS, ROW_JOINS, type RawRow, type LibraryOptions, toRow, notFound } from './library-base';
import { ListingStore } from './list';
import { normDoi, ServiceCacheStore } from './service-cache';
import { paperVersions } from './versions';
import type { PaperVersions } from '../../../shared/model/paper-versions';
import { ZoteroRoom } from './zotero-room';
import { markNotDuplicates, pairKey, readNotDuplicates, splitGroup } from './not-duplicates';
import { recordWatchedFile, watchCounts, watchedChecksum, watchedFiles, type WatchedFile } from './watch-store';
import { storedCsl } from './stored-json';

export type { LibraryOptions };

export class Library extends ZoteroRoom {
  /** Auto-export definitions and runs (auto-export-store.ts); LibraryClient.autoExports in the app. */
  readonly autoExports: AutoExportStore;
  /** Assistant conversations (assistant-store.ts); LibraryClient.assistant in the app. */
  readonly assistant: AssistantStore;
  /** Collections made by the service, their DOIs, and the journal cache (service-collections-store.ts); LibraryClient.serviceCollections in the app. */
  readonly serviceCollections: ServiceCollectionsStore;
  /** Formatted bibliographies kept by key (cite-cache.ts); LibraryClient.citeCache in the app. */
  readonly citeCache: CiteCacheStore;
  /** Papers, tallies and notices from the service by DOI (service-cache.ts); LibraryClient.serviceCache in the app. */
  readonly serviceCache: ServiceCacheStore;
  /** Sorted pages, search, counts and saved searches (list.ts); LibraryClient.listing in the app. */
  readonly listing: ListingStore;

  constructor(options: LibraryOptions) {
    super(options);
    this.autoExports = new AutoExportStore({ db: this.w, now: this.now });
    this.assistant = new AssistantStore({ db: this.w, now: this.now });
    this.serviceCollections = new ServiceCollectionsStore({ db: this.w, now: this.now });
    this.serviceCache = new ServiceCacheStore({ write: this.w, read: this.r, now: this.now });
    this.listing = new ListingStore({ ...options, write: this.w, read: this.r, now: this.now });
    this.citeCache = new CiteCacheStore({
      write: this.w,
      read: this.r,
      now: this.now,
      ...(options.citeCacheLimits ? { limits: options.citeCacheLimits } : {}),
    });
  }

  // ── Import ──

  /**
   * An import fed in chunks (so a large file never has to cross a thread boundary whole) inside one
   * open transaction: commit() makes all of it visible at once; rollback(), an error or a crash leaves nothing.
   * `db` is the connection it writes on: the library worker gives it one of its own (worker.ts), so that
   * no other write lands inside the import's transaction and goes with it when it is rolled back.
   */
  beginImport(options: ImportOptions = {}, db: WriteDb = this.w): ImportSession {
    return new ImportSession(db, options, this.now());
  }

  /**
   * For an import preview: the item each entry is already in the library as (the rule an import
   * skips entries by, ImportSession), or null. Repeats within the entries themselves are not looked for.
   */
  sameEntries(items: readonly { prepared: PreparedItem; origin?: string }[], source?: string): (ItemId | null)[] {
    const session = new ImportSession(this.w, source === undefined ? {} : { source }, this.now(), false);
    return items.map((it) => session.existing(it.prepared, it.origin)?.id ?? null);
  }

  // ── Duplicates ──

  /** Groups of likely duplicates: same DOI; else same normalised title, a shared creator and years within one. */
  findDuplicates(): DuplicateGroup[] {
    const groups: DuplicateGroup[] = [];
    // Pairs the user marked "Not duplicates" are never joined (not-duplicates.ts).
    const apart = readNotDuplicates(this.r.raw);
    const byDoi = this.r.all<{ ids: string }>(
      sql`SELECT group_concat(id) AS ids FROM items WHERE doi IS NOT NULL AND trashed_at IS NULL GROUP BY doi HAVING count(*) > 1`,
    );
    for (const g of byDoi)
      for (const ids of splitGroup(
        g.ids
          .split(',')
          .map(Number)
          .sort((a, b) => a - b),
        apart,
      ))
        groups.push({ ids, reason: 'doi' });
    const byTitle = this.r.all<{ ids: string }>(
      // Standalone notes with the same first line are two notes, not one reference twice.
      sql`SELECT group_concat(id) AS ids FROM items WHERE title_sort IS NOT NULL AND trashed_at IS NULL AND type <> ${NOTE_ITEM_TYPE} GROUP BY title_sort HAVING count(*) > 1`,
    );
    for (const g of byTitle) {
      const ids = g.ids.split(',').map(Number);
      const info = ids.map((id) => {
        const row = this.r.get<{ year: number | null; doi: string | null }>(
          sql`SELECT year, doi FROM items WHERE id = ${id}`,
        )!;
        const names = new Set(
          this.r.pluck<string>(sql`SELECT family_norm FROM creators WHERE item_id = ${id} AND family_norm <> ''`),
        );
        return { id, ...row, names };
      });
      const related = new Set(this.#relatedPairs(ids));
      const parent = new Map(ids.map((id) => [id, id]));
      const find = (x: number): number => (parent.get(x) === x ? x : find(parent.get(x)!));
      for (let a = 0; a < info.length; a++)
        for (let b = a + 1; b < info.length; b++) {
          const x = info[a]!;
          const y = info[b]!;
          if (x.doi && y.doi && x.doi !== y.doi) continue; // different works, or a preprint and its publication
          if (related.has(`${x.id}:${y.id}`) || related.has(`${y.id}:${x.id}`)) continue;
          if (apart.has(pairKey(x.id, y.id))) continue;
          if (x.year !== null && y.year !== null && Math.abs(x.year - y.year) > 1) continue;
          if (![...x.names].some((n) => y.names.has(n))) continue;
          parent.set(find(y.id), find(x.id));
        }
      const sets = new Map<number, number[]>();
      for (const id of ids) sets.set(find(id), [...(sets.get(find(id)) ?? []), id]);
      for (const set of sets.values()) {
        if (set.length < 2) continue;
        const sorted = set.sort((a, b) => a - b);
        if (groups.some((g0) => g0.reason === 'doi' && sorted.every((id) => g0.ids.includes(id)))) continue;
        groups.push({ ids: sorted, reason: 'title-creator-year' });
      }
    }
    return groups;
  }

  /**
   * Marks a duplicate group's items as not duplicates of one another (every pair), so findDuplicates
   * no longer offers them together; `mark` false offers them again. Kept in the library file.
   */
  markNotDuplicates(ids: readonly ItemId[], mark = true): void {
    const list = [...new Set(ids)];
    if (list.length < 2) throw new CoreError('INVALID_INPUT', 'Choose at least two items to mark as not duplicates.');
    this.w.transaction(() => {
      for (const id of list)
        if (!this.w.get(sql`SELECT 1 AS x FROM items WHERE id = ${id}`)) throw notFound(`Item ${id}`);
      markNotDuplicates(this.w.raw, list, mark);
    });
  }

  /**
   * Merges `others` into `keepId`: the kept item gains every tag, note, collection membership,
   * attachment and key alias of the others, and any metadata field it lacks; the others are removed and
   * their citation keys keep resolving to the kept item. `chosen`, when given, is the user's
   * field-by-field choice (the merge dialog) and becomes the kept item's metadata, in the same undo
   * step as the merge: one undo brings every item back as it was.
   */
  mergeItems(keepId: ItemId, others: readonly ItemId[], chosen?: CslItem): void {
    const list = others.filter((id) => id !== keepId);
    if (list.length === 0) throw new CoreError('INVALID_INPUT', 'Choose at least one other item to merge.');
    const into = this.subject([keepId]);
    this.undoable(`Merge ${list.length + 1} items into ${into}`, [keepId, ...list], () => {
      const keep = this.rowOf(this.w, keepId);
      let csl = storedCsl(keep.csl, keepId, keep.citation_key);
      const now = this.now();
      for (const otherId of list) {
        const other = this.rowOf(this.w, otherId);
        const otherCsl = storedCsl(other.csl, otherId, other.citation_key);
        for (const [k, v] of Object.entries(otherCsl)) {
          if (k === 'id' || k === 'citation-key') continue;
          if (csl[k] === undefined || csl[k] === '' || (Array.isArray(csl[k]) && (csl[k] as unknown[]).length === 0))
            csl = { ...csl, [k]: v };
        }
        this.w.run(
          sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) SELECT ${keepId}, tag_id FROM item_tags WHERE item_id = ${otherId}`,
        );
        this.w.run(sql`UPDATE notes SET item_id = ${keepId} WHERE item_id = ${otherId}`);
        this.w.run(
          sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) SELECT collection_id, ${keepId}, added_at FROM collection_items WHERE item_id = ${otherId}`,
        );
        this.w.run(sql`UPDATE attachments SET item_id = ${keepId} WHERE item_id = ${otherId}`);
        this.w.run(sql`UPDATE key_aliases SET item_id = ${keepId} WHERE item_id = ${otherId}`);
        // The kept item is related to whatever the merged one was related to (but not to itself).
        this.w.run(sql`INSERT OR IGNORE INTO item_relations (item_id, related_id, added_at)
          SELECT min(${keepId}, o), max(${keepId}, o), ${now} FROM (SELECT related_id AS o FROM item_relations WHERE item_id = ${otherId}
            UNION SELECT item_id FROM item_relations WHERE related_id = ${otherId}) WHERE o <> ${keepId}`);
        // The entries the other was imported from are the kept item's now: importing them again adds nothing.
        this.w.run(sql`UPDATE OR IGNORE item_origins SET item_id = ${keepId} WHERE item_id = ${otherId}`);
        const earliest = Math.min(keep.date_added, other.date_added);
        this.deleteRow(otherId);
        this.w.run(sql`INSERT OR IGNORE INTO key_aliases (alias, item_id) VALUES (${other.citation_key}, ${keepId})`);
        this.w.run(sql`UPDATE items SET date_added = ${earliest} WHERE id = ${keepId}`);
      }
      if (chosen) {
        csl = { ...chosen, 'citation-key': keep.citation_key };
        // The user's choice is an edit: enrichment must not overwrite or re-fill it (edits.ts).
        recordUserEdits(this.w, keepId, storedCsl(keep.csl, keepId, keep.citation_key), csl, now);
      }
      this.writeItem(keepId, csl, keep.citation_key, now);
      return { value: undefined };
    });
  }

  /** Items linked to this one as its preprint or its published version (from cached paper data). */
  relatedItems(id: ItemId): RelatedItem[] {
    const row = this.r.get<{ doi: string | null }>(sql`SELECT doi FROM items WHERE id = ${id}`);
    if (!row) throw notFound('The item');
    if (!row.doi) return [];
    return this.r.all<RelatedItem>(sql`
      SELECT i.id, l.kind AS relation FROM service_paper_links l JOIN items i ON i.doi = l.linked_doi WHERE l.doi = ${row.doi} AND i.trashed_at IS NULL
      UNION
      SELECT i.id, CASE l.kind WHEN 'preprint' THEN 'publication' ELSE 'preprint' END FROM service_paper_links l JOIN items i ON i.doi = l.doi
        WHERE l.linked_doi = ${row.doi} AND i.trashed_at IS NULL`);
  }

  /** The item's published versions and preprints, named from the library or the service cache (versions.ts). */
  paperVersions(id: ItemId): PaperVersions {
    return paperVersions(this.r, id);
  }

  // ── Maintenance ──

  /** Updates the planner's statistics (after a large import), so sorted pages keep using their indexes. */
  optimize(): void {
    this.w.raw.pragma('optimize');
  }

  /** Copies the WAL into the database file (after a large import, when nothing else is waiting). */
  checkpoint(): void {
    this.w.raw.pragma('wal_checkpoint(PASSIVE)');
  }

  stats(): { items: number; trashed: number; collections: number; tags: number } {
    return this.r
      .get(sql`SELECT (SELECT count(*) FROM items WHERE trashed_at IS NULL) AS items, (SELECT count(*) FROM items WHERE trashed_at IS NOT NULL) AS trashed,
      (SELECT count(*) FROM collections) AS collections, (SELECT count(*) FROM tags) AS tags`)!;
  }

  /** Items by type, with a DOI, with tallies, retracted, counted in SQL (counts.ts): `citewise stats`. */
  counts(): LibraryCounts {
    return libraryCounts(this.r);
  }

  // ── Export ──

  /**
   * The CSL-JSON of items as exporters and the citation formatter take it: `id` and `citation-key` are
   * the citation key. In the order given; ids that do not exist are left out.
   */
  cslOf(ids: readonly ItemId[]): CslItem[] {
    const rows = inBatches(ids, (batch) =>
      this.r.all<{ id: number; csl: string; citation_key: string }>(
        sql`SELECT i.id, r.csl, i.citation_key FROM items i JOIN item_csl r ON r.item_id = i.id WHERE i.id IN ${inList(batch)}`,
      ),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out: CslItem[] = [];
    for (const id of ids) {
      const r = byId.get(id);
      if (r)
        out.push({ ...storedCsl(r.csl, r.id, r.citation_key), id: r.citation_key, 'citation-key': r.citation_key });
    }
    return out;
  }

  /**
   * What cslOf gives, as the JSON text of the list, built by SQLite (one statement, json_set): what an
   * export sends from the worker. Parsing it gives items equal to cslOf's, keys in the same order (an
   * existing `id` or `citation-key` keeps its place, new ones go last, as in cslOf's spread), so the
   * formatter's cache key (formats/cite/persist.ts) is the same. A list of 10,000 structured-cloned
   * objects cost the worker 0.5 s to send and 0.3 s to parse first; the text is one copy.
   */
  cslJsonOf(ids: readonly ItemId[]): string {
    if (ids.length === 0) return '[]';
    let rows: string[];
    try {
      rows = this.r.pluck<string>(sql`SELECT json_set(r.csl, '$.id', i.citation_key, '$."citation-key"', i.citation_key)
        FROM json_each(${JSON.stringify(ids)}) j JOIN items i ON i.id = j.value JOIN item_csl r ON r.item_id = i.id ORDER BY j.key`);
    } catch (err) {
      // SQLite's "malformed JSON": cslOf reads the same rows one by one and names the damaged item.
      this.cslOf(ids);
      throw err;
    }
    // A record that is JSON but not an object (json_set leaves it as it is): named the same way.
    if (rows.some((r) => !r.startsWith('{'))) this.cslOf(ids);
    return `[${rows.join(',')}]`;
  }

  /**
   * The best `limit` matches of a search as CSL-JSON (as cslOf), and `key`'s item first when it is a
   * citation key: what an editor's picker asks for at every keystroke, in one message to the worker
   * instead of three (search, key lookup, records).
   */
  searchCsl(query: string, limit: number, key?: string): CslItem[] {
    // A picker cites: standalone notes are no references, so they are never offered.
    const ids = this.listing
      .list({ query, sort: { column: 'relevance', direction: 'desc' }, limit, references: true })
      .rows.map((r) => r.id);
    const exact = key === undefined || key === '' ? null : this.findByCitationKey(key);
    const found = this.cslOf(exact === null ? ids : [exact, ...ids.filter((id) => id !== exact)]);
    return found.filter((item) => !isNoteItem(item)).slice(0, limit);
  }

  /** Of `ids`, the standalone notes (shared/model/standalone-note.ts): what exports and bibliographies leave out. */
  noteItemIds(ids: readonly ItemId[]): ItemId[] {
    return inBatches(ids, (batch) =>
      this.r.pluck<number>(sql`SELECT id FROM items WHERE type = ${NOTE_ITEM_TYPE} AND id IN ${inList(batch)}`),
    );
  }

  /** A reference file of the items (BibTeX, BibLaTeX, RIS, CSL-JSON), written here, off the thread that answers the UI. */
  exportText(
    ids: readonly ItemId[],
    format: ExportFormat,
    options: { notes?: boolean } = {},
  ): { content: string; items: number } {
    // Standalone notes are no references: every caller's export (the app, the CLI, the local APIs) leaves them out.
    const items = this.cslOf(ids).filter((item) => !isNoteItem(item));
    return {
      content: exportItems(items, format, options.notes ? { notes: this.#notesOf(items) } : {}),
      items: items.length,
    };
  }

  /** The notes (HTML) of exported items, by their order (cslOf's records carry the citation key as id). */
  #notesOf(items: readonly CslItem[]): string[][] {
    const byKey = new Map<string, string[]>();
    const keys = items.map((i) => String(i['citation-key']));
    for (const n of inBatches(keys, (batch) =>
      this.r.all<{ key: string; body: string }>(
        sql`SELECT i.citation_key AS key, n.body FROM notes n JOIN items i ON i.id = n.item_id WHERE i.citation_key IN ${inList(batch)} ORDER BY n.id`,
      ),
    ))
      byKey.set(n.key.toLowerCase(), [...(byKey.get(n.key.toLowerCase()) ?? []), n.body]);
    return keys.map((k) => byKey.get(k.toLowerCase()) ?? []);
  }

  /** Items (trashed ones too) by normalised DOI, for the DOIs given in any form; invalid ones are left out. */
  idsByDoi(dois: readonly string[]): Record<string, ItemId> {
    const wanted = [...new Set(dois.map(normDoi).filter((d): d is string => d !== null))];
    const out: Record<string, ItemId> = {};
    for (const r of inBatches(wanted, (batch) =>
      this.r.all<{ id: number; doi: string }>(sql`SELECT id, doi FROM items WHERE doi IN ${inList(batch)}`),
    ))
      out[r.doi] ??= r.id;
    return out;
  }

  /**
   * The manuscript check's lookup: for each cited reference, the item it is (by citation key or alias,
   * else DOI, else normalised title) with its notices, tallies and published versions; null when the
   * library has none. Titles are compared over one pass of the items, only when some reference needs it.
   */
  citedItems(refs: readonly CitationLookup[]): LookupResult[] {
    let byTitle: Map<string, number> | null = null;
    const found = refs.map((ref): { id: number; by: MatchedBy } | null => {
      const byKey = ref.key ? this.findByCitationKey(ref.key) : null;
      if (byKey !== null) return { id: byKey, by: 'key' };
      const doi = ref.doi ? normDoi(ref.doi) : null;
      const byDoi = doi
        ? this.r.get<{ id: number }>(
            sql`SELECT id FROM items WHERE doi = ${doi} ORDER BY trashed_at IS NOT NULL, id LIMIT 1`,
          )?.id
        : undefined;
      if (byDoi !== undefined) return { id: byDoi, by: 'doi' };
      if (!ref.title) return null;
      if (!byTitle) {
        byTitle = new Map();
        for (const r of this.r.all<{ id: number; title: string }>(
          sql`SELECT id, title FROM items WHERE title IS NOT NULL ORDER BY trashed_at IS NOT NULL, id`,
        )) {
          const t = normaliseTitle(r.title);
          if (t && !byTitle.has(t)) byTitle.set(t, r.id);
        }
      }
      const id = byTitle.get(normaliseTitle(ref.title));
      return id === undefined ? null : { id, by: 'title' };
    });
    const ids = [...new Set(found.flatMap((f) => (f ? [f.id] : [])))];
    const rows = new Map(
      inBatches(ids, (batch) =>
        this.r.all<RawRow>(sql`SELECT ${ROW_COLUMNS} FROM items i ${ROW_JOINS} WHERE i.id IN ${inList(batch)}`),
      ).map((r) => [r.id, toRow(r)]),
    );
    const facts = new Map<number, CitedItemFacts>();
    for (const [id, row] of rows) {
      // A preprint's published versions: its own publicationLinks, and papers that list it among their preprintLinks.
      const published = row.doi
        ? this.r.all<{ doi: string; key: string | null }>(sql`
            SELECT v.doi, (SELECT citation_key FROM items WHERE doi = v.doi AND trashed_at IS NULL ORDER BY id LIMIT 1) AS key FROM (
              SELECT linked_doi AS doi FROM service_paper_links WHERE doi = ${row.doi} AND kind = 'publication'
              UNION SELECT doi FROM service_paper_links WHERE linked_doi = ${row.doi} AND kind = 'preprint') v ORDER BY v.doi`)
        : [];
      // The report is plain text: the title without its CSL markup (<span class="nocase">), the DOI as
      // the item writes it (row.doi is the lower-case form kept for matching).
      const written = this.r.get<{ doi: unknown }>(
        sql`SELECT json_extract(csl, '$.DOI') AS doi FROM item_csl WHERE item_id = ${id}`,
      )?.doi;
      facts.set(id, {
        id,
        citationKey: row.citationKey,
        title: row.title === null ? null : plainCslText(row.title),
        creators: row.creators,
        year: row.year,
        doi:
          typeof written === 'string' && row.doi !== null && normDoi(written) === row.doi
            ? (writtenDoi(written) ?? row.doi)
            : row.doi,
        trashed: row.trashedAt !== null,
        status: statusFromNotices(row.notices, row.retracted),
        notices: row.notices,
        tallies:
          row.evidence.state === 'found'
            ? {
                supporting: row.evidence.supporting,
                contrasting: row.evidence.contrasting,
                mentioning: row.evidence.mentioning,
                total: row.evidence.total,
              }
            : null,
        publishedVersions: published.map((p) => ({ doi: p.doi, citationKey: p.key })),
      });
    }
    return found.map((f) => (f && facts.has(f.id) ? { matchedBy: f.by, item: facts.get(f.id)! } : null));
  }

  // ── The watched folder (watch-store.ts) ──

  watchedFiles(folder: string): WatchedFile[] {
    return watchedFiles(this.r, folder);
  }

  watchedChecksum(sha256: string): boolean {
    return watchedChecksum(this.r, sha256);
  }

  recordWatchedFile(file: WatchedFile): void {
    recordWatchedFile(this.w, file);
  }

  watchCounts(folder: string): { captured: number; failed: number } {
    return watchCounts(this.r, folder);
  }

  #relatedPairs(ids: number[]): string[] {
    const rows = this.r.all<{
      a: number;
      b: number;
    }>(sql`SELECT x.id AS a, y.id AS b FROM items x JOIN service_paper_links l ON l.doi = x.doi JOIN items y ON y.doi = l.linked_doi
      WHERE x.id IN ${inList(ids)} AND y.id IN ${inList(ids)}`);
    return rows.map((r) => `${r.a}:${r.b}`);
  }
}
