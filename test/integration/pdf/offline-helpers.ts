// Shared by the tests of PDFs captured while the service could not be reached: a core whose service
// client gives up at once and probes often (so "offline" and "back" take a fraction of a second),
// its requests answered as values, and a wait for what the core does by itself.
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import type { CitewiseApi } from '../../../shared/ipc';

export async function until(check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A request's value; its error, as an exception. */
export async function value<T>(api: CitewiseApi, channel: string, input: unknown): Promise<T> {
  const r = await api.invoke(channel as never, input as never);
  if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
  return r.value as T;
}

/** A core on `dataDir` whose client fails once and probes every 200 ms; close it when done. */
export async function quickProbeCore(
  dataDir: string,
  serviceUrl: string,
  apiKey: string,
): Promise<{ core: Core; api: CitewiseApi }> {
  const core = await createCore({
    dataDir,
    mode: 'test',
    logger: silentLogger,
    serviceUrl,
    apiKey,
    service: { maxAttempts: 1, breakerFailures: 1, probeAfterMs: 200, attemptTimeoutMs: 2000 },
  });
  return { core, api: createInProcessApi(core) };
}
