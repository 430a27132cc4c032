// What the preload exposes as `window.citewise`: exactly `invoke` and `on`. Written against a minimal
// ipcRenderer shape (no 'electron' import) so the same transport test suite can drive it.
// Values only from wire.ts and listeners.ts: a sandboxed preload must bundle everything it runs, and stays tiny.
import type { CitewiseApi, Result } from '../../shared/ipc';
import { ListenerSet } from '../../shared/ipc/listeners';
import { ELECTRON_EVENT_CHANNEL, ELECTRON_INVOKE_CHANNEL } from '../../shared/ipc/wire';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** `api` is what gets exposed; `listenerCount` stays in the preload, for tests that check for leaks. */
export function createPreloadApi(ipc: IpcRendererLike): { api: CitewiseApi; listenerCount(): number } {
  const listeners = new ListenerSet();
  ipc.on(ELECTRON_EVENT_CHANNEL, (_event, name, payload) => {
    if (typeof name === 'string') listeners.dispatch(name, payload);
  });
  const api: CitewiseApi = {
    invoke(channel, input) {
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
