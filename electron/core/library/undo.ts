// Undo and redo (a room of the Library, see library-base.ts): every user change runs through
// undoable(), which stores snapshots of the items it touched in undo_log; undo and redo swap them.
// Undo never deletes; redo is refused when its items changed since (docs/undo.md).
import { createHash } from 'node:crypto';
import { CoreError } from '../errors';
import { subjectOf } from './undo-labels';
import { ident, inList, joinSql, sql, type SqlValue } from './sql';
import { type ItemId, type UndoEntry, type UndoOutcome, type UndoTops, UNDO_ENTRY_MAX_IDS } from './types';
import { type LibraryOptions, chunk, LibraryBase } from './library-base';
import { arrayOf, isItemId, isObject, readStored } from './stored-json';

interface ItemSnapshot {
  /**
   * The items row with the item's CSL-JSON as `csl`: a column of items before migration 0012, of
   * item_csl since, so undo entries from before and after it read the same.
   */
  row: Record<string, SqlValue>;
  creators: Record<string, SqlValue>[];
  tags: string[];
  notes: Record<string, SqlValue>[];
  collections: { collection_id: number; added_at: number }[];
  attachments: Record<string, SqlValue>[];
  /** How each captured PDF was identified (migration 0015); absent in entries written before it. */
  captures?: Record<string, SqlValue>[];
  aliases: string[];
  /** The items related to this one (migration 0024); absent in entries written before it. */
  relations?: number[];
  /** The entries the item was imported from (migration 0026); absent in entries written before it. */
  origins?: Record<string, SqlValue>[];
}

/**
 * An undo entry: put these items back as they were, and remove items that did not exist. A barrier
 * (`barrier`, nothing to restore) stands for a change undo cannot revert: Ctrl+Z stops at it.
 */
interface UndoPayload {
  restore: ItemSnapshot[];
  remove: ItemId[];
  barrier?: true;
  /**
   * Collections the change created (parents first), as rows: undo removes them once the items are
   * back as they were, and redo puts them back first (`recreate`) with the same ids, so the items'
   * membership comes back with them. Absent in entries that created none.
   */
  collections?: Record<string, SqlValue>[];
  recreate?: Record<string, SqlValue>[];
  /**
   * Collections the change renamed or moved: undo (and redo, with from and to swapped) sets each
   * back to `to`, but only while it is still as the change left it (`from`).
   */
  reshape?: CollectionReshape[];
  /**
   * Collections the change moved to the Trash or restored: undo (and redo, with from and to swapped)
   * sets each one's trashed_at back to `to`, but only while it is still as the change left it (`from`).
   * Their items' membership never left them, so it comes back with them.
   */
  retrash?: CollectionRetrash[];
}

/** A collection's trashed_at (null: not in the Trash) before (`from`) and after (`to`) a trash or a restore. */
export interface CollectionRetrash {
  id: number;
  name: string;
  from: number | null;
  to: number | null;
}

/** A collection's name and place before (`from`) and after (`to`) a rename or a move. */
export interface CollectionReshape {
  id: number;
  from: { name: string; parent_id: number | null };
  to: { name: string; parent_id: number | null };
}

const BARRIER: UndoPayload = { restore: [], remove: [], barrier: true };
/** SQL: whether an undo_log row is a barrier. */
const IS_BARRIER = sql`json_extract(payload, '$.barrier') IS 1`;

/** An undo entry's stored payload and item list, checked: a damaged entry names itself. */
const payloadOf = (e: { id: number; label: string; payload: string }): UndoPayload =>
  readStored<UndoPayload>(e.payload, `The undo entry “${e.label}” (#${e.id})`, isObject);
const itemIdsOf = (e: { id: number; item_ids: string; label?: string }): ItemId[] =>
  readStored<ItemId[]>(
    e.item_ids,
    `The items of the undo entry ${e.label ? `“${e.label}” ` : ''}(#${e.id})`,
    arrayOf(isItemId),
  );

export abstract class UndoLog extends LibraryBase {
  readonly #undoLimit: number;

  constructor(options: LibraryOptions) {
    super(options);
    this.#undoLimit = options.undoLimit ?? 200;
  }

  // ── Undo ──

