// What the preload exposes as `window.citewise`: exactly `invoke` and `on`. Written against a minimal
// ipcRenderer shape (no 'electron' import) so the same transport test suite can drive it.
// Values only from wire.ts and listeners.ts: a sandboxed preload must bundle everything it runs, and stays tiny.
import type { CitewiseApi, Result } from '../../shared/ipc';
import { ListenerSet } from '../../shared/ipc/listeners';
import {
  ELECTRON_DROP_CHANNEL,
  ELECTRON_EVENT_CHANNEL,
  ELECTRON_INVOKE_CHANNEL,
  MAX_DROPPED_PDFS,
} from '../../shared/ipc/wire';

/** webUtils.getPathForFile: a dropped or chosen File's path, '' for one not backed by a file; throws for anything else. */
export type PathForFile = (file: unknown) => string;

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/**
 * The paths of PDFs dropped on the window, sent to the main process on a channel of their own, which the
 * page cannot reach: the page hands over the File objects of its drop, never a path it could make up.
 * Null (the page then uploads the bytes) when a file has no path or this is not a list of files.
 */
function chooseDropped(ipc: IpcRendererLike, pathForFile: PathForFile, input: unknown): Promise<Result<unknown>> {
  const files = (input as { files?: unknown } | null)?.files;
  if (!Array.isArray(files) || files.length === 0 || files.length > MAX_DROPPED_PDFS)
    return Promise.resolve({ ok: true, value: null });
  const paths: string[] = [];
  for (const file of files) {
    let path = '';
    try {
      path = pathForFile(file);
    } catch {
      // Not a File (the page passed something else): no path.
    }
    if (typeof path !== 'string' || path === '') return Promise.resolve({ ok: true, value: null });
    paths.push(path);
  }
  return ipc.invoke(ELECTRON_DROP_CHANNEL, paths) as Promise<Result<unknown>>;
}

/**
 * `api` is what gets exposed; `listenerCount` stays in the preload, for tests that check for leaks.
 * With `pathForFile` (webUtils.getPathForFile in the app), `invoke('pdfs.chooseDropped')` is answered here.
 */
export function createPreloadApi(
  ipc: IpcRendererLike,
  pathForFile?: PathForFile,
): { api: CitewiseApi; listenerCount(): number } {
  const listeners = new ListenerSet();
  ipc.on(ELECTRON_EVENT_CHANNEL, (_event, name, payload) => {
    if (typeof name === 'string') listeners.dispatch(name, payload);
  });
  const api: CitewiseApi = {
    invoke(channel, input) {
      if (channel === 'pdfs.chooseDropped' && pathForFile)
        return chooseDropped(ipc, pathForFile, input) as Promise<Result<never>>;
      return ipc.invoke(ELECTRON_INVOKE_CHANNEL, channel, input) as Promise<Result<never>>;
    },
    on(name, listener) {
      if (typeof listener !== 'function') throw new TypeError('citewise.on needs a listener function');
      return listeners.add(name, listener);
    },
  };
  const listenerCount = () => listeners.count();
  return { api, listenerCount };
}
