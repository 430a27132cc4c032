// Sharing the library through PostgreSQL (Settings → Sharing, the status bar, the Conflicts view). The
// password crosses once, from the renderer to the core, into the OS keychain; nothing ever sends it back.
import { z } from 'zod';
import { event, feature, request } from './define';
import { MEMBER_ROLES, type SyncConflict, type SyncLogEntry, type SyncMember, type SyncStatus } from '../model/sync';

export * from '../model/sync';

const empty = z.object({}).strict();
const login = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'lower-case letters, digits and _, starting with a letter or _');

/** What a sync did: counts, what it refused, and what the user should hear of. */
export interface SyncReportView {
  pulled: number;
  pushed: number;
  conflicts: number;
  rejected: { kind: string; uid: string; reason: string }[];
  notes: string[];
  filesDown: number;
  filesUp: number;
}

export interface SyncOptions {
  /** Fetch attachment files as soon as their attachment arrives (else when opened). */
  fetchFilesAhead: boolean;
  /** Files larger than this are neither sent nor fetched, MiB. */
  maxFileMegabytes: number;
}

export const syncFeature = feature({
  requests: {
    'sync.status': request(empty).returns<SyncStatus>(),
    /** Shares this library with a server's (postgresql://USER@HOST:PORT/DATABASE?sslmode=…). */
    'sync.connect': request(
      z
        .object({
          url: z.string().min(1).max(2048),
          password: z.string().max(1024).optional(),
        })
        .strict(),
    ).returns<SyncStatus>(),
    /** Stops syncing and forgets the password; `leave` also drops the sync records (sharing again starts over). */
    'sync.disconnect': request(z.object({ leave: z.boolean().default(false) }).strict()).returns<SyncStatus>(),
    'sync.now': request(empty).returns<SyncReportView>(),
    'sync.conflicts': request(empty).returns<SyncConflict[]>(),
    /** The user's choice per field: keep this machine's value or take the server's. */
    'sync.resolve': request(
      z
        .object({
          kind: z.string().min(1).max(40),
          uid: z.string().min(1).max(300),
          choices: z.record(z.string().min(1).max(200), z.enum(['local', 'server'])),
        })
        .strict(),
    ).returns<{ left: number }>(),
    'sync.log': request(z.object({ limit: z.number().int().min(1).max(1000).default(100) }).strict()).returns<
      SyncLogEntry[]
    >(),
    'sync.options.get': request(empty).returns<SyncOptions>(),
    'sync.options.set': request(
      z
        .object({
          fetchFilesAhead: z.boolean().optional(),
          maxFileMegabytes: z.number().int().min(1).max(10_000).optional(),
        })
        .strict(),
    ).returns<SyncOptions>(),
    /** Fetches an attachment's file from the server now (opening a file not fetched ahead). */
    'sync.fetchFile': request(z.object({ attachmentId: z.number().int().positive() }).strict()).returns<{
      fetched: boolean;
    }>(),
    'sync.members.list': request(empty).returns<SyncMember[]>(),
    /** Adds a member or changes their role (admins only; the server checks). A new login needs a password. */
    'sync.members.set': request(
      z
        .object({
          login,
          role: z.enum(MEMBER_ROLES),
          password: z.string().min(8, 'at least 8 characters').max(1024).optional(),
        })
        .strict(),
    ).returns<{ result: 'created' | 'updated' }>(),
    'sync.members.remove': request(z.object({ login }).strict()).returns<{ removed: boolean }>(),
  },
  events: {
    /** The connection or the replica changed: phase, pending changes, conflicts. */
    'sync.statusChanged': event<SyncStatus>(),
  },
});
