// Pairs of items the user said are not duplicates ("Not duplicates" in the Duplicates view), so
// findDuplicates stops offering them. Kept in the library file's key-value `settings` table under
// NOT_DUPLICATES_KEY (no migration: the table exists since 0001, and SettingsStore reads only the
// keys it knows), as a JSON array of "smallerId:largerId" pairs. Item ids are never reused (items'
// id is AUTOINCREMENT), and pairs whose items are gone are dropped when pairs are added.
import type { ItemId } from './types';
import type { Db } from './database';

export const NOT_DUPLICATES_KEY = 'library.notDuplicates';

export const pairKey = (a: ItemId, b: ItemId): string => (a < b ? `${a}:${b}` : `${b}:${a}`);

/** The pairs marked as not duplicates. */
export function readNotDuplicates(db: Db): Set<string> {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(NOT_DUPLICATES_KEY) as
    { value: string } | undefined;
  if (!row) return new Set();
  try {
    const list = JSON.parse(row.value) as unknown;
    return new Set(
      Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string' && /^\d+:\d+$/.test(p)) : [],
    );
  } catch {
    // An unreadable value (a hand-edited file) offers every pair again rather than failing the view.
    return new Set();
  }
}

/** Marks every pair of `ids` as not duplicates (add) or offers them again (remove). */
export function markNotDuplicates(db: Db, ids: readonly ItemId[], mark: boolean): void {
  const pairs = readNotDuplicates(db);
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++)
      if (ids[i] !== ids[j]) (mark ? pairs.add.bind(pairs) : pairs.delete.bind(pairs))(pairKey(ids[i]!, ids[j]!));
  const alive = new Set(db.prepare('SELECT id FROM items').pluck().all() as number[]);
  const kept = [...pairs].filter((p) => p.split(':').every((id) => alive.has(Number(id))));
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(NOT_DUPLICATES_KEY, JSON.stringify(kept));
}

/** The groups left of `ids` once the pairs marked as not duplicates are taken apart: items joined by unmarked pairs. */
export function splitGroup(ids: readonly ItemId[], notDuplicates: ReadonlySet<string>): ItemId[][] {
  const parent = new Map(ids.map((id) => [id, id]));
  const find = (x: ItemId): ItemId => (parent.get(x) === x ? x : find(parent.get(x)!));
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++)
      if (!notDuplicates.has(pairKey(ids[i]!, ids[j]!))) parent.set(find(ids[j]!), find(ids[i]!));
  const sets = new Map<ItemId, ItemId[]>();
  for (const id of ids) sets.set(find(id), [...(sets.get(find(id)) ?? []), id]);
  return [...sets.values()].filter((s) => s.length > 1);
}
