// Collections and the Trash (a room of the Library, see library-base.ts): the collection tree and
// its items, trashing, restoring and deleting items for good. Creating, renaming and moving a
// collection are undo steps, as are adding, removing and moving items and creating a collection to
// fill it (fillCollectionAt, an editor's scanAUX). Deleting one for good is not: it leaves a barrier
// on the undo stack (undoBarrier), so undo stops there and says so rather than reverting an older change.
import { CoreError } from '../errors';
import { inList, sql } from './sql';
import type { Collection, ItemId } from './types';
import { notFound, chunk } from './library-base';
import { ItemsRoom } from './items';

export abstract class CollectionsRoom extends ItemsRoom {
  // ── Collections ──

  createCollection(name: string, parentId: number | null = null): number {
    const clean = name.trim();
    if (clean === '') throw new CoreError('INVALID_INPUT', 'A collection needs a name.');
    if (parentId !== null) this.#collectionExists(parentId);
    try {
      // Undone, it is removed unless something was filed there since (then it stays, and undo says so).
      return this.undoable(`Create collection “${clean}”`, [], () => {
        const id = Number(
          this.w.run(
            sql`INSERT INTO collections (parent_id, name, created_at) VALUES (${parentId}, ${clean}, ${this.now()})`,
          ).lastInsertRowid,
        );
        return { value: id, collections: [id] };
      });
    } catch (err) {
      if (String(err).includes('UNIQUE'))
        throw new CoreError(
          'CONFLICT',
          `There is already a collection named "${clean}" here${this.#inTrash(clean, parentId) ? ' (in the Trash: restore it, or empty the Trash first)' : ''}.`,
        );
      throw err;
    }
  }

