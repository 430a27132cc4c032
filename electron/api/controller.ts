// Settings → Editors: the app serves the editor API while the setting is on (the default), on the
// port it names, and follows changes to either without a restart. A taken port is not fatal to the
// app: the status says why and what to do, and the next change of the setting tries again.
import type { Settings } from '../../shared/ipc';
import type { Core } from '../core';
import { silentLogger, type Logger } from '../core/log';
import { ApiPortInUseError, startApiServer, type ApiServer, type ApiServerOptions } from './server';

export type EditorApiStatus =
  | { state: 'off' }
  | { state: 'running'; origin: string; port: number }
  /** `suggestedPort`: a port that was free when this one was found taken (absent for other failures). */
  | { state: 'error'; port: number; message: string; suggestedPort?: number };

export interface EditorApiController {
  status(): EditorApiStatus;
  /** Resolves once the server matches the settings last seen (tests). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function followEditorSettings(
  core: Pick<Core, 'invoke' | 'library' | 'events'>,
  options: Omit<ApiServerOptions, 'core' | 'port'> & { onStatus?: (status: EditorApiStatus) => void },
): Promise<EditorApiController> {
  const logger: Logger = options.logger ?? silentLogger;
  let server: ApiServer | null = null;
  let status: EditorApiStatus = { state: 'off' };
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  const report = (next: EditorApiStatus) => {
    status = next;
    options.onStatus?.(next);
  };

  async function apply(settings: Pick<Settings, 'editorApi' | 'editorApiPort'>): Promise<void> {
    const wanted = settings.editorApi && !closed ? settings.editorApiPort : null;
    if (server && server.port === wanted) return;
    if (server) {
      await server.close();
      server = null;
      report({ state: 'off' });
    }
    if (wanted === null) return;
    try {
      server = await startApiServer({ ...options, core, port: wanted });
      report({ state: 'running', origin: server.origin, port: server.port });
    } catch (err) {
      if (err instanceof ApiPortInUseError) {
        logger.warn(err.message);
        report({ state: 'error', port: wanted, message: err.message, suggestedPort: err.suggested });
        return;
      }
      const message = `The editor API could not start: ${err instanceof Error ? err.message : String(err)}`;
      logger.warn(message);
      report({ state: 'error', port: wanted, message });
    }
  }

  const enqueue = (settings: Pick<Settings, 'editorApi' | 'editorApiPort'>) => {
    queue = queue.then(() => apply(settings));
    return queue;
  };

  const initial = await core.invoke('settings.get', {});
  if (initial.ok) await enqueue(initial.value as Settings);
  const unsubscribe = core.events.on('settings.changed', (s) => void enqueue(s));

  return {
    status: () => status,
    settled: () => queue,
    async close() {
      closed = true;
      unsubscribe();
      await enqueue({ editorApi: false, editorApiPort: 0 });
    },
  };
}
