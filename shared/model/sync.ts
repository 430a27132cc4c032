// Sharing a library through PostgreSQL (docs/sharing.md): what the core tells the renderer about the
// connection, the replica and its conflicts. Plain data: it crosses the worker boundary and IPC as is.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export const MEMBER_ROLES = ['reader', 'editor', 'admin'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * The sync's state, as the status bar and Settings → Sharing show it:
 * - off: the library is not shared;
 * - connecting / syncing / idle: connected, working or up to date (live: changes arrive within a second);
 * - offline: the server cannot be reached; changes wait here and go when it can be;
 * - error: the server refused (a password, a role, an older server); `message` says what to do.
 */
export type SyncPhase = 'off' | 'connecting' | 'syncing' | 'idle' | 'offline' | 'error';

export interface SyncStatus {
  phase: SyncPhase;
  /** The server address without password (postgresql://user@host:port/db). */
  url: string | null;
  libraryName: string | null;
  /** This member's role on the server; null when unknown (offline) or not shared. */
  role: MemberRole | null;
  /** Changes made here that the server does not have yet. */
  pending: number;
  /** Objects with fields changed on both sides, waiting for a choice. */
  conflicts: number;
  /** Objects from the server waiting for another, or refused as malformed. */
  parked: number;
  lastSyncAt: number | null;
  /** Why the phase is offline or error, in words for the user. */
  message: string | null;
  files: { downloading: number; uploading: number; failed: number };
  /** Whether attachment files are fetched as they arrive (else when opened). */
  fetchFilesAhead: boolean;
}

export interface SyncConflictField {
  field: string;
  /** This machine's value (null: the field is absent here). */
  local: JsonValue;
  /** The server's value (null: absent there). */
  server: JsonValue;
}

export interface SyncConflict {
  kind: string;
  uid: string;
  /** The local object (an item's id), or null when it is no longer here. */
  localId: number | string | null;
  label: string;
  /** The member whose write on the server conflicts. */
  serverBy: string | null;
  detectedAt: number;
  fields: SyncConflictField[];
}

export interface SyncLogEntry {
  id: number;
  at: number;
  kind: string;
  uid: string | null;
  localId: number | string | null;
  message: string;
}

export interface SyncMember {
  login: string;
  role: MemberRole;
  addedBy: string;
  addedAt: string;
}
