// One import inside one transaction (ImportSession): duplicates and free keys looked up, items written,
// the indexes of an empty library built once at commit. Library.beginImport starts one; the library
// worker keeps it open across the chunks a parser posts on the import port (or addDois sends), and
// records each entry's problems as ImportIssues with the entry's place (EntryPlace).
import { uniqueCitationKey } from '../../../shared/model/citekey';
import type { CslItem } from '../../../shared/model/csl';
import type { KeyFormula } from '../../../shared/model/citekey-formula';
import { cslText, prepareItem, withKey, type PreparedItem } from './derive';
import { storedKeyFormula } from './key-formula';
import { isStorageFault } from './faults';
import { FTS_ROWS } from './search-index';
import type { SqlValue, WriteDb } from './sql';
import type { Statement } from 'better-sqlite3';
import type { PortItem } from '../formats/import-port';
import type { EntryPlace, ImportOptions, ImportResult, ItemId, SameEntryReason } from './types';
import type { ImportIssue } from '../../../shared/model/library';

const NO_TALLIES: readonly SqlValue[] = [null, null, null, null];

/**
 * The indexes an import into an empty library builds once at commit (their SQL is read from the
 * schema): those whose keys arrive in random order, where each row would touch a different page.
 * items_doi is among them, since with nothing in the library before, duplicates are found in memory.
 * The date, type and year indexes stay: rows arrive in their order or in a few runs of it, so keeping
 * them costs less than another scan of the whole table at commit. The filter index (migration 0011)
 * gets its keys in order too, but kept row by row it added 2 s to a 100,000-entry import (one more
 * B-tree's pages in a transaction that already fills the page cache); built at commit it takes 0.25 s.
 */
export const DEFERRED_INDEXES = [
  'items_by_title',
  'items_by_creators',
  'items_by_container',
  'items_doi',
  'items_filter',
  'items_by_publisher',
  'items_by_pages',
  'items_by_extra',
  // Each entry's origin (migration 0022): random keys, like the title's.
  'item_origins_by_origin',
  'item_origins_by_key',
] as const;

/**
 * One import inside one transaction. Prepared statements and an in-memory map of the keys given out
 * keep it fast.
 *
 * Every entry of a source arrives, except one the library already holds as the same entry, so that
 * importing the same file again adds nothing (docs/formats-ris-csljson.md, "Same entry"):
 * - an entry imported before, as the file wrote it (its origin, formats/origin.ts), is the item it
 *   became then, whatever became of that item's key and title since;
 * - an entry with its own citation key is the same entry as an item with that key (or key alias, or
 *   that the file gave an item on an earlier import) and the same DOI (both have one) or else the same
 *   normalised title (now, or as an earlier import found it);
 * - an entry without a key of its own (RIS without ID, CSL-JSON with Zotero's numeric ids, papers
 *   added by DOI) is the same as an item that was there before this import with the same DOI, or,
 *   when neither has one, an item from the same source (file name) with the same normalised title,
 *   creators, year and type.
 * Two entries of one file with different keys are both kept even when they share a DOI (a book and a
 * chapter of it), and so is an entry whose DOI an item with another key has: likely duplicates across
 * files are kept, reported, and listed by findDuplicates for the user to merge, never dropped here.
 */