  #inTrash(name: string, parentId: number | null): boolean {
    return !!this.w.get(
      sql`SELECT 1 FROM collections WHERE coalesce(parent_id, 0) = ${parentId ?? 0} AND name = ${name} COLLATE NOCASE AND trashed_at IS NOT NULL`,
    );
  }

  renameCollection(id: number, name: string): void {
    this.#collectionExists(id);
    const clean = name.trim();
    if (clean === '') throw new CoreError('INVALID_INPUT', 'A collection needs a name.');
    const was = this.#collectionPlace(id);
    if (was.name === clean) return;
    try {
      this.undoable(`Rename collection “${was.name}” to “${clean}”`, [], () => {
        this.w.run(sql`UPDATE collections SET name = ${clean} WHERE id = ${id}`);
        return { value: undefined, reshape: [{ id, from: was, to: { ...was, name: clean } }] };
      });
    } catch (err) {
      if (String(err).includes('UNIQUE'))
        throw new CoreError('CONFLICT', `There is already a collection named "${name.trim()}" here.`);
      throw err;
    }
  }

  /** Moves a collection under another (or to the top with null); never under itself or its descendants. */
  moveCollection(id: number, parentId: number | null): void {
    this.#collectionExists(id);
    if (parentId !== null) {
      this.#collectionExists(parentId);
      const loop = this.w
        .get(sql`WITH RECURSIVE sub(id) AS (SELECT ${id} UNION SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id)
        SELECT 1 FROM sub WHERE id = ${parentId}`);
      if (loop)
        throw new CoreError('INVALID_INPUT', 'A collection cannot be moved into itself or one of its subcollections.');
    }
    const was = this.#collectionPlace(id);
    if (was.parent_id === parentId) return;
    const where = parentId === null ? 'the top' : this.#collectionName(parentId);
    try {
      this.undoable(`Move collection “${was.name}” to ${where}`, [], () => {
        this.w.run(sql`UPDATE collections SET parent_id = ${parentId} WHERE id = ${id}`);
        return { value: undefined, reshape: [{ id, from: was, to: { ...was, parent_id: parentId } }] };
      });
    } catch (err) {
      if (String(err).includes('UNIQUE'))
        throw new CoreError('CONFLICT', `There is already a collection named "${was.name}" there.`);
      throw err;
    }
  }

  #collectionPlace(id: number): { name: string; parent_id: number | null } {
    return this.w.get<{ name: string; parent_id: number | null }>(
      sql`SELECT name, parent_id FROM collections WHERE id = ${id}`,
    )!;
  }

  /**
   * Moves a collection and its subcollections to the Trash (the items stay in the library, and keep
   * their membership for a restore); returns how many collections went.
   */
  trashCollection(id: number): number {
    this.#collectionExists(id);
    // Already in the Trash: nothing moves, and no empty step is left on the undo stack.
    if (this.w.get(sql`SELECT 1 AS x FROM collections WHERE id = ${id} AND trashed_at IS NOT NULL`)) return 0;
    const name = this.#collectionName(id);
    // One undo step: undone, the collection and the subcollections that went with it come back.
    return this.undoable(`Move collection ${name} to the Trash`, [], () => {
      const now = this.now();
      const going = this.w.all<{
        id: number;
        name: string;
      }>(sql`SELECT id, name FROM collections WHERE trashed_at IS NULL AND id IN (
        WITH RECURSIVE sub(id) AS (SELECT ${id} UNION SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub)`);
      for (const c of going) this.w.run(sql`UPDATE collections SET trashed_at = ${now} WHERE id = ${c.id}`);
      return { value: going.length, retrash: going.map((c) => ({ ...c, from: null, to: now })) };
    });
  }

  /**
   * Brings a trashed collection back with the subcollections trashed with it and their items'
   * membership; a trashed parent comes back too, so the collection has somewhere to be.
   */
  restoreCollection(id: number): void {
    const row = this.w.get<{ trashed_at: number | null }>(sql`SELECT trashed_at FROM collections WHERE id = ${id}`);
    if (!row) throw notFound('The collection');
    if (row.trashed_at === null) return;
    const name = this.#collectionName(id);
    // One undo step: undone, what came back (the subcollections, a trashed parent) goes back to the Trash.
    this.undoable(`Restore collection ${name}`, [], () => {
      const coming = [
        ...this.w.all<{
          id: number;
          name: string;
          trashed_at: number;
        }>(sql`SELECT id, name, trashed_at FROM collections WHERE trashed_at = ${row.trashed_at} AND id IN (
        WITH RECURSIVE sub(id) AS (SELECT ${id} UNION SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub)`),
        ...this.w.all<{
          id: number;
          name: string;
          trashed_at: number;
        }>(sql`SELECT id, name, trashed_at FROM collections WHERE trashed_at IS NOT NULL AND id IN (
        WITH RECURSIVE up(id) AS (SELECT parent_id FROM collections WHERE id = ${id}
          UNION SELECT c.parent_id FROM collections c JOIN up ON c.id = up.id) SELECT id FROM up WHERE id IS NOT NULL)`),
      ];
      for (const c of coming) this.w.run(sql`UPDATE collections SET trashed_at = NULL WHERE id = ${c.id}`);
      return {
        value: undefined,
        retrash: coming.map((c) => ({ id: c.id, name: c.name, from: c.trashed_at, to: null })),
      };
    });
  }

  /** Deletes a collection and its subcollections for good; the items stay in the library. */
  deleteCollection(id: number): void {
    this.#collectionExists(id);
    const name = this.#collectionName(id);
    this.w.transaction(() => {
      this.w.run(sql`DELETE FROM collections WHERE id = ${id}`);
      this.undoBarrier(`Delete collection ${name}`);
    });
  }

  listCollections(): Collection[] {
    return this.r
      .all<{ id: number; parent_id: number | null; name: string; n: number }>(
        sql`SELECT c.id, c.parent_id, c.name, (SELECT count(*) FROM collection_items ci JOIN items i ON i.id = ci.item_id WHERE ci.collection_id = c.id AND i.trashed_at IS NULL) AS n
            FROM collections c WHERE c.trashed_at IS NULL ORDER BY c.name COLLATE NOCASE`,
      )
      .map((c) => ({ id: c.id, parentId: c.parent_id, name: c.name, itemCount: c.n }));
  }

  /** The collections in the Trash that were trashed themselves (not with a parent), newest first. */
  trashedCollections(): (Collection & { trashedAt: number; subcollections: number })[] {
    return this.r
      .all<{ id: number; parent_id: number | null; name: string; n: number; t: number; subs: number }>(
        sql`SELECT c.id, c.parent_id, c.name, c.trashed_at AS t,
              (SELECT count(*) FROM collection_items ci WHERE ci.collection_id = c.id) AS n,
              (SELECT count(*) FROM collections s WHERE s.parent_id = c.id AND s.trashed_at = c.trashed_at) AS subs
            FROM collections c WHERE c.trashed_at IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM collections p WHERE p.id = c.parent_id AND p.trashed_at = c.trashed_at)
            ORDER BY c.trashed_at DESC, c.name COLLATE NOCASE`,
      )
      .map((c) => ({
        id: c.id,
        parentId: c.parent_id,
        name: c.name,
        itemCount: c.n,
        trashedAt: c.t,
        subcollections: c.subs,
      }));
  }

  addToCollection(collectionId: number, ids: readonly ItemId[]): void {
    this.#collectionExists(collectionId);
    if (this.w.get(sql`SELECT 1 FROM collections WHERE id = ${collectionId} AND trashed_at IS NOT NULL`))
      throw new CoreError('CONFLICT', 'That collection is in the Trash: restore it first.');
    const name = this.#collectionName(collectionId);
    this.undoable(
      (s) => `Add ${s} to ${name}`,
      ids,
      () => {
        const now = this.now();
        for (const id of ids)
          this.w.run(
            sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${collectionId}, ${id}, ${now})`,
          );
        return { value: undefined };
      },
    );
  }

  removeFromCollection(collectionId: number, ids: readonly ItemId[]): void {
    const name = this.#collectionName(collectionId);
    this.undoable(
      (s) => `Remove ${s} from ${name}`,
      ids,
      () => {
        for (const batch of chunk(ids))
          this.w.run(
            sql`DELETE FROM collection_items WHERE collection_id = ${collectionId} AND item_id IN ${inList(batch)}`,
          );
        return { value: undefined };
      },
    );
  }

  /**
   * Makes a collection hold exactly `ids` (an editor's collection.scanAUX): items not listed leave it,
   * listed ones join it, in one undo step over the items that changed, so one Undo puts it back.
   * `source` names where the list came from, for the step's label.
   */
  setCollectionItems(
    collectionId: number,
    ids: readonly ItemId[],
    source?: string,
  ): { added: number; removed: number; changed: ItemId[] } {
    this.#collectionExists(collectionId);
    const name = this.#collectionName(collectionId);
    const wanted = new Set(ids);
    const current = new Set(
      this.r
        .all<{ item_id: number }>(sql`SELECT item_id FROM collection_items WHERE collection_id = ${collectionId}`)
        .map((r) => r.item_id),
    );
    const stale = [...current].filter((id) => !wanted.has(id));
    const fresh: ItemId[] = [];
    for (const batch of chunk([...wanted].filter((id) => !current.has(id))))
      for (const r of this.r.all<{ id: number }>(sql`SELECT id FROM items WHERE id IN ${inList(batch)}`))
        fresh.push(r.id);
    const changed = [...stale, ...fresh];
    if (changed.length === 0) return { added: 0, removed: 0, changed };
    this.undoable(
      (s) => (source ? `Set ${name} to what ${source} cites (${s})` : `Set ${name} to ${s}`),
      changed,
      () => {
        for (const batch of chunk(stale))
          this.w.run(
            sql`DELETE FROM collection_items WHERE collection_id = ${collectionId} AND item_id IN ${inList(batch)}`,
          );
        const now = this.now();
        for (const id of fresh)
          this.w.run(
            sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${collectionId}, ${id}, ${now})`,
          );
        return { value: undefined };
      },
    );
    return { added: fresh.length, removed: stale.length, changed };
  }

  /**
   * The collection at a path of names from the top ("thesis", "cited" for an editor's "//thesis/cited"),
   * created with its parents where missing, and, when `ids` is given, made to hold exactly those items
   * (collection.scanAUX): one undo step for both, whose undo puts the items' membership back and
   * removes the collections it created (a collection created alone, for autoexport.add, is a step too).
   * A path that exists already is setCollectionItems. `source` names the file, for the step's label.
   */
  fillCollectionAt(
    path: readonly string[],
    ids?: readonly ItemId[],
    source?: string,
  ): { id: number; created: number; added: number; removed: number; changed: ItemId[] } {
    const names = path.map((p) => p.trim());
    if (names.length === 0 || names.some((n) => n === ''))
      throw new CoreError('INVALID_INPUT', 'A collection path needs a name at each level.');
    let parent: number | null = null;
    let depth = 0;
    for (; depth < names.length; depth++) {
      const found: number | null = this.#childNamed(parent, names[depth]!);
      if (found === null) break;
      parent = found;
    }
    if (depth === names.length) {
      if (ids === undefined) return { id: parent!, created: 0, added: 0, removed: 0, changed: [] };
      return { id: parent!, created: 0, ...this.setCollectionItems(parent!, ids, source) };
    }
    const wanted = ids === undefined ? [] : [...new Set(ids)];
    const fresh: ItemId[] = [];
    for (const batch of chunk(wanted))
      for (const r of this.r.all<{ id: number }>(sql`SELECT id FROM items WHERE id IN ${inList(batch)}`))
        fresh.push(r.id);
    const missing = names.slice(depth);
    const shown = `“${names.join('/')}”`;
    const label = (s: string) =>
      ids === undefined
        ? `Create collection ${shown}`
        : source
          ? `Create collection ${shown} with what ${source} cites (${s})`
          : `Create collection ${shown} with ${s}`;
    const top = parent;
    return this.undoable(label, fresh, () => {
      const created: number[] = [];
      let at = top;
      for (const name of missing) {
        if (this.#inTrash(name, at))
          throw new CoreError(
            'CONFLICT',
            `There is already a collection named "${name}" here (in the Trash: restore it, or empty the Trash first).`,
          );
        at = Number(
          this.w.run(sql`INSERT INTO collections (parent_id, name, created_at) VALUES (${at}, ${name}, ${this.now()})`)
            .lastInsertRowid,
        );
        created.push(at);
      }
      const now = this.now();
      for (const id of fresh)
        this.w.run(
          sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${at}, ${id}, ${now})`,
        );
      const value = { id: at!, created: created.length, added: fresh.length, removed: 0, changed: fresh };
      return { value, collections: created };
    });
  }

  /** The collection of this name (in any case) under `parent`, not in the Trash; null when none. */
  #childNamed(parent: number | null, name: string): number | null {
    const row = this.w.get<{ id: number }>(
      sql`SELECT id FROM collections WHERE coalesce(parent_id, 0) = ${parent ?? 0} AND name = ${name} COLLATE NOCASE AND trashed_at IS NULL`,
    );
    return row?.id ?? null;
  }

  /** Moves items from one collection to another (a drag between collections). */
  moveToCollection(ids: readonly ItemId[], fromId: number, toId: number): void {
    this.#collectionExists(toId);
    const name = this.#collectionName(toId);
    this.undoable(
      (s) => `Move ${s} to ${name}`,
      ids,
      () => {
        const now = this.now();
        for (const id of ids) {
          this.w.run(sql`DELETE FROM collection_items WHERE collection_id = ${fromId} AND item_id = ${id}`);
          this.w.run(
            sql`INSERT OR IGNORE INTO collection_items (collection_id, item_id, added_at) VALUES (${toId}, ${id}, ${now})`,
          );
        }
        return { value: undefined };
      },
    );
  }

  // ── Trash ──

  trashItems(ids: readonly ItemId[]): void {
    this.undoable(
      (s) => `Move ${s} to the Trash`,
      ids,
      () => {
        const now = this.now();
        for (const batch of chunk(ids))
          this.w.run(sql`UPDATE items SET trashed_at = ${now} WHERE trashed_at IS NULL AND id IN ${inList(batch)}`);
        return { value: undefined };
      },
    );
  }

  restoreItems(ids: readonly ItemId[]): void {
    this.undoable(
      (s) => `Restore ${s} from the Trash`,
      ids,
      () => {
        for (const batch of chunk(ids))
          this.w.run(sql`UPDATE items SET trashed_at = NULL WHERE id IN ${inList(batch)}`);
        return { value: undefined };
      },
    );
  }

  /** Deletes items for good (still undoable while the undo entry lasts). */
  deleteItems(ids: readonly ItemId[]): void {
    this.undoable(
      (s) => `Delete ${s} for good`,
      ids,
      () => {
        for (const id of ids) this.deleteRow(id);
        return { value: undefined };
      },
    );
  }

  /** Deletes the trashed items and collections for good; returns how many items went. */
  emptyTrash(): number {
    const ids = this.w.pluck<number>(sql`SELECT id FROM items WHERE trashed_at IS NOT NULL`);
    if (ids.length) this.deleteItems(ids);
    this.w.run(sql`DELETE FROM collections WHERE trashed_at IS NOT NULL`);
    return ids.length;
  }

  #collectionName(id: number): string {
    const row = this.w.get<{ name: string }>(sql`SELECT name FROM collections WHERE id = ${id}`);
    return row ? `“${row.name}”` : 'a collection';
  }

  #collectionExists(id: number): void {
    if (!this.w.get(sql`SELECT 1 FROM collections WHERE id = ${id}`)) throw notFound('The collection');
  }
}
