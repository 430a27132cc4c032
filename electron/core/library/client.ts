// The library's async facade: one proxy per store of the worker (protocol.ts LibraryStores), each
// method a message to the library worker.
// The thread that answers the UI only posts messages and receives results; an import is sent in
// chunks (so no single structured clone is large) and committed in one transaction by the worker.
import { MessageChannel, Worker, type MessagePort, type TransferListItem } from 'node:worker_threads';
import type { CslItem } from '../../../shared/model/csl';
import { CoreError } from '../errors';
import { locateWorker, type WorkerEntry } from '../worker-entry';
import { fromWire, WorkerRpc } from '../worker-rpc';
import type { BackupInfo, BackupInspection, BackupReason, Recovery } from './backup';
import type { SearchIndexRepair, SearchIndexState } from './search-index';
import type {
  ImportMatches,
  LibraryStores,
  Request,
  Response,
  StoreCall,
  StoreMethod,
  StoreName,
  WireError,
  WorkerInit,
} from './protocol';
import type { ImportResult } from './types';

/** Every method of one of the worker's stores (protocol.ts LibraryStores), async. */
export type AsyncStore<S extends StoreName> = {
  [M in StoreMethod<S>]: M extends keyof LibraryStores[S]
    ? LibraryStores[S][M] extends (...args: infer A) => infer R
      ? (...args: A) => Promise<Awaited<R>>
      : never
    : never;
};
export type AsyncLibrary = AsyncStore<'lib'>;
/** Every EnrichmentStore method (queue, user edits, retraction watch), async. */
export type AsyncEnrichment = AsyncStore<'enrichment'>;
/** Every GraphStore method (citation graph statements, expansions, saved graphs), async. */
export type AsyncGraph = AsyncStore<'graph'>;

/** Every FulltextStore method (the PDFs' full-text index), async. */
export type AsyncFulltext = AsyncStore<'fulltext'>;

export interface StartLibraryOptions extends WorkerInit {
  /**
   * The worker script. Default: worker.ts beside this file when running from source (tests, tsx),
   * worker.js beside the bundle otherwise; a bundler that renames it passes its URL here.
   */
  workerUrl?: URL;
  /** Items per message during an import. */
  chunkSize?: number;
  /** Told when a scheduled backup is written or fails. */
  onBackup?: (info: BackupInfo | null, error?: WireError) => void;
  /**
   * Told when changes start waiting for the write lock another program holds (a command-line import),
   * with what to tell the user, and when they have all been saved (waiting false).
   */
  onWaiting?: (state: { waiting: boolean; message: string }) => void;
}

export interface ImportItemsOptions {
  source?: string;
  onProgress?: (done: number, total: number | null) => void;
  signal?: AbortSignal;
}

function abortError(): Error {
  const err = new Error('The import was cancelled.');
  err.name = 'AbortError';
  return err;
}

/** The worker script (see locateWorker in worker-entry.ts). */
export function resolveLibraryWorker(): WorkerEntry {
  return locateWorker('library-worker');
}

/**
 * An import whose items go straight from a parser's thread to the library worker: hand `port` to the
 * parser (importInWorker's `port` option), then commit() once it has finished, or abort() if it failed.
 * One transaction; the result's entries carry the line and source key each item arrived with.
 */
export interface PortImportHandle {
  port: MessagePort;
  commit(): Promise<ImportResult>;
  abort(): Promise<void>;
}

type Ready = Extract<Response, { type: 'ready' }>;