  undoHistory(): { undo: UndoEntry[]; redo: UndoEntry[] } {
    return { undo: this.#entries('undo', 50), redo: this.#entries('redo', 50) };
  }

  /** The step undo would revert and the step redo would re-apply, now (what an Undo offer checks). */
  undoTops(): UndoTops {
    return { undo: this.#entries('undo', 1)[0] ?? null, redo: this.#entries('redo', 1)[0] ?? null };
  }

  /** Undoes the last change; returns its label, or null when there is nothing to undo. */
  undo(expectId?: number): string | null {
    return this.undoStep(expectId)?.label ?? null;
  }

  redo(expectId?: number): string | null {
    return this.redoStep(expectId)?.label ?? null;
  }

  /**
   * Undoes the last change (only if it is entry `expectId`, when given: CONFLICT otherwise, so an Undo
   * offered for one change never reverts another). Undo never deletes: items the change created go to
   * the Trash. Null when there is nothing to undo.
   */
  undoStep(expectId?: number): UndoOutcome | null {
    return this.#swap('undo', 'redo', expectId);
  }

  /**
   * Re-applies the last undone change. It stays possible after unrelated changes: a later change to
   * one of its items drops it from the redo stack, and a change made any other way (enrichment) is
   * caught here, where it is refused with CONFLICT and dropped. See docs/undo.md.
   */
  redoStep(expectId?: number): UndoOutcome | null {
    return this.#swap('redo', 'undo', expectId);
  }

  /**
   * Records a change undo cannot revert (a collection deleted for good), named by
   * `label`: Ctrl+Z stops there and says so, instead of reverting an older change in its place. The
   * change before it can still be undone by its id (library.undo { id }), as the message offers.
   */
  protected undoBarrier(label: string): void {
    this.w.run(sql`INSERT INTO undo_log (stack, label, created_at, payload, item_ids)
      VALUES ('undo', ${label}, ${this.now()}, ${JSON.stringify(BARRIER)}, '[]')`);
    this.#trimStack('undo');
  }

  #swap(from: 'undo' | 'redo', to: 'undo' | 'redo', expectId?: number): UndoOutcome | null {
    const verb = from === 'undo' ? 'undo' : 'redo';
    const result = this.w.transaction((): UndoOutcome | { refused: string; details?: unknown } | null => {
      type Row = { id: number; label: string; payload: string; item_ids: string; fingerprint: string | null };
      let entry = this.w.get<Row>(
        sql`SELECT id, label, payload, item_ids, fingerprint FROM undo_log WHERE stack = ${from} ORDER BY id DESC LIMIT 1`,
      );
      if (entry && from === 'undo' && payloadOf(entry).barrier) {
        const before = this.#beforeBarriers();
        const beneath =
          expectId !== undefined && expectId === before?.id
            ? this.w.get<Row>(
                sql`SELECT id, label, payload, item_ids, fingerprint FROM undo_log WHERE id = ${expectId} AND stack = 'undo'`,
              )
            : undefined;
        // Only a change offered by its id, with nothing but barriers after it, is undone past them.
        if (beneath) entry = beneath;
        else if (expectId === undefined || expectId === entry.id)
          return {
            refused: `Nothing was undone: ${entry.label} cannot be undone${before ? `. The change before it can still be undone: ${before.label}` : ''}.`,
            details: { cannotUndo: entry.label, before },
          };
      }
      if (expectId !== undefined && entry?.id !== expectId) {
        const expected = this.w.get<{ label: string }>(
          sql`SELECT label FROM undo_log WHERE id = ${expectId} AND stack = ${from}`,
        );
        return {
          refused: expected
            ? `Cannot ${verb} “${expected.label}”: it is no longer the last change${entry ? ` (${entry.label} is)` : ''}.`
            : `That change was already ${from === 'undo' ? 'undone' : 'redone'}, or is no longer kept.`,
        };
      }
      if (!entry) return null;
      const payload = payloadOf(entry);
      const listed = itemIdsOf(entry);
      const affected =
        listed.length > 0
          ? listed
          : [...new Set([...payload.restore.map((snap) => snap.row.id as number), ...payload.remove])];
      if (from === 'redo' && entry.fingerprint !== null && entry.fingerprint !== this.#fingerprint(affected)) {
        this.w.run(sql`DELETE FROM undo_log WHERE id = ${entry.id}`);
        return {
          refused: `Cannot redo ${entry.label}: ${affected.length === 1 ? 'the item has' : 'its items have'} changed since it was undone.`,
        };
      }
      const inverse = this.#inverse(affected);
      if (payload.reshape?.length) {
        const why = this.#reshapeCollections(payload.reshape);
        if (why !== null) {
          // Dropped: it could never apply again, and would stop every Ctrl+Z here.
          this.w.run(sql`DELETE FROM undo_log WHERE id = ${entry.id}`);
          return { refused: `Cannot ${verb} ${entry.label}: ${why}. The step was dropped.` };
        }
        inverse.reshape = payload.reshape.map((r) => ({ id: r.id, from: r.to, to: r.from }));
      }
      if (payload.retrash?.length) {
        const why = this.#retrashCollections(payload.retrash);
        if (why !== null) {
          this.w.run(sql`DELETE FROM undo_log WHERE id = ${entry.id}`);
          return { refused: `Cannot ${verb} ${entry.label}: ${why}. The step was dropped.` };
        }
        inverse.retrash = payload.retrash.map((r) => ({ ...r, from: r.to, to: r.from }));
      }
      if (payload.recreate?.length) {
        const taken = this.#recreateCollections(payload.recreate);
        if (taken !== null) {
          this.w.run(sql`DELETE FROM undo_log WHERE id = ${entry.id}`);
          return {
            refused: `Cannot redo ${entry.label}: another collection has taken the place of “${taken}” since.`,
          };
        }
        inverse.collections = payload.recreate;
      }
      const trashed: ItemId[] = [];
      const now = this.now();
      for (const id of payload.remove) {
        if (from === 'redo') {
          this.deleteRow(id);
          continue;
        }
        // Undo never deletes: what the change created goes to the Trash, to be restored or emptied from there.
        if (this.w.run(sql`UPDATE items SET trashed_at = ${now} WHERE id = ${id} AND trashed_at IS NULL`).changes > 0)
          trashed.push(id);
      }
      for (const snap of payload.restore) this.#restore(snap);
      const kept: string[] = [];
      if (payload.collections?.length) {
        const { removed, used } = this.#removeCreatedCollections(payload.collections, payload.remove);
        if (removed.length > 0) inverse.recreate = removed;
        kept.push(...used);
      }
      this.w.run(sql`DELETE FROM undo_log WHERE id = ${entry.id}`);
      const fingerprint = to === 'redo' ? this.#fingerprint(affected) : null;
      this.w.run(sql`INSERT INTO undo_log (stack, label, created_at, payload, item_ids, fingerprint)
        VALUES (${to}, ${entry.label}, ${now}, ${JSON.stringify(inverse)}, ${JSON.stringify(affected)}, ${fingerprint})`);
      this.#trimStack(to);
      return { label: entry.label, itemIds: affected, trashed, ...(kept.length > 0 ? { kept } : {}) };
    });
    if (result && 'refused' in result) throw new CoreError('CONFLICT', result.refused, result.details);
    return result;
  }

  /**
   * Removes the collections a change created, children first, once undo has put the items back: each
   * is then empty, unless something was filed there since, a subcollection made there or an
   * auto-export set to write it, and such a collection stays (named in `used`, with why). Items the
   * same step created (an import's, which undo moves to the Trash) do not keep it. Returns the rows
   * removed, parents first, for redo to put back.
   */
  #removeCreatedCollections(
    rows: readonly Record<string, SqlValue>[],
    createdItems: readonly ItemId[],
  ): { removed: Record<string, SqlValue>[]; used: string[] } {
    const removed: Record<string, SqlValue>[] = [];
    const used: string[] = [];
    const ours = new Set(createdItems);
    for (const row of [...rows].reverse()) {
      const id = row.id as number;
      const current = this.w.get<Record<string, SqlValue>>(sql`SELECT * FROM collections WHERE id = ${id}`);
      if (!current) continue;
      const members = this.w
        .pluck<number>(sql`SELECT item_id FROM collection_items WHERE collection_id = ${id}`)
        .filter((item) => !ours.has(item)).length;
      const why =
        members > 0
          ? `${members === 1 ? '1 item was' : `${members} items were`} filed there since`
          : this.w.get(sql`SELECT 1 FROM collections WHERE parent_id = ${id}`)
            ? 'it has a subcollection now'
            : this.w.get(sql`SELECT 1 FROM auto_exports WHERE collection_id = ${id}`)
              ? 'an auto-export writes it'
              : null;
      if (why !== null) {
        used.push(`“${current.name as string}” (${why})`);
        continue;
      }
      this.w.run(sql`DELETE FROM collections WHERE id = ${id}`);
      removed.unshift(current);
    }
    return { removed, used };
  }

