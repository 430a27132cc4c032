// The composition root: everything the renderer can reach goes through `invoke`, everything it hears
// comes from `events`. Hosts (Electron main, host mode, the CLI, tests) create one core each.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { version } from '../../package.json';
import {
  isServiceUrl,
  type AppInfo,
  type HostMode,
  type LibraryChange,
  type PdfSelection,
  type editorsFeature,
  type pdfWatchFeature,
  type Result,
  type ServiceConfig,
} from '../../shared/ipc';
import { ConnectivityState } from './connectivity';
import { EventBus } from './events';
import { appHandlers } from './handlers/app';
import { attachmentHandlers } from './handlers/attachments';
import { readerHandlers } from './handlers/reader';
import { evidenceHandlers } from './handlers/evidence';
import { autoExportHandlers } from './handlers/auto-export';
import { collectionsHandlers } from './handlers/collections';
import { restoreHandlers } from './handlers/restore';
import type { DesktopShell } from './desktop';
import { jobsHandlers } from './handlers/jobs';
import { enrichmentHandlers } from './handlers/enrichment';
import { libraryHandlers } from './handlers/library';
import { graphHandlers } from './handlers/graph';
import { manuscriptHandlers } from './handlers/manuscript';
import { organiseHandlers } from './handlers/organise';
import { pdfHandlers } from './handlers/pdfs';
import { zoteroHandlers } from './handlers/zotero';
import { captureServiceOf } from './pdf/capture';
import { PendingCaptures, retrySchedule } from './pdf/pending-captures';
import type { Clock } from './clock';
import { AutoExporter } from './jobs/auto-export';
import { PdfFolderWatcher } from './jobs/pdf-watch';
import { Enricher } from './jobs/enrich';
import { RetractionWatch } from './jobs/retraction-watch';
import { serviceHandlers, taskRunner } from './handlers/service';
import { assistantHandlers } from './handlers/assistant';
import { settingsHandlers } from './handlers/settings';
import { syncHandlers } from './handlers/sync';
import { SyncEngine, type SyncEngineOptions } from './sync/engine';
import { JobRegistry } from './jobs/registry';
import { DEFAULT_CITATION_STYLE } from '../../shared/model/settings';
import { createCiteFormatter, type CiteFormatter } from './formats/cite';
import { UserStyles } from './formats/cite/user-styles';
import { styleCollection } from './formats/cite/style-collection';
import { stylesHandlers } from './handlers/styles';
import { LibraryClient } from './library/client';
import { searchIndexRepairNote } from './library/search-index';
import { openDatabase } from './library/database';
import { stderrLogger, type Logger } from './log';
import { ensureDataDir, LIBRARY_FILE } from './paths';
import { PendingPicks } from './editors/pending-picks';
import { HandlerRegistry, type FeatureHandlers } from './registry';
import { createSecretStore, type SecretStore } from './secrets';
import { CoreError, toIpcError } from './errors';
import { ServiceClient, type FetchLike, type ServiceClientOptions } from './service';
import { resolveServiceUrl, ServiceKeys } from './service/keys';
import { SettingsStore } from './settings/store';
import { watchUndo } from './undo-watch';
import { ChosenFiles } from './chosen-files';

