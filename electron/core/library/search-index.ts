// The search index (items_fts, contentless FTS5) must hold exactly one row per item. Every write keeps
// the two in one transaction, but a library written before that held everywhere (an import that went
// on after SQLITE_FULL had rolled its transaction back) can have items the index lacks, or index rows
// of items that are gone. A search would never find the former. Start-up and `citewise check` look
// for such drift (a few milliseconds for 100,000 items) and rebuild the index from the items.
import type Database from 'better-sqlite3';

/** Each item's indexed text, as the 0003 migration and every edit index it (columns in items_fts order). */
export const FTS_ROWS = `SELECT i.id, coalesce(i.title, ''), coalesce((SELECT json_extract(r.csl, '$.abstract') FROM item_csl r WHERE r.item_id = i.id), ''),
  coalesce((SELECT group_concat(coalesce(c.literal, trim(coalesce(c.given, '') || ' ' || coalesce(c.family, ''))), '; ') FROM creators c WHERE c.item_id = i.id), ''),
  coalesce(i.container, ''),
  coalesce((SELECT group_concat(t.name, '; ') FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE it.item_id = i.id), ''),
  coalesce((SELECT group_concat(n.text, ' ') FROM notes n WHERE n.item_id = i.id), ''),
  i.citation_key FROM items i`;

export interface SearchIndexState {
  items: number;
  /** Items the index has no row for: a search can never find them. */
  missing: number;
  /** Index rows whose item is gone. */
  extra: number;
  /**
   * A first sync's bulk load is under way (sync/store.ts): its items get their rows in one pass when it
   * ends, or when the library next opens if it was cut short, so their missing rows are not drift.
   */
  pending: boolean;
}

export function searchIndexDrift(state: SearchIndexState): boolean {
  return (state.missing > 0 && !state.pending) || state.extra > 0;
}

/** Compares the index's rows with the items (reads only). */
export function checkSearchIndex(db: Database.Database): SearchIndexState {
  const count = (text: string): number => db.prepare(text).pluck().get() as number;
  return {
    items: count('SELECT count(*) FROM items'),
    missing: count('SELECT count(*) FROM items WHERE id NOT IN (SELECT rowid FROM items_fts)'),
    extra: count('SELECT count(*) FROM items_fts WHERE rowid NOT IN (SELECT id FROM items)'),
    pending:
      count("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'sync_state'") > 0 &&
      count("SELECT count(*) FROM sync_state WHERE key = 'searchDeferred'") > 0,
  };
}

/**
 * Writes the whole index again from the items, in one statement each: for a caller already inside its
 * write transaction (a first sync's bulk load builds it this way when its pull ends, sync/store.ts).
 */
export function writeSearchIndex(db: Database.Database): void {
  db.exec("INSERT INTO items_fts (items_fts) VALUES ('delete-all')");
  db.exec(`INSERT INTO items_fts (rowid, title, abstract, creators, container, tags, notes, citation_key) ${FTS_ROWS}`);
}

/** Rebuilds the whole index from the items, in one write transaction (a failure leaves it as it was). */
export function rebuildSearchIndex(db: Database.Database): SearchIndexState {
  db.transaction(() => writeSearchIndex(db)).immediate();
  return checkSearchIndex(db);
}

/** What start-up found and did: null when the index matched the items. */
export interface SearchIndexRepair {
  before: SearchIndexState;
}

/** Start-up's check: rebuilds the index when it drifted from the items. */
export function repairSearchIndexIfDrifted(db: Database.Database): SearchIndexRepair | null {
  const before = checkSearchIndex(db);
  if (!searchIndexDrift(before)) return null;
  rebuildSearchIndex(db);
  return { before };
}

/** One sentence for the user (CLI) or the log (app) about a start-up rebuild. */
export function searchIndexRepairNote(repair: SearchIndexRepair): string {
  const { missing, extra } = repair.before;
  const parts = [
    ...(missing > 0 ? [`${missing} item${missing === 1 ? ' was' : 's were'} missing from it`] : []),
    ...(extra > 0 ? [`it had ${extra} row${extra === 1 ? '' : 's'} of deleted items`] : []),
  ];
  return `The search index had drifted from the items (${parts.join('; ')}); it was rebuilt, and every item can be found again.`;
}
