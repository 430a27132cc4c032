import type { CitewiseApi, Result } from '../../shared/ipc';
import type { Core } from '.';

/**
 * The core as a CitewiseApi in the same process (CLI, tests). Inputs and outputs are structured-cloned,
 * as Electron IPC does, so nothing can rely on sharing objects across the boundary.
 */
export function createInProcessApi(core: Core): CitewiseApi {
  return {
    async invoke(channel, input) {
      const result = await core.invoke(channel, input === undefined ? undefined : structuredClone(input));
      return structuredClone(result) as Result<never>;
    },
    on(name, listener) {
      return core.events.on(name, (payload) => listener(structuredClone(payload)));
    },
  };
}