export interface CoreOptions {
  dataDir: string;
  mode: HostMode;
  /** The better-sqlite3 addon for this runtime (the Electron app passes its Electron-ABI build). */
  sqliteNativeBinding?: string | undefined;
  /** The search-ranking SQLite extension (library/rank.ts); default: looked for beside the build. */
  sqliteRankExtension?: string | undefined;
  logger?: Logger;
  /** --service-url / CITEWISE_SERVICE_URL: wins over the setting for this run. */
  serviceUrl?: string | undefined;
  /** CITEWISE_API_KEY: used for this run, never stored. */
  apiKey?: string | undefined;
  /** Where keys live; the OS keychain by default (in memory for mode 'test'). */
  secrets?: SecretStore | undefined;
  /** The HTTP edge, replaced in tests. */
  fetch?: FetchLike | undefined;
  /** How often the library is backed up while it changes; 0: never on a timer. Default 6 hours. */
  backupIntervalMs?: number | undefined;
  /** Tuning of the service client (timeouts, limits); tests and benchmarks shorten them. */
  service?:
    Partial<Omit<ServiceClientOptions, 'baseUrl' | 'getKey' | 'fetch' | 'onConnectivity' | 'logger'>> | undefined;
  /** The native save dialog and opening files with their application: the Electron shell's; absent elsewhere. */
  desktop?: DesktopShell | undefined;
  /** Captures PDFs from the watched folder (the setting); default: every mode but 'cli' (a command must not). */
  watchFolder?: boolean | undefined;
  /** Tuning of the watched folder (tests shorten the waits). */
  pdfWatch?: { stableMs?: number; pollMs?: number; rescanMs?: number } | undefined;
  /** The CSL styles repository the Styles browser offers (default: out/csl-collection, built by npm run build). */
  styleCollectionDir?: string | undefined;
  /** The clock of the app's hourly look for PDFs captured offline (tests pass a manual one). */
  clock?: Clock | undefined;
  /** CITEWISE_SYNC_PASSWORD: the shared library's password for this run, never stored (scripts, CI). */
  syncPassword?: string | undefined;
  /** Keeps a shared library in sync in the background; default: the app's modes ('browser', 'electron'). */
  syncInBackground?: boolean | undefined;
  /** Tuning of the sync engine's waits (tests shorten them). */
  syncTiming?: SyncEngineOptions['timing'];
}

export interface Core {
  readonly info: AppInfo;
  readonly events: EventBus;
  readonly jobs: JobRegistry;
  readonly connectivity: ConnectivityState;
  /** The service client, for the core's own jobs and for tests; the renderer reaches it through `invoke`. */
  readonly service: ServiceClient;
  /** The library, in its worker. */
  readonly library: LibraryClient;
  /** The shared library's sync (core/sync): connect, sync now, status. */
  readonly sync: SyncEngine;
  /** PDFs captured offline waiting for their title search; resumed by the core itself (exposed for tests). */
  readonly pendingCaptures: PendingCaptures;
  /** Cite-as-you-write requests waiting for the user, shown in the app (browser mode registers them). */
  readonly pendingPicks: PendingPicks;
  /** One request: validated, handled, answered as a Result. Never throws. */
  invoke(channel: unknown, input: unknown, signal?: AbortSignal): Promise<Result<unknown>>;
  /**
   * The desktop app's dropped PDFs, by the paths the preload read (ELECTRON_DROP_CHANNEL, which the
   * main process alone answers): kept as a selection for `pdfs.addChosen`, like the open dialog's.
   */
  selectDroppedPdfs(paths: unknown): Result<PdfSelection | null>;
  /**
   * Browser mode's uploads of a file to import (the host server streams each to `path()`, then
   * `adopt`s it): a selection for `library.import.preview` and `library.import`, deleted after.
   */
  readonly uploads: { path(): string; adopt(path: string, name: string): PdfSelection };
  close(): Promise<void>;
}

