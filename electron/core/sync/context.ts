// What a shared kind (kinds.ts) reads and writes through, inside the library worker's transaction: the
// write connection, the Library's own row writes (SyncWriter), uids for local ids and back, and what
// the sync tells the user (sync_log).
import type { CslItem } from '../../../shared/model/csl';
import { LibraryBase, type LibraryOptions } from '../library/library-base';
import type { WriteDb } from '../library/sql';
import type { ItemId } from '../library/types';
import type { ImportSession } from '../library/import-session';

/** An object's id in this replica: a row id, or a natural key (a DOI) or a pair ("3:17"). */
export type LocalId = number | string;

/**
 * The Library's shared row writes (library-base.ts), for objects the server sent: an item's typed
 * columns, creators and search row come from its CSL-JSON exactly as an edit's do.
 */
export class SyncWriter extends LibraryBase {
  /**
   * A first sync's bulk load is under way (SyncStore sets it per transaction): items' search rows are
   * left out, to be built for every item at once when the pull ends (SyncStore.finishPull).
   */
  withoutSearchRows = false;

  constructor(options: LibraryOptions) {
    super(options);
  }
  protected override reindex(ids: readonly ItemId[]): void {
    if (!this.withoutSearchRows) super.reindex(ids);
  }
  item(id: ItemId, csl: CslItem, key: string): void {
    this.writeItem(id, csl, key);
  }
  reindexItems(ids: readonly ItemId[]): void {
    this.reindex(ids);
  }
  deleteItem(id: ItemId): void {
    this.deleteRow(id);
  }
  tag(name: string): number {
    return this.tagId(name);
  }
}

export interface SyncContext {
  readonly w: WriteDb;
  readonly writer: SyncWriter;
  now(): number;
  /** The object's uid; one is made (and kept) for an object that has none yet. */
  uidOf(kind: string, id: LocalId): string;
  /** The local object a uid names, or null when this replica has none. */
  localOf(kind: string, uid: string): LocalId | null;
  /** The sync wrote this object differently from the server (a key that had to give way): push it. */
  markDirty(kind: string, id: LocalId): void;
  /**
   * Set by a kind's write when it wrote the object differently from the document (a key or name that
   * gave way, a loop broken): the object is then pushed as written.
   */
  rewritten: boolean;
  /** One import session for the new items of this transaction (library/import-session.ts). */
  importSession(): ImportSession;
  /** Something the user should hear of. */
  log(kind: string, uid: string | null, id: LocalId | null, message: string): void;
  /** Items whose rows this sync changed (events, auto-export, undo entries to drop). */
  readonly touchedItems: Set<ItemId>;
  /** Kinds this sync changed. */
  readonly touchedKinds: Set<string>;
  /** Where attachment files fetched from the server go (content-addressed). */
  readonly filesDir: string;
  /** Fetch attachment files as soon as their attachment arrives (else when opened). */
  readonly fetchAhead: boolean;
  /** Files larger than this are never fetched or sent. */
  readonly maxFileBytes: number;
}