export class ImportSession {
  readonly #db: WriteDb;
  readonly #options: ImportOptions;
  readonly #now: number;
  readonly #own: boolean;
  readonly #result: ImportResult = { added: 0, ids: [], duplicates: [], errors: [], warnings: [] };
  /** The largest item id before this import: items above it are this import's own. */
  #before = 0;
  /** Keys this import gave out (lowercase, as the column compares them) → the item (ids only: 100,000 of them stay small). */
  readonly #seenKeys = new Map<string, ItemId>();
  /**
   * Keys this import gave to an entry that did not ask for them (lowercase → that entry): a key made
   * by the formula, or a requested key with a suffix. A later entry of the file that asks for such a
   * key takes it back, and the entry holding it gets another (see #reclaim): a key the file gives is
   * never handed to another entry, whatever order the entries come in.
   */
  readonly #provisional = new Map<string, Provisional>();
  /** Origins this import stored, in an empty library (where they are looked up in memory) → the item. */
  readonly #seenOrigins = new Map<string, ItemId>();
  /** In an empty library: keys the file asked for that went to an item under another key (a key used twice) → those items. */
  readonly #renamedKeys = new Map<string, ItemId[]>();
  readonly #tagIds = new Map<string, number>();
  /**
   * Keys the file asked for that were taken, → where and what each entry got instead: reported at the
   * commit as one line per key ("Smith2020" used by 4 entries…), not one per entry.
   */
  readonly #collisions = new Map<string, { at: EntryPlace; renamed: { line: number; key: string }[] }>();
  /**
   * The library was empty when this import began (checked inside its transaction): every duplicate
   * and taken key is then one this import made, so the lookups stay in memory, without a query per item.
   */
  #fresh = false;
  /** Whether any evidence tallies are cached at all; without any, no item needs a lookup. */
  #anyTallies = true;
  #index = 0;
  #open = true;
  #lastKey: string | null = null;
  /** The dropped indexes' own CREATE statements, as the migrations defined them, to recreate at commit. */
  #deferred: string[] = [];
  /** Settings → Citation keys, when it is not the default (whose key each prepared item carries). */
  readonly #formula: KeyFormula | null;
  readonly #st;