/**
 * Starts a core: the library worker first (it checks the file, recovers a damaged one from its last
 * good backup, backs up and migrates), then the settings connection beside it.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const logger = options.logger ?? stderrLogger;
  if (options.serviceUrl !== undefined && !isServiceUrl(options.serviceUrl)) {
    throw new CoreError(
      'INVALID_INPUT',
      'The service URL must be an http:// or https:// address without a user name, query or fragment.',
    );
  }
  ensureDataDir(options.dataDir);
  const file = join(options.dataDir, LIBRARY_FILE);
  // Set once the event bus exists (below); the worker cannot be waiting for a lock before that.
  let onWaiting: (state: { waiting: boolean; message: string }) => void = () => {};
  const library = await LibraryClient.start({
    file,
    onWaiting: (state) => onWaiting(state),
    nativeBinding: options.sqliteNativeBinding,
    rankExtension: options.sqliteRankExtension,
    backupIntervalMs: options.backupIntervalMs ?? 6 * 60 * 60_000,
    onBackup: (_info, error) => {
      if (error) logger.error('the scheduled library backup failed', new Error(error.message));
    },
  });
  const ranking = await library.listing.searchRanking();
  if (ranking.reason) logger.info(`search ranks with FTS5's bm25 (same order, slower): ${ranking.reason}`);
  if (library.recovery)
    logger.warn(
      `The library file was damaged (${library.recovery.problem}); it was set aside as ${library.recovery.setAside}.`,
    );
  if (library.searchIndexRepair) logger.warn(searchIndexRepairNote(library.searchIndexRepair));
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(file, { nativeBinding: options.sqliteNativeBinding });
  } catch (err) {
    await library.close();
    throw err;
  }
  const events = new EventBus((name, err) => logger.error(`a listener for ${name} failed`, err));
  onWaiting = (state) => events.emit('library.waiting', state);
  const lifetime = new AbortController();
  const info: AppInfo = {
    name: 'Citewise',
    version,
    mode: options.mode,
    platform: process.platform,
    dataDir: options.dataDir,
  };
  // Set once the enricher exists: coming back online resumes the enrichment left queued.
  let onOnline: () => void = () => {};
  const connectivity = new ConnectivityState((status) => {
    events.emit('app.connectivityChanged', status);
    if (status.state === 'online') onOnline();
  });
  const jobs = new JobRegistry({ onChange: (list) => events.emit('jobs.changed', list) });
  const { settings, serviceConfig, keys, service, secrets } = serviceStack(options, db, logger, (state, reason) =>
    connectivity.set(state, reason),
  );

  const registry = new HandlerRegistry((err) => logger.error('request failed', err));
  // Files chosen in the open dialog, dropped, or uploaded by the browser: the PDFs' and the import's.
  const chosen = new ChosenFiles();
  registry.register(appHandlers({ info, connectivity }));
  registry.register(settingsHandlers({ store: settings, events, dataDir: options.dataDir }));
  registry.register(jobsHandlers({ jobs }));
  const tasks = taskRunner({
    client: service,
    events,
    jobs,
    report: (err) => logger.error('service task failed', err),
  });
  registry.register(
    serviceHandlers({
      client: service,
      keys,
      config: serviceConfig,
      events,
      jobs,
      tasks,
      report: (err) => logger.error('service task failed', err),
    }),
  );
  let formatter: CiteFormatter | null = null;
  const userStyles = new UserStyles(join(options.dataDir, 'styles'));
  const enricher = new Enricher({
    library: library.enrichment,
    service,
    jobs,
    report: (err) => logger.error('enrichment failed', err),
  });
  const watch = new RetractionWatch({
    library: library.enrichment,
    enricher,
    report: (err) => logger.error('a retraction-watch listener failed', err),
  });
  const autoExport = new AutoExporter({
    library,
    jobs,
    report: (err) => logger.error('an auto-export listener failed', err),
  });
  /** A change to the library: the panes hear of it, and the auto-exports it touches run. */
  const libraryChanged = (change: LibraryChange): void => {
    events.emit('library.changed', change);
    autoExport.libraryChanged(change.ids);
  };
  /** New items get their metadata, tallies and notices in the background, as a job. */
  const enrichAdded = (ids: readonly number[]): void =>
    void enricher
      .startJob({ kind: 'items', ids: [...ids] }, { reason: 'import' })
      .catch((err: unknown) => logger.error('enrichment failed', err));
  const disposers = [
    watchUndo(
      events,
      () => library.lib.undoTops(),
      (err) => logger.error('reading the undo stack failed', err),
    ),
    autoExport.onStatus((status) => events.emit('autoExport.status', status)),
    watch.onStatusChange((changes) => events.emit('library.statusChanged', changes)),
    enricher.onProgress((run) => {
      events.emit('library.enrichProgress', run);
      // Filled fields and new tallies change what the table shows (and what auto-exports hold).
      libraryChanged({ kind: 'cache' });
    }),
  ];
  // PDFs captured offline without an identifier wait for the paper search; it runs when enrichment resumes.
  const pendingCaptures = new PendingCaptures({
    library,
    service: () => captureServiceOf(service),
    jobs,
    changed: (ids) => libraryChanged({ kind: 'items', ids: [...ids] }),
    onIdentified: enrichAdded,
    report: (err) => logger.error('the title search of a PDF captured offline failed', err),
  });
  const lookForPending = (): void =>
    void pendingCaptures.resume().catch((err: unknown) => logger.error('looking up PDFs captured offline failed', err));
  const resumeQueued = (): void => {
    void enricher.resume().catch((err: unknown) => logger.error('resuming enrichment failed', err));
    lookForPending();
  };
  onOnline = resumeQueued;
  const getFormatter = (): CiteFormatter => {
    if (formatter) return formatter;
    formatter = createCiteFormatter();
    for (const p of userStyles.loadInto(formatter))
      logger.warn(`the added citation style ${p.file} was skipped: ${p.problem}`);
    return formatter;
  };
  registry.register(
    libraryHandlers({
      library,
      file,
      events,
      jobs,
      service,
      formatter: getFormatter,
      styles: userStyles,
      sentenceCase: () => settings.get().sentenceCase,
      onStyleRemoved: (id) => {
        if (settings.get().citationStyle !== id) return;
        events.emit('settings.changed', settings.update({ citationStyle: DEFAULT_CITATION_STYLE }));
      },
      onChange: (change) => autoExport.libraryChanged(change.ids),
      attachFiles: (ids, dirs, label, signal) => pdfs.attachFiles(ids, dirs, label, signal),
      chosen,
      onAdded: enrichAdded,
    }),
  );
  registry.register(enrichmentHandlers({ enricher, watch, library }));
  registry.register(
    assistantHandlers({
      library,
      events,
      tasks,
      service,
      formatter: getFormatter,
      changed: libraryChanged,
      onAdded: enrichAdded,
      report: (err) => logger.error('assistant request failed', err),
      interruptLeftovers: options.mode === 'browser' || options.mode === 'electron',
    }),
  );
  registry.register(
    restoreHandlers({
      library,
      file,
      jobs,
      beforeSwap: () => {
        settings.detach();
        db.close();
      },
      afterSwap: () => {
        try {
          db = openDatabase(file, { nativeBinding: options.sqliteNativeBinding });
          settings.attach(db);
        } catch (err) {
          logger.error('could not reopen the settings after a restore', err);
        }
      },
      onRestored: () => {
        // Everything may differ: items, collections, settings (they live in the file), queued enrichment.
        events.emit('library.changed', { kind: 'all' });
        events.emit('settings.changed', settings.get());
        autoExport.libraryChanged();
        resumeQueued();
      },
    }),
  );
  registry.register(
    attachmentHandlers({
      library,
      desktop: options.desktop,
      changed: libraryChanged,
    }),
  );
  registry.register(readerHandlers({ library }));
  registry.register(
    evidenceHandlers({
      library,
      changed: libraryChanged,
    }),
  );
  registry.register(graphHandlers({ library, service, events }));
  registry.register(manuscriptHandlers({ library }));
  registry.register(
    organiseHandlers({
      library,
      events,
      changed: (kind, ids) => libraryChanged(ids ? { kind, ids: [...ids] } : { kind }),
    }),
  );
  registry.register(
    collectionsHandlers({
      library,
      service,
      jobs,
      changed: (kind, ids) => libraryChanged(ids ? { kind, ids: [...ids] } : { kind }),
      onAdded: enrichAdded,
    }),
  );
  const pdfs = pdfHandlers({
    library,
    service: () => captureServiceOf(service),
    jobs,
    dataDir: options.dataDir,
    storage: () => settings.get().pdfStorage,
    desktop: options.desktop,
    chosen,
    changed: libraryChanged,
    onAdded: enrichAdded,
    report: (err) => {
      if ((err as { code?: string } | null)?.code !== 'CANCELLED') logger.error('full-text indexing failed', err);
    },
  });
  registry.register(pdfs.handlers);
  registry.register(
    zoteroHandlers({
      library,
      events,
      dataDir: options.dataDir,
      changed: libraryChanged,
      onAdded: enrichAdded,
      capturePdf: (upload, signal) => pdfs.captureInto(upload, signal),
      jobs,
      importFolder: async (path, signal, progress, base) => {
        const report = await library.lib.importZoteroFolder(path, {
          storeDir: join(options.dataDir, 'attachments'),
          mode: settings.get().pdfStorage,
          progress,
          ...(base !== undefined ? { baseDirectory: base } : {}),
        });
        void pdfs.indexPending(signal);
        return report;
      },
    }),
  );
  const pdfWatch = new PdfFolderWatcher({
    library,
    capture: (files, signal) => pdfs.captureFiles(files, signal),
    ...options.pdfWatch,
    onStatus: (status) => events.emit('pdfWatch.changed', status),
    report: (err) => logger.error('the watched folder failed', err),
  });
  registry.register({ 'pdfWatch.status': () => pdfWatch.status() } satisfies FeatureHandlers<typeof pdfWatchFeature>);
  registry.register(
    stylesHandlers({
      library,
      collection: () => styleCollection(options.styleCollectionDir),
      formatter: getFormatter,
      styles: userStyles,
    }),
  );
  if (options.watchFolder ?? options.mode !== 'cli') {
    // Follows the setting: at start, when it changes, and after a restore (the settings live in the file).
    const follow = (folder: string | null | undefined): void =>
      void pdfWatch.setFolder(folder ?? null).catch((err: unknown) => logger.error('the watched folder failed', err));
    disposers.push(events.on('settings.changed', (next) => follow(next.watchFolder)));
    follow(settings.get().watchFolder);
  }
  registry.register(
    autoExportHandlers({ exporter: autoExport, library, dataDir: options.dataDir, desktop: options.desktop }),
  );
  // A shared library (docs/sharing.md): the server's changes arrive as library changes like any other.
  const syncEngine = new SyncEngine({
    store: library.sync,
    secrets,
    logger,
    envPassword: options.syncPassword,
    timing: options.syncTiming,
    onStatus: (status) => events.emit('sync.statusChanged', status),
    onApplied: (summary) => {
      const ids = summary.itemIds;
      if (ids.length > 0) events.emit('library.changed', ids.length <= 1000 ? { kind: 'items', ids } : { kind: 'all' });
      if (summary.kinds.some((k) => k === 'collection' || k === 'membership'))
        events.emit('library.changed', { kind: 'collections' });
      if (summary.kinds.includes('saved_search')) events.emit('library.changed', { kind: 'searches' });
      if (summary.kinds.includes('evidence')) events.emit('library.changed', { kind: 'cache' });
      autoExport.libraryChanged(ids.length <= 1000 ? ids : undefined);
    },
  });
  const pendingPicks = new PendingPicks(events);
  registry.register({
    'editors.picks.list': () => pendingPicks.list(),
    'editors.picks.answer': ({ id, citationKeys }) => pendingPicks.answer(id, citationKeys),
    'editors.picks.cancel': ({ id }) => pendingPicks.cancel(id),
  } satisfies FeatureHandlers<typeof editorsFeature>);
  registry.register(
    syncHandlers({
      engine: syncEngine,
      library,
      changed: (ids) => libraryChanged(ids ? { kind: 'items', ids: [...ids] } : { kind: 'all' }),
    }),
  );
  disposers.push(events.on('library.changed', () => syncEngine.localChange()));
  if (options.syncInBackground ?? (options.mode === 'browser' || options.mode === 'electron'))
    void syncEngine.resume().catch((err: unknown) => logger.error('starting the sync failed', err));
  // The app refreshes what went stale in small batches, never the whole library at every start; the
  // CLI and tests do only what they are asked.
  const stopBackground =
    options.mode === 'browser' || options.mode === 'electron' ? enricher.startBackground() : () => {};
  // The app also looks up, soon after it starts and then hourly, the PDFs that wait for the paper
  // search: the service may be reachable without anything having asked it yet (no online event).
  const stopPendingTimer =
    options.mode === 'browser' || options.mode === 'electron' ? retrySchedule(lookForPending, options.clock) : () => {};
  // Catch up with changes made while the app was closed (e.g. by the CLI).
  autoExport.libraryChanged();
  const missing = registry.missing();
  if (missing.length > 0) throw new Error(`IPC channels without a handler: ${missing.join(', ')}`);

  let closed = false;
  return {
    info,
    events,
    jobs,
    connectivity,
    service,
    library,
    sync: syncEngine,
    pendingCaptures,
    pendingPicks,
    invoke(channel, input, signal) {
      if (closed)
        return Promise.resolve({ ok: false, error: { code: 'CANCELLED', message: 'Citewise is shutting down.' } });
      const combined = signal ? AbortSignal.any([signal, lifetime.signal]) : lifetime.signal;
      return registry.invoke(channel, input, { signal: combined });
    },
    uploads: { path: () => chosen.uploadPath(), adopt: (path, name) => chosen.adoptUpload(path, name) },
    selectDroppedPdfs(paths) {
      try {
        return { ok: true, value: pdfs.selectDropped(paths) };
      } catch (err) {
        return { ok: false, error: toIpcError(err, (e) => logger.error('dropped PDFs failed', e)) };
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      lifetime.abort();
      stopBackground();
      stopPendingTimer();
      for (const dispose of disposers) dispose();
      watch.dispose();
      // Before cancelling jobs: a run stopped by close() stays queued for the next start.
      await enricher.close();
      await pendingCaptures.close();
      await autoExport.close();
      await pdfWatch.close();
      await syncEngine.close();
      jobs.cancelAll();
      service.close();
      await formatter?.close();
      await pdfs.close();
      chosen.close();
      await library.close();
      db.close();
    },
  };
}