  /**
   * Sets renamed or moved collections back (`to`), each only while it is as the change left it
   * (`from`), its old parent is still there (and not inside it) and no other collection took its
   * name there. Returns why not, having changed nothing; else null.
   */
  #reshapeCollections(changes: readonly CollectionReshape[]): string | null {
    for (const { id, from, to } of changes) {
      const now = this.w.get<{ name: string; parent_id: number | null }>(
        sql`SELECT name, parent_id FROM collections WHERE id = ${id}`,
      );
      if (!now) return `the collection “${from.name}” no longer exists`;
      if (now.name !== from.name || now.parent_id !== from.parent_id)
        return `“${now.name}” has been renamed or moved since`;
      if (to.parent_id !== null) {
        const parent = this.w.get<{ inside: number }>(
          sql`WITH RECURSIVE up(id) AS (SELECT ${to.parent_id} UNION SELECT c.parent_id FROM collections c JOIN up ON c.id = up.id WHERE c.parent_id IS NOT NULL)
            SELECT EXISTS (SELECT 1 FROM up WHERE id = ${id}) AS inside FROM collections WHERE id = ${to.parent_id}`,
        );
        if (!parent) return `the collection it was in no longer exists`;
        if (parent.inside) return `the collection it was in is now inside it`;
      }
      const taken = this.w.get<{ name: string }>(
        sql`SELECT name FROM collections WHERE coalesce(parent_id, 0) = ${to.parent_id ?? 0} AND name = ${to.name} COLLATE NOCASE AND id != ${id}`,
      );
      if (taken) return `another collection is named “${taken.name}” there now`;
    }
    for (const { id, to } of changes)
      this.w.run(sql`UPDATE collections SET name = ${to.name}, parent_id = ${to.parent_id} WHERE id = ${id}`);
    return null;
  }

  /**
   * Moves collections back into or out of the Trash (`to`), each only while it is still as the change
   * left it (`from`): not deleted for good, not trashed or restored since. Returns why not, having
   * changed nothing; else null.
   */
  #retrashCollections(changes: readonly CollectionRetrash[]): string | null {
    for (const { id, name, from } of changes) {
      const now = this.w.get<{ trashed_at: number | null }>(sql`SELECT trashed_at FROM collections WHERE id = ${id}`);
      if (!now) return `the collection “${name}” no longer exists (it was deleted for good)`;
      if (now.trashed_at !== from)
        return `“${name}” has been ${now.trashed_at === null ? 'restored' : 'moved to the Trash'} since`;
    }
    for (const { id, to } of changes) this.w.run(sql`UPDATE collections SET trashed_at = ${to} WHERE id = ${id}`);
    return null;
  }

  /**
   * Puts back collections an undo removed, with their ids (parents first). Returns the name of one
   * whose place (its name there, or its id) another collection took since, and puts nothing back
   * then; else null.
   */
  #recreateCollections(rows: readonly Record<string, SqlValue>[]): string | null {
    // A collection made since may have been given a removed one's id (SQLite reuses the highest):
    // that is another collection too, and nothing is put back over it.
    for (const row of rows) {
      const parent = (row.parent_id as number | null) ?? 0;
      const taken = this.w.get(
        sql`SELECT 1 FROM collections WHERE id = ${row.id as number}
          OR (coalesce(parent_id, 0) = ${parent} AND name = ${row.name as string} COLLATE NOCASE)`,
      );
      if (taken) return row.name as string;
    }
    for (const row of rows) this.#insertRow('collections', row);
    return null;
  }

  /** The newest undo step that is not a barrier, when only barriers come after it. */
  #beforeBarriers(): { id: number; label: string } | null {
    return (
      this.w.get<{ id: number; label: string }>(
        sql`SELECT id, label FROM undo_log WHERE stack = 'undo' AND NOT ${IS_BARRIER} ORDER BY id DESC LIMIT 1`,
      ) ?? null
    );
  }

  #entries(stack: 'undo' | 'redo', limit: number): UndoEntry[] {
    let before: { id: number; label: string } | null | undefined;
    return this.r
      .all<{ id: number; label: string; created_at: number; item_ids: string; barrier: number }>(
        sql`SELECT id, label, created_at, item_ids, ${IS_BARRIER} AS barrier FROM undo_log WHERE stack = ${stack} ORDER BY id DESC LIMIT ${limit}`,
      )
      .map((e) => {
        const ids = itemIdsOf(e);
        const entry: UndoEntry = {
          id: e.id,
          label: e.label,
          createdAt: e.created_at,
          itemIds: ids.slice(0, UNDO_ENTRY_MAX_IDS),
          itemCount: ids.length,
        };
        if (e.barrier === 1) {
          before ??= this.#beforeBarriers();
          entry.cannotUndo = { before };
        }
        return entry;
      });
  }

  #trimStack(stack: 'undo' | 'redo'): void {
    this.w.run(
      sql`DELETE FROM undo_log WHERE stack = ${stack} AND id <= (SELECT id FROM undo_log WHERE stack = ${stack} ORDER BY id DESC LIMIT 1 OFFSET ${this.#undoLimit})`,
    );
  }

  /**
   * The state of these items as undo and redo see it (everything a snapshot holds except the tallies
   * copied from the service cache), as one hash: a redo checks its items still look as the undo left them.
   */
  #fingerprint(ids: readonly ItemId[]): string {
    const hash = createHash('sha256');
    for (const id of [...ids].sort((a, b) => a - b)) {
      const snap = this.#snapshot(id);
      if (snap) {
        const { supporting: _s, contrasting: _c, mentioning: _m, citing: _n, ...row } = snap.row;
        hash.update(JSON.stringify({ ...snap, row }));
      } else hash.update(`${id} absent`);
      hash.update('\n');
    }
    return hash.digest('base64url');
  }

  /** What a label calls these items: the one item's title, or "3 items". */
  protected subject(ids: readonly ItemId[]): string {
    if (ids.length !== 1) return subjectOf([], ids.length);
    const row = this.w.get<{ title: string | null; citation_key: string }>(
      sql`SELECT title, citation_key FROM items WHERE id = ${ids[0]!}`,
    );
    return row ? subjectOf([{ title: row.title, citationKey: row.citation_key }]) : `item ${ids[0]}`;
  }

  /**
   * A change to these items drops the redo steps that touch any of them: re-applying one would undo
   * the change. Redo steps of other items stay.
   */
  #dropRedoTouching(ids: readonly ItemId[]): void {
    const touched = new Set(ids);
    const stale = this.w
      .all<{ id: number; item_ids: string }>(sql`SELECT id, item_ids FROM undo_log WHERE stack = 'redo'`)
      .filter((e) => itemIdsOf(e).some((id) => touched.has(id)))
      .map((e) => e.id);
    for (const batch of chunk(stale)) this.w.run(sql`DELETE FROM undo_log WHERE id IN ${inList(batch)}`);
  }

  /** What would put these items back as they are now. */
  #inverse(ids: readonly ItemId[]): UndoPayload {
    const restore: ItemSnapshot[] = [];
    const remove: ItemId[] = [];
    for (const id of ids) {
      const snap = this.#snapshot(id);
      if (snap) restore.push(snap);
      else remove.push(id);
    }
    return { restore, remove };
  }

  /**
   * Runs a change in a transaction and records how to undo it, labelled with what it did to which
   * items (`label` gets their name: a title or "3 items"); drops the redo steps of those items.
   */
  protected undoable<T>(
    label: string | ((subject: string) => string),
    ids: readonly ItemId[],
    fn: () => {
      value: T;
      created?: ItemId[];
      collections?: number[];
      reshape?: CollectionReshape[];
      retrash?: CollectionRetrash[];
    },
  ): T {
    return this.w.transaction(() => {
      const touched = [...new Set(ids)];
      // Named before the change: a deletion leaves nothing to name afterwards.
      const named = touched.length > 0 && typeof label !== 'string' ? this.subject(touched) : null;
      const before = this.#inverse(touched);
      const { value, created, collections, reshape, retrash } = fn();
      const all = [...new Set([...touched, ...(created ?? [])])];
      const text = typeof label === 'string' ? label : label(named ?? this.subject(all));
      const payload: UndoPayload = { restore: before.restore, remove: [...before.remove, ...(created ?? [])] };
      // Collections the change created (an editor's scanAUX into a new one): undone with it.
      if (collections?.length)
        payload.collections = collections.map((id) =>
          this.w.get<Record<string, SqlValue>>(sql`SELECT * FROM collections WHERE id = ${id}`)!,
        );
      // A rename or a move: undone, the collection gets its old name and place back.
      if (reshape?.length) payload.reshape = reshape.map((r) => ({ id: r.id, from: r.to, to: r.from }));
      // A collection trashed or restored: undone, it goes back where it was, with its subcollections.
      if (retrash?.length) payload.retrash = retrash.map((r) => ({ ...r, from: r.to, to: r.from }));
      this.#dropRedoTouching(all);
      this.w.run(
        sql`INSERT INTO undo_log (stack, label, created_at, payload, item_ids) VALUES ('undo', ${text}, ${this.now()}, ${JSON.stringify(payload)}, ${JSON.stringify(all)})`,
      );
      this.#trimStack('undo');
      return value;
    });
  }

  #snapshot(id: ItemId): ItemSnapshot | null {
    const row = this.w.get<Record<string, SqlValue>>(
      sql`SELECT i.*, r.csl FROM items i JOIN item_csl r ON r.item_id = i.id WHERE i.id = ${id}`,
    );
    if (!row) return null;
    return {
      row,
      creators: this.w.all(sql`SELECT * FROM creators WHERE item_id = ${id}`),
      tags: this.w.pluck(sql`SELECT t.name FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE it.item_id = ${id}`),
      notes: this.w.all(sql`SELECT * FROM notes WHERE item_id = ${id}`),
      collections: this.w.all(sql`SELECT collection_id, added_at FROM collection_items WHERE item_id = ${id}`),
      attachments: this.w.all(sql`SELECT * FROM attachments WHERE item_id = ${id}`),
      captures: this.w.all(sql`SELECT * FROM pdf_captures WHERE item_id = ${id}`),
      aliases: this.w.pluck(sql`SELECT alias FROM key_aliases WHERE item_id = ${id}`),
      relations: this.w.pluck(
        sql`SELECT related_id FROM item_relations WHERE item_id = ${id} UNION SELECT item_id FROM item_relations WHERE related_id = ${id} ORDER BY 1`,
      ),
      origins: this.w.all(sql`SELECT * FROM item_origins WHERE item_id = ${id}`),
    };
  }

  #insertRow(table: string, row: Record<string, SqlValue>): void {
    const cols = Object.keys(row).map((k) => ident(k));
    const t = ident(table, [
      'items',
      'creators',
      'notes',
      'attachments',
      'pdf_captures',
      'item_origins',
      'collections',
    ]);
    this.w.run(
      sql`INSERT INTO ${t} (${joinSql(
        cols.map((c) => sql`${c}`),
        ', ',
      )}) VALUES (${joinSql(
        Object.values(row).map((v) => sql`${v}`),
        ', ',
      )})`,
    );
  }

  #restore(snap: ItemSnapshot): void {
    const id = snap.row.id as number;
    this.deleteRow(id);
    // A key alias freed by undoing a merge goes back to being the item's own key.
    this.w.run(sql`DELETE FROM key_aliases WHERE alias = ${snap.row.citation_key as string}`);
    const { csl, ...row } = snap.row;
    this.#insertRow('items', row);
    this.w.run(sql`INSERT INTO item_csl (item_id, csl) VALUES (${id}, ${csl as string})`);
    for (const c of snap.creators) this.#insertRow('creators', c);
    for (const name of snap.tags)
      this.w.run(sql`INSERT OR IGNORE INTO item_tags (item_id, tag_id) VALUES (${id}, ${this.tagId(name)})`);
    for (const n of snap.notes) {
      this.w.run(sql`DELETE FROM notes WHERE id = ${n.id as number}`);
      this.#insertRow('notes', n);
    }
    for (const a of snap.attachments) {
      this.w.run(sql`DELETE FROM attachments WHERE id = ${a.id as number}`);
      this.#insertRow('attachments', a);
    }
    for (const c of snap.captures ?? []) {
      this.w.run(sql`DELETE FROM pdf_captures WHERE attachment_id = ${c.attachment_id as number}`);
      this.#insertRow('pdf_captures', c);
    }
    for (const c of snap.collections) {
      this.w.run(
        sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) SELECT ${c.collection_id}, ${id}, ${c.added_at} WHERE EXISTS (SELECT 1 FROM collections WHERE id = ${c.collection_id})`,
      );
    }
    for (const alias of snap.aliases)
      this.w.run(sql`INSERT OR REPLACE INTO key_aliases (alias, item_id) VALUES (${alias}, ${id})`);
    // Pairs with items that are gone stay gone (an item deleted for good takes its relations with it).
    for (const other of snap.relations ?? [])
      this.w.run(sql`INSERT OR IGNORE INTO item_relations (item_id, related_id, added_at)
        SELECT ${Math.min(id, other)}, ${Math.max(id, other)}, ${snap.row.date_modified as number} WHERE EXISTS (SELECT 1 FROM items WHERE id = ${other})`);
    // (Undoing a merge restores the kept item too, without the rows the merge moved to it.)
    for (const o of snap.origins ?? []) this.#insertRow('item_origins', o);
    this.reindex([id]);
  }
}
