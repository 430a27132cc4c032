// Messages between the library worker and its facade. Plain data only: structured clone carries them.
import type { CslItem } from '../../../shared/model/csl';
import type { BackupInfo, BackupReason, Recovery } from './backup';
import type { EnrichmentStore } from './enrichment-store';
import type { Library } from './library';
import type { ImportResult } from './types';

/** Library methods callable through the facade: everything except the callback-taking import entry points. */
export type LibraryMethod = {
  [K in keyof Library]: Library[K] extends (...args: never[]) => unknown ? (K extends 'importItems' | 'beginImport' ? never : K) : never;
}[keyof Library];

/** EnrichmentStore methods callable through the facade (LibraryClient.enrichment). */
export type EnrichmentMethod = { [K in keyof EnrichmentStore]: EnrichmentStore[K] extends (...args: never[]) => unknown ? K : never }[keyof EnrichmentStore];

export type LibraryArgs<M extends LibraryMethod> = Parameters<Library[M]>;
export type LibraryResult<M extends LibraryMethod> = ReturnType<Library[M]>;

export interface WorkerInit {
  file: string;
  nativeBinding?: string | undefined;
  backupDir?: string | undefined;
  /** Take a verified backup this often when the library changed; 0 or absent: never on a timer. */
  backupIntervalMs?: number | undefined;
}

export type Request =
  | { id: number; op: 'call'; method: LibraryMethod; args: unknown[] }
  | { id: number; op: 'enrichment'; method: EnrichmentMethod; args: unknown[] }
  | { id: number; op: 'import.begin'; source: string | undefined }
  | { id: number; op: 'import.chunk'; session: number; items: CslItem[] }
  | { id: number; op: 'import.commit'; session: number }
  | { id: number; op: 'import.abort'; session: number }
  | { id: number; op: 'backup'; reason: BackupReason }
  | { id: number; op: 'close' };

export interface WireError {
  name: string;
  message: string;
  code?: string;
  details?: unknown;
}

export type Response =
  | { type: 'ready'; recovery: Recovery | null; migrationBackup: BackupInfo | null; backupDir: string }
  | { type: 'failed'; error: WireError }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: WireError }
  | { type: 'backup'; info: BackupInfo | null; error?: WireError };

export type { ImportResult };
