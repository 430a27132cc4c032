// The composition root: everything the renderer can reach goes through `invoke`, everything it hears
// comes from `events`. Hosts (Electron main, host mode, the CLI, tests) create one core each.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { version } from '../../package.json';
import type { AppInfo, HostMode, Result } from '../../shared/ipc';
import { ConnectivityState } from './connectivity';
import { EventBus } from './events';
import { appHandlers } from './handlers/app';
import { jobsHandlers } from './handlers/jobs';
import { settingsHandlers } from './handlers/settings';
import { JobRegistry } from './jobs/registry';
import { openDatabase } from './library/database';
import { stderrLogger, type Logger } from './log';
import { LIBRARY_FILE } from './paths';
import { HandlerRegistry } from './registry';
import { SettingsStore } from './settings/store';

export interface CoreOptions {
  dataDir: string;
  mode: HostMode;
  /** The better-sqlite3 addon for this runtime (the Electron app passes its Electron-ABI build). */
  sqliteNativeBinding?: string | undefined;
  logger?: Logger;
}

export interface Core {
  readonly info: AppInfo;
  readonly events: EventBus;
  readonly jobs: JobRegistry;
  readonly connectivity: ConnectivityState;
  /** One request: validated, handled, answered as a Result. Never throws. */
  invoke(channel: unknown, input: unknown, signal?: AbortSignal): Promise<Result<unknown>>;
  close(): Promise<void>;
}

export function createCore(options: CoreOptions): Core {
  const logger = options.logger ?? stderrLogger;
  mkdirSync(options.dataDir, { recursive: true });
  const db = openDatabase(join(options.dataDir, LIBRARY_FILE), { nativeBinding: options.sqliteNativeBinding });
  const events = new EventBus();
  const lifetime = new AbortController();
  const info: AppInfo = {
    name: 'Citewise',
    version,
    mode: options.mode,
    platform: process.platform,
    dataDir: options.dataDir,
  };
  const connectivity = new ConnectivityState((status) => events.emit('app.connectivityChanged', status));
  const jobs = new JobRegistry({ onChange: (list) => events.emit('jobs.changed', list) });
  const settings = new SettingsStore(db);

  const registry = new HandlerRegistry((err) => logger.error('request failed', err));
  registry.register(appHandlers({ info, connectivity }));
  registry.register(settingsHandlers({ store: settings, events }));
  registry.register(jobsHandlers({ jobs }));
  const missing = registry.missing();
  if (missing.length > 0) throw new Error(`IPC channels without a handler: ${missing.join(', ')}`);

  let closed = false;
  return {
    info,
    events,
    jobs,
    connectivity,
    invoke(channel, input, signal) {
      if (closed) return Promise.resolve({ ok: false, error: { code: 'CANCELLED', message: 'Citewise is shutting down.' } });
      const combined = signal ? AbortSignal.any([signal, lifetime.signal]) : lifetime.signal;
      return registry.invoke(channel, input, { signal: combined });
    },
    async close() {
      if (closed) return;
      closed = true;
      lifetime.abort();
      jobs.cancelAll();
      db.close();
    },
  };
}
