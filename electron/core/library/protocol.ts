// Messages between the library worker and its facade. Plain data only: structured clone carries them.
import type { MessagePort } from 'node:worker_threads';
import type { CslItem } from '../../../shared/model/csl';
import type { AssistantStore } from './assistant-store';
import type { AutoExportStore } from './auto-export-store';
import type { CiteCacheStore } from './cite-cache';
import type { BackupInfo, BackupReason, Recovery } from './backup';
import type { EnrichmentStore } from './enrichment-store';
import type { GraphStore } from './graph-store';
import type { FulltextStore } from './fulltext-store';
import type { ServiceCacheStore } from './service-cache';
import type { ServiceCollectionsStore } from './service-collections-store';
import type { Library } from './library';
import type { ListingStore } from './list';
import type { SyncStore } from '../sync/store';
import type { SearchIndexRepair } from './search-index';
import type { ImportResult } from './types';
import type { Reply, WireError } from '../worker-rpc';
import type { STORE_SURFACE } from './surface';

/**
 * The stores the library worker holds (dispatch.ts storesOf). LibraryClient has one async proxy per
 * store, under the same name (`client.lib.getItem(…)`, `client.listing.list(…)`, `client.graph.…`);
 * each call is one 'call' request naming the store, and reaches only the methods its allowlist names
 * (surface.ts; dispatch.ts refuses every other name).
 */
export interface LibraryStores {
  lib: Library;
  enrichment: EnrichmentStore;
  graph: GraphStore;
  assistant: AssistantStore;
  fulltext: FulltextStore;
  autoExports: AutoExportStore;
  serviceCollections: ServiceCollectionsStore;
  citeCache: CiteCacheStore;
  serviceCache: ServiceCacheStore;
  listing: ListingStore;
  sync: SyncStore;
}
export type StoreName = keyof LibraryStores;

/** A store's methods callable through the facade: those its allowlist names (surface.ts). */
export type StoreMethod<S extends StoreName> = (typeof STORE_SURFACE)[S][number];

/** A call of one store's method, typed per store. */
export type StoreCall = {
  [S in StoreName]: { id: number; op: 'call'; store: S; method: StoreMethod<S>; args: unknown[] };
}[StoreName];

export interface WorkerInit {
  file: string;
  nativeBinding?: string | undefined;
  /** The search-ranking extension (rank.ts): a path, undefined to look for it, null not to use it. */
  rankExtension?: string | null | undefined;
  backupDir?: string | undefined;
  /** Take a verified backup this often when the library changed; 0 or absent: never on a timer. */
  backupIntervalMs?: number | undefined;
  /**
   * A cap on the library file's size in pages (SQLite's max_page_count): writes past it fail with
   * SQLITE_FULL as on a full disk. Tests that cannot mount a small file system use it.
   */
  maxPageCount?: number | undefined;
  /** See OpenDatabaseOptions.durability: 'off' only for tests that do not test durability. */
  durability?: 'full' | 'off' | undefined;
  /** How long an import preview's parse is kept for the import (worker.ts KEPT_MS); tests shorten it. */
  keptMs?: number | undefined;
}

export type Request =
  | StoreCall
  /**
   * Starts an import fed by `port`, or by the entries a preview kept (`kept`: ImportMatches.kept); a
   * kept parse the worker no longer holds answers null (the caller parses again).
   */
  | { id: number; op: 'import.begin'; source: string | undefined; port?: MessagePort; kept?: string }
  | { id: number; op: 'import.chunk'; session: number; items: CslItem[] }
  | { id: number; op: 'import.commit'; session: number }
  | { id: number; op: 'import.abort'; session: number }
  /** An import preview: reads a parser's port (formats/import-port) to the end; answers ImportMatches. */
  | {
      id: number;
      op: 'import.preview';
      source: string | undefined;
      sample: number;
      port: MessagePort;
      /** Keep the parsed entries for the import that follows, up to this many bytes of them (see KEEP). */
      keep?: number;
    }
  | { id: number; op: 'backup'; reason: BackupReason }
  /** Checks a backup file (integrity_check, items) without opening it as the library. */
  | { id: number; op: 'inspect'; file: string }
  /** Compares the search index with the items; `rebuild` rebuilds it (always, or only when it drifted). */
  | { id: number; op: 'search-index'; rebuild: 'always' | 'if-drifted' | 'never' }
  | { id: number; op: 'close' };

/** What an import preview's entries are in the library already: how many, and which item each of the first ones is. */
export interface ImportMatches {
  duplicates: number;
  /** For the first `sample` entries in order: the item it already is, or null. */
  sample: (number | null)[];
  /** The kept parse's name, for import.begin; absent when the entries were not kept (too large, or not asked). */
  kept?: string;
}

export type { WireError };

export type Response =
  | {
      type: 'ready';
      recovery: Recovery | null;
      migrationBackup: BackupInfo | null;
      backupDir: string;
      searchIndexRepair: SearchIndexRepair | null;
    }
  | { type: 'failed'; error: WireError }
  /** The answer to a request (worker-rpc.ts). */
  | Reply
  | { type: 'backup'; info: BackupInfo | null; error?: WireError }
  /** Changes are waiting for the write lock another program holds (true), or all were saved (false). */
  | { type: 'waiting'; waiting: boolean; message: string };

export type { ImportResult };