  constructor(db: WriteDb, options: ImportOptions, now: number, ownTransaction = true) {
    this.#db = db;
    this.#options = options;
    this.#now = now;
    this.#own = ownTransaction;
    const raw = db.raw;
    this.#formula = storedKeyFormula(db);
    if (!ownTransaction) this.#before = Number.MAX_SAFE_INTEGER;
    this.#st = {
      byDoi: raw
        .prepare('SELECT id FROM items WHERE doi = ? AND trashed_at IS NULL AND id <= ? ORDER BY id LIMIT 1')
        .pluck(),
      byTitle: raw
        .prepare(
          `SELECT id FROM items WHERE title_sort = ? AND trashed_at IS NULL AND id <= ? AND doi IS NULL AND type = ? AND year IS ? AND creators_sort IS ?
        AND source IS ? ORDER BY id LIMIT 1`,
        )
        .pluck(),
      byKey: raw.prepare(`SELECT id, title_sort, doi FROM items WHERE citation_key = ? AND trashed_at IS NULL
        UNION SELECT i.id, i.title_sort, i.doi FROM key_aliases a JOIN items i ON i.id = a.item_id WHERE a.alias = ? AND i.trashed_at IS NULL
        UNION SELECT i.id, i.title_sort, i.doi FROM item_origins o JOIN items i ON i.id = o.item_id
          WHERE o.source_key = ? COLLATE NOCASE AND i.trashed_at IS NULL ORDER BY 1`),
      byOrigin: raw
        .prepare(
          'SELECT o.item_id FROM item_origins o JOIN items i ON i.id = o.item_id WHERE o.origin = ? AND i.trashed_at IS NULL ORDER BY o.item_id LIMIT 1',
        )
        .pluck(),
      titleSeen: raw.prepare('SELECT 1 FROM item_origins WHERE item_id = ? AND title_sort = ?').pluck(),
      origin: raw.prepare(
        'INSERT OR IGNORE INTO item_origins (item_id, origin, source_key, title_sort) VALUES (?, ?, ?, ?)',
      ),
      identityOf: raw.prepare('SELECT id, title_sort, doi FROM items WHERE id = ?'),
      keyOf: raw.prepare('SELECT citation_key FROM items WHERE id = ?').pluck(),
      keyTaken: raw
        .prepare('SELECT 1 FROM items WHERE citation_key = ? UNION ALL SELECT 1 FROM key_aliases WHERE alias = ?')
        .pluck(),
      // Tallies cached before the item existed (an item deleted and imported again) come with the insert.
      // (INSERT … SELECT with a join was measured to slow a large import down many times over.)
      tallies: raw
        .prepare(
          'SELECT supporting, contrasting, mentioning, citing_publications FROM service_tallies WHERE doi = ? AND found = 1',
        )
        .raw(),
      insert:
        raw.prepare(`INSERT INTO items (type, citation_key, title, title_sort, creators_text, creators_sort, year, container, container_sort, doi,
        date_added, date_modified, source, publisher_sort, pages_sort, extra_sort, supporting, contrasting, mentioning, citing) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      // CAST: a record off the import port is UTF-8 bytes, stored as the text they are (a string stays as it is).
      csl: raw.prepare('INSERT INTO item_csl (item_id, csl) VALUES (?, CAST(? AS TEXT))'),
      // One row per statement: multi-row INSERTs need a statement journal and were measured to be slower.
      creator: raw.prepare(
        'INSERT INTO creators (item_id, role, position, family, given, literal, family_norm) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      tag: raw
        .prepare('INSERT INTO tags (name) VALUES (?) ON CONFLICT(name) DO UPDATE SET name = name RETURNING id')
        .pluck(),
      itemTag: raw.prepare('INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (?, ?)'),
      fts: raw.prepare(
        'INSERT INTO items_fts (rowid, title, abstract, creators, container, tags, notes, citation_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      // A key taken back from an entry of this import (rare: only on a collision), so prepared lazily.
      rekey: null as null | { key: Statement; csl: Statement; ftsDelete: Statement; ftsInsert: Statement },
      caseAlias: null as null | { held: Statement; add: Statement },
    };
    if (this.#own) {
      raw.exec('BEGIN IMMEDIATE');
      this.#before = (raw.prepare('SELECT coalesce(max(id), 0) FROM items').pluck().get() as number) ?? 0;
      // A bulk load into an empty library builds the sort indexes once at commit (sorted, in one pass)
      // instead of updating six B-trees per row. Inside the transaction: a rollback or a crash brings them
      // back untouched, and readers never see the library without them.
      this.#anyTallies =
        raw.prepare('SELECT EXISTS (SELECT 1 FROM service_tallies WHERE found = 1)').pluck().get() === 1;
      if (raw.prepare('SELECT NOT EXISTS (SELECT 1 FROM items) AS empty').pluck().get() === 1) {
        // Aliases belong to items (ON DELETE CASCADE): none are left in an empty library.
        this.#fresh = true;
        const present = new Map(
          (
            raw
              .prepare(
                "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('items', 'item_origins') AND sql IS NOT NULL",
              )
              .all() as { name: string; sql: string }[]
          ).map((r) => [r.name, r.sql]),
        );
        if (DEFERRED_INDEXES.every((name) => present.has(name))) {
          this.#deferred = DEFERRED_INDEXES.map((name) => present.get(name)!);
          for (const name of DEFERRED_INDEXES) raw.exec(`DROP INDEX ${name}`);
        }
      }
    }
  }

  /** Adds a chunk of items that came without lines (added by DOI, given as CSL-JSON); entries are numbered across chunks in the order given. */
  add(items: readonly CslItem[]): void {
    this.#addAll(items, prepareItem, (_, index) => ({ index, line: 0 }));
  }

  /** Adds a chunk from the import port: items prepared in the parser's thread, each with its line and source key. */
  addPrepared(items: readonly PortItem[]): void {
    this.#addAll(
      items,
      (it) => it.prepared,
      (it, index) =>
        it.sourceKey === undefined ? { index, line: it.line } : { index, line: it.line, sourceKey: it.sourceKey },
      (it) => it.origin,
    );
  }

  #addAll<T>(
    items: readonly T[],
    prepare: (item: T) => PreparedItem,
    placeOf: (item: T, index: number) => EntryPlace,
    originOf: (item: T) => string | undefined = () => undefined,
  ): void {
    if (!this.#open) throw new Error('This import has already finished.');
    const total = items.length;
    for (let k = 0; k < items.length; k++) {
      if ((k & 511) === 0) {
        if (this.#options.signal?.aborted)
          throw this.#options.signal.reason instanceof Error ? this.#options.signal.reason : abortError();
        if (k > 0) this.#options.onProgress?.(k, total);
      }
      const at = placeOf(items[k]!, this.#index++);
      let out: number | string | null;
      try {
        out = this.#insert(prepare(items[k]!), at, false, originOf(items[k]!));
      } catch (err) {
        // A full disk (or SQLite having rolled the transaction back) ends the import: an entry
        // written after it would land outside the transaction.
        if (isStorageFault(err) || (this.#own && !this.#db.raw.inTransaction)) throw err;
        out = err instanceof Error ? err.message : String(err);
      }
      if (typeof out === 'string') this.#result.errors.push({ ...at, reason: out });
    }
  }

  /** One warning per citation key the file asked for that was taken, at the first entry renamed. */
  #reportCollisions(): void {
    for (const [requested, { at, renamed }] of this.#collisions) {
      const got = renamed.map((r) => `"${r.key}"`);
      const lines = renamed.map((r) => r.line).filter((l) => l > 0);
      const reason =
        renamed.length === 1
          ? `The citation key "${requested}" is already used; this entry got "${renamed[0]!.key}" ("${requested}" → "${renamed[0]!.key}").`
          : `The citation key "${requested}" is already used; ${renamed.length} more entries asked for it and got ${listed(got)}${lines.length === renamed.length ? ` (lines ${listed(lines.map(String))})` : ''}.`;
      this.#result.warnings.push({ ...at, reason });
    }
    this.#collisions.clear();
    this.#result.warnings.sort((a, b) => a.index - b.index);
  }

  /**
   * Adds one item; returns its id, null for a duplicate (recorded), or the reason it was rejected.
   * `given` is what the item already has elsewhere (an item from a shared library: its date added and
   * import source), written with the row instead of this session's.
   */
  addOne(
    item: CslItem,
    index: number,
    force: boolean,
    given?: { dateAdded: number; source: string | null },
  ): number | string | null {
    return this.#insert(prepareItem(item), { index, line: 0 }, force, undefined, given);
  }

  /** The citation key the last item added got (its own, or a free one when it was taken). */
  get lastKey(): string | null {
    return this.#lastKey;
  }

  #insert(
    p: PreparedItem,
    at: EntryPlace,
    force: boolean,
    origin?: string,
    given?: { dateAdded: number; source: string | null },
  ): number | string | null {
    if (p.type === null) return 'The entry has no item type.';
    const d = p.derived;
    const keyed = p.requestedKey !== '' && p.keyProblem === null;
    if (!force) {
      const same = this.existing(p, origin);
      if (same) {
        const existingKey = this.#st.keyOf.get(same.id) as string | undefined;
        this.#result.duplicates.push({
          ...at,
          existingId: same.id,
          ...(existingKey ? { existingKey } : {}),
          reason: same.reason,
        });
        // Found by its key, DOI or title: from now on by its origin too, whatever becomes of those.
        if (origin !== undefined && same.reason !== 'entry') this.#recordOrigin(same.id, origin, p);
        return null;
      }
    }
    if (d.doiProblem) this.#result.warnings.push({ ...at, reason: d.doiProblem });
    const requested = p.requestedKey;
    const taken = (k: string): boolean =>
      this.#seenKeys.has(k.toLowerCase()) || (!this.#fresh && this.#st.keyTaken.get(k, k) !== undefined);
    let key: string;
    let warning: (EntryPlace & ImportIssue) | undefined;
    let provisional: string | null = null;
    if (requested && p.keyProblem === null) {
      // The key this entry asks for, held by an earlier entry of this import that did not ask for it.
      if (this.#provisional.has(requested.toLowerCase())) this.#reclaim(requested, taken);
      key = uniqueCitationKey(requested, taken);
      if (key !== requested) {
        provisional = requested;
        const group = this.#collisions.get(requested) ?? { at, renamed: [] };
        group.renamed.push({ line: at.line, key });
        this.#collisions.set(requested, group);
      }
    } else {
      const base = this.#formula ? this.#formula.keyOf(JSON.parse(cslText(p.csl)) as CslItem) : p.keyBase!;
      key = uniqueCitationKey(base, taken);
      provisional = base;
      if (requested)
        warning = {
          ...at,
          reason: `The citation key "${requested}" cannot be used (${p.keyProblem}); it became "${key}" ("${requested}" → "${key}").`,
        };
      else if (p.replacedId) {
        warning = {
          ...at,
          reason: `The id "${p.replacedId.id}" cannot be a citation key (${p.replacedId.reason}); it became "${key}" ("${p.replacedId.id}" → "${key}").`,
        };
      }
    }
    if (warning) this.#result.warnings.push(warning);
    if (keyed && d.doi && !force && !this.#fresh) {
      const other = this.#st.byDoi.get(d.doi, this.#before) as number | undefined;
      if (other !== undefined) {
        const otherKey = this.#st.keyOf.get(other) as string | undefined;
        this.#result.warnings.push({
          ...at,
          reason: `${otherKey ? `“${otherKey}”` : 'An item'} has the same DOI (${d.doi}) under another citation key; both are kept, and the Duplicates view lists them to merge.`,
        });
      }
    }
    const t =
      (d.doi && this.#anyTallies ? (this.#st.tallies.get(d.doi) as SqlValue[] | undefined) : undefined) ?? NO_TALLIES;
    const id = Number(
      this.#st.insert.run(
        p.type,
        key,
        d.title,
        d.titleSort,
        d.creatorsText,
        d.creatorsSort,
        d.year,
        d.container,
        d.containerSort,
        d.doi,
        given ? given.dateAdded : this.#now,
        this.#now,
        given ? given.source : (this.#options.source ?? null),
        d.publisherSort,
        d.pagesSort,
        d.extraSort,
        ...t,
      ).lastInsertRowid,
    );
    this.#st.csl.run(id, withKey(p, key));
    this.#lastKey = key;
    this.#seenKeys.set(key.toLowerCase(), id);
    if (provisional !== null)
      this.#provisional.set(key.toLowerCase(), { id, key, base: provisional, ...(warning ? { warning } : {}) });
    if (provisional === requested && requested !== '') this.#keepCaseVariant(requested, id);
    if (this.#fresh && keyed && key !== requested) {
      const lower = requested.toLowerCase();
      this.#renamedKeys.set(lower, [...(this.#renamedKeys.get(lower) ?? []), id]);
    }
    if (origin !== undefined) this.#recordOrigin(id, origin, p);
    const c = p.creators;
    for (let j = 0; j < c.length; j += 6)
      this.#st.creator.run(id, c[j], c[j + 1], c[j + 2], c[j + 3], c[j + 4], c[j + 5]);
    for (const tag of p.tags) {
      const lower = tag.toLowerCase();
      let tagId = this.#tagIds.get(lower);
      if (tagId === undefined) {
        tagId = this.#st.tag.get(tag) as number;
        this.#tagIds.set(lower, tagId);
      }
      this.#st.itemTag.run(id, tagId);
    }
    if (!this.#options.withoutSearchRows)
      this.#st.fts.run(id, d.title ?? '', d.abstract, d.creatorsFts, d.container ?? '', p.tags.join('; '), '', key);
    this.#result.added++;
    this.#result.ids.push(id);
    return id;
  }

  /**
   * Gives the entry of this import that holds `wanted` without having asked for it another key, so that
   * the entry asking for `wanted` gets it: the held key, its record and its search row are rewritten, and
   * its warning says the key it ends with.
   */
  #reclaim(wanted: string, taken: (key: string) => boolean): void {
    const lower = wanted.toLowerCase();
    const holder = this.#provisional.get(lower)!;
    this.#provisional.delete(lower);
    // `wanted` stays in #seenKeys while the holder's new key is chosen, so it is not chosen again; the
    // asking entry takes it as soon as it is free.
    const key = uniqueCitationKey(holder.base, taken);
    this.#seenKeys.delete(lower);
    const raw = this.#db.raw;
    const st = (this.#st.rekey ??= {
      key: raw.prepare('UPDATE items SET citation_key = ? WHERE id = ?'),
      csl: raw.prepare(`UPDATE item_csl SET csl = json_set(csl, '$."citation-key"', ?) WHERE item_id = ?`),
      ftsDelete: raw.prepare('DELETE FROM items_fts WHERE rowid = ?'),
      ftsInsert: raw.prepare(
        `INSERT INTO items_fts (rowid, title, abstract, creators, container, tags, notes, citation_key) ${FTS_ROWS} WHERE i.id = ?`,
      ),
    });
    st.key.run(key, holder.id);
    st.csl.run(key, holder.id);
    if (!this.#options.withoutSearchRows) {
      st.ftsDelete.run(holder.id);
      st.ftsInsert.run(holder.id);
    }
    this.#seenKeys.set(key.toLowerCase(), holder.id);
    this.#provisional.set(key.toLowerCase(), { ...holder, key });
    if (holder.warning) holder.warning.reason = holder.warning.reason.replaceAll(`"${holder.key}"`, `"${key}"`);
    // The report of keys used twice names the key the holder ends with.
    for (const group of this.#collisions.values())
      for (const renamed of group.renamed) if (renamed.key === holder.key) renamed.key = key;
  }

  /**
   * A key that differs from one already held only in case (the file's "Kim_2019" beside "kim_2019": the
   * library's keys are unique without regard to case, as BibTeX compares them) stays a way to find this
   * entry: kept as its key alias, so a manuscript citing [@Kim_2019] finds this paper, not kim_2019's.
   */
  #keepCaseVariant(requested: string, id: ItemId): void {
    const raw = this.#db.raw;
    const st = (this.#st.caseAlias ??= {
      held: raw
        .prepare(
          'SELECT 1 FROM items WHERE citation_key = ? COLLATE BINARY UNION ALL SELECT 1 FROM key_aliases WHERE alias = ? COLLATE BINARY',
        )
        .pluck(),
      add: raw.prepare('INSERT OR IGNORE INTO key_aliases (alias, item_id) VALUES (?, ?)'),
    });
    if (st.held.get(requested, requested) === undefined) st.add.run(requested, id);
  }

  /** Remembers that the entry with this origin is item `id`, with the key and title the file gave it. */
  #recordOrigin(id: ItemId, origin: string, p: PreparedItem): void {
    this.#st.origin.run(id, origin, p.requestedKey === '' ? null : p.requestedKey, p.derived.titleSort);
    if (this.#fresh && !this.#seenOrigins.has(origin)) this.#seenOrigins.set(origin, id);
  }

  /**
   * The item this entry already is, by the rules an import skips entries by; null when none. `origin`
   * is the entry's fingerprint as its file wrote it, when it came from a file.
   */
  existing(p: PreparedItem): { id: ItemId; reason: Exclude<SameEntryReason, 'entry'> } | null;
  existing(p: PreparedItem, origin: string | undefined): { id: ItemId; reason: SameEntryReason } | null;
  existing(p: PreparedItem, origin?: string): { id: ItemId; reason: SameEntryReason } | null {
    if (p.type === null) return null;
    if (origin !== undefined) {
      const id = this.#fresh ? this.#seenOrigins.get(origin) : (this.#st.byOrigin.get(origin) as number | undefined);
      if (id !== undefined) return { id, reason: 'entry' };
    }
    return p.requestedKey !== '' && p.keyProblem === null
      ? this.#sameKeyed(p.requestedKey, p.derived)
      : this.#sameKeyless(p);
  }

  /**
   * The item that is this keyed entry already: the same key (or alias, or the key a file gave the item
   * before), and the same DOI, or else the same title (as it is now, or as a file gave it before).
   */
  #sameKeyed(key: string, d: PreparedItem['derived']): { id: ItemId; reason: 'key-title' } | null {
    // An entry of this import holding the key without having asked for it is not this entry by key.
    const mine = this.#provisional.has(key.toLowerCase()) ? undefined : this.#seenKeys.get(key.toLowerCase());
    type Identity = { id: number; title_sort: string | null; doi: string | null };
    const lower = key.toLowerCase();
    const candidates: Identity[] = this.#fresh
      ? [...(mine === undefined ? [] : [mine]), ...(this.#renamedKeys.get(lower) ?? [])].map(
          (id) => this.#st.identityOf.get(id) as Identity,
        )
      : // Not the entry of this import that holds the key without having asked for it.
        (this.#st.byKey.all(key, key, key) as Identity[]).filter((c) => c.id !== this.#provisional.get(lower)?.id);
    for (const c of candidates) {
      if (
        c.doi && d.doi
          ? c.doi === d.doi
          : c.title_sort === d.titleSort ||
            (d.titleSort !== null && !this.#fresh && this.#st.titleSeen.get(c.id, d.titleSort) !== undefined)
      )
        return { id: c.id, reason: 'key-title' };
    }
    return null;
  }

  /** The item that was in the library before this import and is this entry without a key of its own. */
  #sameKeyless(p: PreparedItem): { id: ItemId; reason: 'doi' | 'title' } | null {
    if (this.#fresh) return null;
    const d = p.derived;
    if (d.doi) {
      const id = this.#st.byDoi.get(d.doi, this.#before) as number | undefined;
      return id === undefined ? null : { id, reason: 'doi' };
    }
    if (!d.titleSort) return null;
    const id = this.#st.byTitle.get(
      d.titleSort,
      this.#before,
      p.type,
      d.year,
      d.creatorsSort,
      this.#options.source ?? null,
    ) as number | undefined;
    return id === undefined ? null : { id, reason: 'title' };
  }

  commit(): ImportResult {
    if (!this.#open) throw new Error('This import has already finished.');
    this.#reportCollisions();
    if (this.#deferred.length > 0) {
      try {
        for (const ddl of this.#deferred) this.#db.raw.exec(ddl);
      } catch (err) {
        this.rollback();
        throw err;
      }
      this.#deferred = [];
    }
    this.#open = false;
    if (this.#own) {
      // The commit makes the import durable (WAL, synchronous=FULL); copying a few hundred megabytes
      // of WAL into the database file is left to the next checkpoint instead of delaying the answer.
      this.#db.raw.pragma('wal_autocheckpoint = 0');
      try {
        this.#db.raw.exec('COMMIT');
      } catch (err) {
        // A COMMIT that fails (SQLITE_FULL writing the WAL) leaves the transaction open: end it here.
        if (this.#db.raw.inTransaction) this.#db.raw.exec('ROLLBACK');
        throw err;
      } finally {
        this.#db.raw.pragma('wal_autocheckpoint = 1000');
      }
    }
    this.#options.onProgress?.(this.#index, this.#index);
    return this.#result;
  }

  rollback(): void {
    if (!this.#open) return;
    this.#open = false;
    if (this.#own && this.#db.raw.inTransaction) this.#db.raw.exec('ROLLBACK');
  }
}

/** An entry of this import holding a key it did not ask for (ImportSession.#provisional). */
interface Provisional {
  id: ItemId;
  /** The key it holds now, as given. */
  key: string;
  /** What its key is made from: the key it asked for, or the formula's. */
  base: string;
  /** The warning that names its key, updated when the key changes. */
  warning?: EntryPlace & ImportIssue;
}

function abortError(): Error {
  const err = new Error('The import was cancelled.');
  err.name = 'AbortError';
  return err;
}

/** "a", "a and b", "a, b and c". */
function listed(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}
