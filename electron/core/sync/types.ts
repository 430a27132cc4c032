// The shapes the sync engine (engine.ts) and the replica's store (store.ts, in the library worker)
// exchange. Plain data: structured clone carries them between the threads.
export type { SyncConflict, SyncLogEntry } from '../../../shared/model/sync';

/** One row of citewise.objects as pulled (its fields as JSON text, parsed in the worker). */
export interface ServerRow {
  kind: string;
  uid: string;
  version: number;
  deleted: boolean;
  data: string | null;
  modifiedBy: string;
  modifiedAt: number;
  /** Set when the server held back fields larger than the replica accepts (MAX_DOC_CHARS). */
  tooLarge?: boolean;
}

/** One object to push: its document (null: deleted) and the server version it was based on (0: new). */
export interface PushEntry {
  kind: string;
  uid: string;
  localId: number | string;
  baseVersion: number;
  data: string | null;
  /** The change count it was read at: the mark is cleared only if nothing changed it since. */
  mark: number;
}

export interface PushBatch {
  entries: PushEntry[];
  /** More changed objects are waiting. */
  more: boolean;
}

export interface ApplySummary {
  applied: number;
  /** Rows this replica had at that version already. */
  skipped: number;
  conflicts: number;
  /** Objects waiting (for another object, or refused), after this page. */
  parked: number;
  /** Rows refused as malformed, with why. */
  rejected: { kind: string; uid: string; reason: string }[];
  /** Items whose rows changed. */
  itemIds: number[];
  kinds: string[];
  /** What the user should hear of (sync_log entries written by this page). */
  notes: string[];
}

export interface ReplicaState {
  shared: boolean;
  libraryId: string | null;
  url: string | null;
  cursor: number;
  pending: number;
  conflicts: number;
  parked: number;
  lastPullAt: number | null;
  lastPushAt: number | null;
  files: { wanted: number; uploads: number; failed: number };
}

export interface FileTransfer {
  sha256: string;
  size: number;
  doneBytes: number;
  /** Where the file is (upload) or goes (download) on this machine. */
  path: string | null;
}
