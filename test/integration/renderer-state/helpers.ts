// Shared set-up for the renderer state classes' tests: a real core in a temporary folder, reached
// through the in-process api the classes take, either with no service (an address nothing answers
// on, so every service call fails at once as OFFLINE) or against the local test service.
import { afterAll, beforeAll } from 'vitest';
import type { CitewiseApi } from '../../../shared/ipc';
import type { LibraryRow } from '../../../shared/model/library';
import { createCore, type Core, type CoreOptions } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import type { ServiceOptions } from '../../service/options';
import { tempDir } from '../../helpers/tmp';
import { service } from '../service-client/helpers';

export interface TestCore {
  core: Core;
  api: CitewiseApi;
  dataDir: string;
  close(): Promise<void>;
}

export type Svc = Awaited<ReturnType<typeof service>>;

/** A core whose service cannot be reached (nothing listens on port 9): service calls fail at once. */
export async function offlineCore(prefix: string, options: Partial<CoreOptions> = {}): Promise<TestCore> {
  return startCore(prefix, { serviceUrl: 'http://127.0.0.1:9', service: { maxAttempts: 1 }, ...options });
}

/** The local test service, and a core that uses it with the given key (the full-access one by default; none for undefined). */
export async function onlineCore(
  prefix: string,
  options: {
    service?: Partial<ServiceOptions>;
    key?: (svc: Svc) => string | undefined;
    core?: Partial<CoreOptions>;
  } = {},
): Promise<TestCore & { svc: Svc }> {
  const svc = await service(options.service);
  try {
    const started = await startCore(prefix, {
      serviceUrl: svc.url,
      apiKey: options.key ? options.key(svc) : svc.fullKey,
      ...options.core,
    });
    return {
      ...started,
      svc,
      close: async () => {
        await started.close();
        await svc.close();
      },
    };
  } catch (error) {
    await svc.close();
    throw error;
  }
}

async function startCore(prefix: string, options: Partial<CoreOptions>): Promise<TestCore> {
  const dir = tempDir(`citewise-${prefix}-`);
  try {
    const core = await createCore({
      dataDir: dir.path,
      mode: 'test',
      logger: silentLogger,
      secrets: createMemorySecretStore(),
      ...options,
    });
    return {
      core,
      api: createInProcessApi(core),
      dataDir: dir.path,
      close: async () => {
        await core.close();
        dir.remove();
      },
    };
  } catch (error) {
    dir.remove();
    throw error;
  }
}

/** Imports BibTeX and answers the rows by citation key. */
export async function seed(api: CitewiseApi, bib: string): Promise<Record<string, LibraryRow>> {
  const imported = await api.invoke('library.import', { text: bib, fileName: 'seed.bib' });
  if (!imported.ok) throw new Error(imported.error.message);
  const list = await api.invoke('library.list', { limit: 1000 });
  if (!list.ok) throw new Error(list.error.message);
  return Object.fromEntries(list.value.rows.map((r) => [r.citationKey, r]));
}

/**
 * Waits for the enrichment that adding papers starts (it is listed a moment after the add answers;
 * `jobs`: how many enrichment jobs there are by then) to end: a core closed under it rejects the job's `done`, which nobody awaits, after the test.
 */
export async function enrichmentSettled(api: CitewiseApi, jobs = 1): Promise<void> {
  let settled = false;
  await until(
    () => settled,
    'the enrichment job to finish',
    30_000,
    async () => {
      const listed = await api.invoke('jobs.list', {});
      settled =
        listed.ok &&
        listed.value.filter((j) => j.kind === 'enrich').length >= jobs &&
        listed.value.every((j) => j.state !== 'running');
    },
  );
}

/** Waits for what the state's asynchronous loads settle to (`poll` reads what `check` looks at). */
export async function until(
  check: () => boolean,
  what: string,
  ms = 15_000,
  poll?: () => Promise<void>,
): Promise<void> {
  const end = Date.now() + ms;
  while ((await poll?.(), !check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The corpus's DOIs, in order (the first `n`), optionally only those matching a SQL condition on `papers`. */
export function corpusDois(svc: Svc, n: number, where = '1'): string[] {
  return (
    svc.corpus.db.prepare(`SELECT doi FROM papers WHERE ${where} ORDER BY id LIMIT ?`).all(n) as { doi: string }[]
  ).map((r) => r.doi);
}

/**
 * The api with answers that can be held back, as a slow network would: `hold(channel)` makes the next
 * call on that channel reach the core at once but hand its answer over only when `release()` is
 * called, so a later request can be answered first. Everything else passes straight through.
 */
export function holdable(api: CitewiseApi): { api: CitewiseApi; hold(channel: string): () => void } {
  const held = new Map<string, Promise<void>>();
  return {
    api: {
      async invoke(channel, input) {
        const gate = held.get(channel);
        held.delete(channel);
        const result = await api.invoke(channel, input);
        await gate;
        return result;
      },
      on: (name, listener) => api.on(name, listener),
    },
    hold(channel) {
      let release!: () => void;
      held.set(channel, new Promise<void>((r) => (release = r)));
      return () => release();
    },
  };
}

export type Holdable = ReturnType<typeof holdable>;

/**
 * A core for the tests of a file (or of a describe block): started before them, closed after them.
 * `env.t` is the core, `env.net` its api with answers that can be held back; read them in tests.
 */
export function coreForTests<T extends TestCore>(start: () => Promise<T>): { readonly t: T; readonly net: Holdable } {
  let started: { t: T; net: Holdable } | null = null;
  beforeAll(async () => {
    const t = await start();
    started = { t, net: holdable(t.api) };
  });
  afterAll(async () => {
    await started?.t.close();
  });
  const get = (): { t: T; net: Holdable } => {
    if (!started) throw new Error('the core is read before it started (outside a test or hook)');
    return started;
  };
  return {
    get t() {
      return get().t;
    },
    get net() {
      return get().net;
    },
  };
}
