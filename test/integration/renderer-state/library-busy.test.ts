// The Library's "searching" state (the search box's and the table's aria-busy) against a real core
// whose answers to library.list take a while, as on a large library: a change, a tag or a view that
// replaces a search's load before its first rows came must not leave the table busy for ever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi } from '../../../shared/ipc';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { LibraryState } from '../../../renderer/src/lib/state/library.svelte';
import { tempDir } from '../../helpers/tmp';
import { until } from './helpers';

const BIB = `@article{doe2020, title = {Alpha paper}, author = {Doe, Jane}, year = 2020, keywords = {kept}}
@article{roe2021, title = {Beta paper}, author = {Roe, Rick}, year = 2021}
@book{poe2019, title = {Gamma book}, author = {Poe, Paula}, year = 2019}
`;

let core: Core;
let api: CitewiseApi;
let dir: ReturnType<typeof tempDir>;
/** How long each library.list answer is held back (0: not at all). */
let listDelayMs = 0;
/** Whether library.list answers with the error a busy or failing database gives. */
let listFails = false;

beforeAll(async () => {
  dir = tempDir('citewise-busy-');
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    serviceUrl: 'http://127.0.0.1:9',
    service: { maxAttempts: 1 },
    secrets: createMemorySecretStore(),
  });
  const direct = createInProcessApi(core);
  // The real core, its list answers arriving late (the transport is the only thing changed).
  api = {
    async invoke(channel, input) {
      if (channel === 'library.list' && listFails) {
        return {
          ok: false,
          error: { code: 'INTERNAL', message: 'The library is busy (database is locked).' },
        } as Awaited<ReturnType<typeof direct.invoke>>;
      }
      const result = await direct.invoke(channel, input);
      if (channel === 'library.list' && listDelayMs > 0) await new Promise((r) => setTimeout(r, listDelayMs));
      return result;
    },
    on: (name, listener) => direct.on(name, listener),
  };
  const imported = await api.invoke('library.import', { text: BIB, fileName: 'three.bib' });
  if (!imported.ok) throw new Error(imported.error.message);
});

afterAll(async () => {
  await core?.close();
  dir?.remove();
});

describe('LibraryState: a search replaced before its first rows', () => {
  let state: LibraryState;
  let stop: () => void;

  beforeAll(async () => {
    state = new LibraryState(api);
    stop = state.start();
    await until(() => state.rows.counted && state.rowsCount() === 3, 'the first load');
  });

  afterAll(() => stop?.());

  /** Searches `query` and lets `replace` start another load while the search's first page is on its way. */
  async function searchThen(query: string, replace: () => Promise<unknown> | void): Promise<void> {
    listDelayMs = 300;
    await new Promise((r) => setTimeout(r, 150)); // past the debounce: the search applies at once
    state.setSearch(query);
    expect(state.searching).toBe(true);
    await replace();
    await new Promise((r) => setTimeout(r, 1200)); // every held answer is in
    listDelayMs = 0;
  }

  it('is busy until the search’s own first rows come, when nothing replaces its load', async () => {
    await searchThen('alpha', () => new Promise((r) => setTimeout(r, 100)));
    expect(state.rowsCount()).toBe(1);
    expect(state.searching).toBe(false);
  });

  it('ends the busy state when a library change refreshes the table first', async () => {
    const [beta] = (await core.library.listing.list({ query: 'title:beta', limit: 1 })).rows;
    await searchThen('paper', () => api.invoke('library.tags.add', { ids: [beta!.id], tags: ['read'] }));
    expect(state.rowsCount()).toBe(2);
    expect(state.searching).toBe(false);
  });

  it('ends the busy state when a tag filter replaces the search’s load', async () => {
    await searchThen('book OR paper', () => state.toggleTag('kept'));
    expect(state.rowsCount()).toBe(1);
    expect(state.searching).toBe(false);
    state.toggleTag('kept');
  });

  it('ends the busy state when another view replaces the search’s load', async () => {
    await searchThen('gamma', () => state.show({ kind: 'trash' }));
    expect(state.rowsCount()).toBe(0);
    expect(state.searching).toBe(false);
    state.show({ kind: 'library' });
  });

  it('ends the busy state when the search’s load fails, and shows the error', async () => {
    await new Promise((r) => setTimeout(r, 150));
    listFails = true;
    state.setSearch('alpha');
    expect(state.searching).toBe(true);
    await until(() => state.rows.error !== null, 'the failed load');
    listFails = false;
    expect(state.rows.error?.message).toContain('database is locked');
    expect(state.searching).toBe(false);
    state.setSearch('');
    await until(() => !state.searching && state.rowsCount() === 3, 'the library again');
  });
});