/** The settings, the service address, the keys and the service client over one settings connection. */
function serviceStack(
  options: CoreOptions,
  db: ReturnType<typeof openDatabase>,
  logger: Logger,
  onConnectivity?: ServiceClientOptions['onConnectivity'],
) {
  const settings = new SettingsStore(db);

  const serviceConfig = {
    get: (): ServiceConfig => resolveServiceUrl(options.serviceUrl, settings.get().serviceUrl),
    set: (url: string | null): ServiceConfig => {
      if (url !== null && !isServiceUrl(url))
        throw new CoreError(
          'INVALID_INPUT',
          'The service URL must be an http:// or https:// address without a user name, query or fragment.',
        );
      settings.update({ serviceUrl: url });
      return serviceConfig.get();
    },
  };
  const secrets =
    options.secrets ??
    createSecretStore(
      options.mode === 'test'
        ? { kind: 'memory' }
        : { onFallback: (reason) => logger.warn(`API keys are kept for this session only: ${reason}`) },
    );
  const keys = new ServiceKeys({ secrets, baseUrl: () => serviceConfig.get().serviceUrl, envKey: options.apiKey });
  const service = new ServiceClient({
    ...options.service,
    baseUrl: () => serviceConfig.get().serviceUrl,
    getKey: () => keys.get(),
    fetch: options.fetch,
    logger,
    userAgent: `Citewise/${version}`,
    ...(onConnectivity ? { onConnectivity } : {}),
  });

  return { settings, serviceConfig, keys, service, secrets };
}

/**
 * The service client alone, for commands that only need to reach the service (`citewise add`): no
 * library worker. The settings connection it opens is closed with it.
 */
export function openServiceClient(options: CoreOptions): { service: ServiceClient; close: () => Promise<void> } {
  mkdirSync(options.dataDir, { recursive: true });
  const db = openDatabase(join(options.dataDir, LIBRARY_FILE), { nativeBinding: options.sqliteNativeBinding });
  const { service } = serviceStack(options, db, options.logger ?? stderrLogger);
  return {
    service,
    close: async () => {
      service.close();
      db.close();
    },
  };
}