/** Starts a library worker and waits until it has opened (checked, recovered, migrated) the file. */
function spawnWorker(options: StartLibraryOptions): Promise<{ worker: Worker; ready: Ready }> {
  const entry = options.workerUrl ? { script: options.workerUrl } : resolveLibraryWorker();
  const init: WorkerInit = {
    file: options.file,
    nativeBinding: options.nativeBinding,
    rankExtension: options.rankExtension,
    backupDir: options.backupDir,
    backupIntervalMs: options.backupIntervalMs,
    maxPageCount: options.maxPageCount,
    durability: options.durability,
    keptMs: options.keptMs,
  };
  const worker = new Worker(entry.script, { workerData: init, ...(entry.eval ? { eval: true } : {}) });
  return new Promise((resolve, reject) => {
    const onMessage = (msg: Response): void => {
      if (msg.type === 'ready') {
        cleanup();
        resolve({ worker, ready: msg });
      } else if (msg.type === 'failed') {
        cleanup();
        void worker.terminate();
        reject(fromWire(msg.error));
      }
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const onExit = (code: number): void => {
      cleanup();
      reject(new CoreError('INTERNAL', `The library worker stopped while opening the library (exit code ${code}).`));
    };
    const cleanup = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

export class LibraryClient {
  #recovery: Recovery | null;
  #migrationBackup: BackupInfo | null;
  #searchIndexRepair: SearchIndexRepair | null;
  readonly backupDir: string;
  /** Every public Library method (items, collections, undo, imports' previews, export), async. */
  readonly lib: AsyncLibrary;
  /** Every EnrichmentStore method, async (used by the enrichment jobs in core/jobs). */
  readonly enrichment: AsyncEnrichment;
  /** Every GraphStore method, async (used by the graph handlers). */
  readonly graph: AsyncGraph;
  /** Every AssistantStore method (conversations, questions, answers), async. */
  readonly assistant: AsyncStore<'assistant'>;
  /** Every FulltextStore method, async (the full-text indexer and search). */
  readonly fulltext: AsyncStore<'fulltext'>;
  /** Every AutoExportStore method (definitions, affected, run), async (the AutoExporter in jobs/). */
  readonly autoExports: AsyncStore<'autoExports'>;
  /** Every ServiceCollectionsStore method (service collections, DOIs, journals), async (handlers/collections.ts). */
  readonly serviceCollections: AsyncStore<'serviceCollections'>;
  /** Every CiteCacheStore method (formatted bibliographies by key), async (the exports' BibliographyStore). */
  readonly citeCache: AsyncStore<'citeCache'>;
  /** Every ServiceCacheStore method (papers, tallies, notices by DOI), async (enrichment, add-by-DOI). */
  readonly serviceCache: AsyncStore<'serviceCache'>;
  /** Every ListingStore method (sorted pages, search, counts, saved searches, idsOf), async. */
  readonly listing: AsyncStore<'listing'>;
  /** Every SyncStore method (the replica's side of a shared library: push, pull, conflicts), async. */
  readonly sync: AsyncStore<'sync'>;
  #worker: Worker;
  /** Requests to the current worker and their replies (worker-rpc.ts). */
  #rpc!: WorkerRpc<Request>;
  readonly #options: StartLibraryOptions;
  readonly #chunkSize: number;
  /** Set while the library file is being replaced (replaceFile): requests wait for the new worker. */
  #swapping: Promise<void> | null = null;
  #closed = false;

  private constructor(worker: Worker, ready: Ready, options: StartLibraryOptions) {
    this.#worker = worker;
    this.#options = options;
    this.#recovery = ready.recovery;
    this.#migrationBackup = ready.migrationBackup;
    this.#searchIndexRepair = ready.searchIndexRepair;
    this.backupDir = ready.backupDir;
    // Small enough that cloning one message takes a few milliseconds of the UI thread.
    this.#chunkSize = options.chunkSize ?? 500;
    this.#attach(worker);
    this.lib = this.#store('lib');
    this.enrichment = this.#store('enrichment');
    this.graph = this.#store('graph');
    this.assistant = this.#store('assistant');
    this.fulltext = this.#store('fulltext');
    this.autoExports = this.#store('autoExports');
    this.serviceCollections = this.#store('serviceCollections');
    this.citeCache = this.#store('citeCache');
    this.serviceCache = this.#store('serviceCache');
    this.listing = this.#store('listing');
    this.sync = this.#store('sync');
  }

  /** The one proxy every store goes through: a method call becomes a 'call' request naming the store. */
  #store<S extends StoreName>(store: S): AsyncStore<S> {
    return new Proxy({} as AsyncStore<S>, {
      get:
        (_t, method: string) =>
        (...args: unknown[]) =>
          this.#request({ id: 0, op: 'call', store, method: method as StoreMethod<S>, args } as StoreCall),
    });
  }

  /** Starts the worker, which checks, recovers, backs up and migrates the library before it answers. */
  static async start(options: StartLibraryOptions): Promise<LibraryClient> {
    const { worker, ready } = await spawnWorker(options);
    return new LibraryClient(worker, ready, options);
  }

  /** Set when the library file was found damaged when the worker opened it, and was set aside. */
  get recovery(): Recovery | null {
    return this.#recovery;
  }

  /** The backup taken before the file was migrated, if it was. */
  get migrationBackup(): BackupInfo | null {
    return this.#migrationBackup;
  }

  /** Set when the worker found the search index out of step with the items and rebuilt it at start. */
  get searchIndexRepair(): SearchIndexRepair | null {
    return this.#searchIndexRepair;
  }

  /** Compares the search index with the items, and rebuilds it as asked (`citewise check`). */
  searchIndex(
    rebuild: 'always' | 'if-drifted' | 'never',
  ): Promise<{ before: SearchIndexState; after: SearchIndexState | null }> {
    return this.#request({ id: 0, op: 'search-index', rebuild }) as Promise<{
      before: SearchIndexState;
      after: SearchIndexState | null;
    }>;
  }

  /**
   * Replaces the library file under a running client. Waits for the requests in flight, closes the
   * worker (which checkpoints and closes its database), runs `swap` while this client has no
   * connection open, then starts a new worker, which checks and migrates the file as at start-up.
   * Requests made meanwhile wait, then go to the new worker. If the new worker cannot open the file,
   * `undo` puts the previous one back, a worker is started on it, and the error is thrown.
   */
  async replaceFile(swap: () => void | Promise<void>, undo: () => void | Promise<void>): Promise<void> {
    if (this.#closed) throw new CoreError('CANCELLED', 'The library is closed.');
    if (this.#swapping) throw new CoreError('CONFLICT', 'The library file is already being replaced.');
    let release!: () => void;
    this.#swapping = new Promise<void>((r) => (release = r));
    try {
      while (this.#rpc.pending > 0) await new Promise((r) => setTimeout(r, 5));
      await this.#post({ id: 0, op: 'close' }).catch(() => undefined);
      await this.#worker.terminate();
      try {
        await swap();
        this.#adopt(await spawnWorker(this.#options));
      } catch (err) {
        try {
          await undo();
          this.#adopt(await spawnWorker(this.#options));
        } catch (again) {
          // No worker to answer: later requests are refused rather than left waiting.
          this.#closed = true;
          throw again;
        }
        throw err;
      }
    } finally {
      this.#swapping = null;
      release();
    }
  }

  #adopt({ worker, ready }: { worker: Worker; ready: Ready }): void {
    this.#worker = worker;
    this.#recovery = ready.recovery;
    this.#migrationBackup = ready.migrationBackup;
    this.#searchIndexRepair = ready.searchIndexRepair;
    this.#attach(worker);
  }

  #attach(worker: Worker): void {
    const options = this.#options;
    this.#rpc = new WorkerRpc<Request>(worker, {
      what: 'library worker',
      onMessage: (message) => {
        const msg = message as Response;
        if (msg.type === 'backup') options.onBackup?.(msg.info, msg.error);
        else if (msg.type === 'waiting') options.onWaiting?.({ waiting: msg.waiting, message: msg.message });
      },
      onStop: () => {
        // A worker replaced on purpose (replaceFile) stops without closing the client; one that
        // failed or exited otherwise closes it: later requests are refused (CANCELLED).
        if (worker !== this.#worker || this.#swapping) return;
        this.#closed = true;
      },
    });
  }

  /**
   * Imports items in one transaction (all or nothing), sending them in chunks. Takes an array or an
   * async iterable of chunks (a parser can stream into it). Aborting rolls everything back.
   */
  async importItems(
    items: readonly CslItem[] | AsyncIterable<readonly CslItem[]>,
    options: ImportItemsOptions = {},
  ): Promise<ImportResult> {
    const total = Array.isArray(items) ? items.length : null;
    const session = (await this.#request({ id: 0, op: 'import.begin', source: options.source })) as number;
    let done = 0;
    // A few chunks in flight, so the worker never waits while the next one is cloned and posted.
    const inFlight: Promise<void>[] = [];
    try {
      const send = async (chunk: readonly CslItem[]): Promise<void> => {
        if (options.signal?.aborted) throw abortError();
        const sent = this.#request({ id: 0, op: 'import.chunk', session, items: chunk as CslItem[] }).then(() => {
          done += chunk.length;
          options.onProgress?.(done, total);
        });
        sent.catch(() => undefined);
        inFlight.push(sent);
        if (inFlight.length >= 3) await inFlight.shift();
      };
      if (Array.isArray(items)) {
        const list = items as readonly CslItem[];
        for (let i = 0; i < list.length; i += this.#chunkSize) await send(list.slice(i, i + this.#chunkSize));
      } else {
        for await (const chunk of items as AsyncIterable<readonly CslItem[]>) {
          for (let i = 0; i < chunk.length; i += this.#chunkSize) await send(chunk.slice(i, i + this.#chunkSize));
        }
      }
      for (const p of inFlight.splice(0)) await p;
      if (options.signal?.aborted) throw abortError();
      return (await this.#request({ id: 0, op: 'import.commit', session })) as ImportResult;
    } catch (err) {
      await Promise.allSettled(inFlight);
      if (!this.#closed) await this.#request({ id: 0, op: 'import.abort', session }).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Starts an import fed through a MessagePort (see PortImportHandle): the thread that answers the UI
   * neither clones nor holds the items, and parsing overlaps writing.
   */
  importFromPort(options?: { source?: string }): Promise<PortImportHandle>;
  /** The same, reading `port`: the store's end of a channel whose other end a parser has already (startParse). */
  importFromPort(options: { source?: string; port: MessagePort }): Promise<Omit<PortImportHandle, 'port'>>;
  async importFromPort(
    options: { source?: string; port?: MessagePort } = {},
  ): Promise<Omit<PortImportHandle, 'port'> & { port: MessagePort | undefined }> {
    // Given a port (startParse: the parser has the other end and may be posting already), the store
    // reads that one; else a new channel, whose other end the caller hands to the parser.
    const { port1, port2 } = options.port ? { port1: undefined, port2: options.port } : new MessageChannel();
    let session: number;
    try {
      session = (await this.#request({ id: 0, op: 'import.begin', source: options.source, port: port2 }, [
        port2,
      ])) as number;
    } catch (err) {
      (port1 ?? port2).close();
      throw err;
    }
    return { port: port1, ...this.#sessionHandle(session, port1) };
  }

  /**
   * Starts an import of the entries a preview kept (ImportMatches.kept): the source is not parsed again.
   * Null when the worker no longer holds them (a later preview, a library opened since, or too long ago).
   */
  async importFromKept(options: {
    source?: string | undefined;
    kept: string;
  }): Promise<Omit<PortImportHandle, 'port'> | null> {
    const session = (await this.#request({
      id: 0,
      op: 'import.begin',
      source: options.source,
      kept: options.kept,
    })) as number | null;
    return session === null ? null : this.#sessionHandle(session, undefined);
  }

  #sessionHandle(session: number, port1: MessagePort | undefined): Omit<PortImportHandle, 'port'> {
    let finished = false;
    return {
      commit: () => {
        finished = true;
        return this.#request({ id: 0, op: 'import.commit', session }) as Promise<ImportResult>;
      },
      abort: async () => {
        if (finished) return;
        finished = true;
        port1?.close();
        if (!this.#closed) await this.#request({ id: 0, op: 'import.abort', session }).catch(() => undefined);
      },
    };
  }

  /**
   * Starts an import preview's reader: hand `port` to the parser (importInWorker with `port` and
   * `sample`); `matches` settles once the parser's `end` is in, and rejects when the port closes
   * before it (a failed parse). The entries pass from parser to library worker, never through here.
   */
  previewFromPort(options: { source?: string | undefined; sample: number; keep?: number | undefined }): {
    port: MessagePort;
    matches: Promise<ImportMatches>;
  } {
    const { port1, port2 } = new MessageChannel();
    const { source, sample, keep } = options;
    const matches = this.#request(
      { id: 0, op: 'import.preview', source, sample, port: port2, ...(keep !== undefined ? { keep } : {}) },
      [port2],
    ) as Promise<ImportMatches>;
    return { port: port1, matches };
  }

  /** A verified backup now (e.g. before a risky operation, or from a menu). */
  backup(reason: BackupReason = 'manual'): Promise<BackupInfo> {
    return this.#request({ id: 0, op: 'backup', reason }) as Promise<BackupInfo>;
  }

  /** Checks a backup file in the worker (integrity_check reads all of it), so this thread never waits on it. */
  inspectBackup(file: string): Promise<BackupInspection> {
    return this.#request({ id: 0, op: 'inspect', file }) as Promise<BackupInspection>;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#request({ id: 0, op: 'close' }).catch(() => undefined);
    this.#closed = true;
    await this.#worker.terminate();
  }

  #request(req: Request, transfer: readonly TransferListItem[] = []): Promise<unknown> {
    // While the file is being replaced, requests wait for the new worker.
    if (this.#swapping) return this.#swapping.then(() => this.#request(req, transfer));
    return this.#post(req, transfer);
  }

  #post(req: Request, transfer: readonly TransferListItem[] = []): Promise<unknown> {
    if (this.#closed) return Promise.reject(new CoreError('CANCELLED', 'The library is closed.'));
    return this.#rpc.call(req, transfer);
  }
}
