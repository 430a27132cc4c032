// The details column's versions state (renderer/src/panes/library/details/versions.svelte.ts) and the
// Library's merge into a published version, in Node against a real in-process core whose service
// cannot be reached: what the cache links is shown offline, an add is kept as a placeholder, and the
// merge selects the published version and offers its Undo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi } from '../../../shared/ipc';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { withLibrary } from '../../../electron/cli/library-session';
import { addOutcome, VersionsState } from '../../../renderer/src/panes/library/details/versions.svelte';
import { LibraryState } from '../../../renderer/src/lib/state/library.svelte';
import { tempDir } from '../../helpers/tmp';
import { until } from './helpers';
import { service } from '../service-client/helpers';

const PRE = '10.1101/2020.01.01.000001';
const PUB = '10.1038/published';
const OTHER_PUB = '10.1038/other-published';
const BIB = `@article{preprint2020, title = {A Preprint on Dreams}, author = {Early, Fi}, year = {2020}, journal = {bioRxiv}, doi = {${PRE}}}
@article{lonely2019, title = {A Preprint Nobody Published}, author = {Alone, Al}, year = {2019}, doi = {10.1101/2019.05.05.000002}}
`;

let core: Core;
let api: CitewiseApi;
let dir: ReturnType<typeof tempDir>;
const ids: Record<string, number> = {};

beforeAll(async () => {
  dir = tempDir('citewise-versions-');
  await withLibrary(dir.path, async (client) => {
    // As enrichment stores them: the preprint's record names two published versions, one of them known.
    await client.serviceCache.putPapers({
      found: {
        [PRE]: {
          title: 'A Preprint on Dreams',
          publicationLinks: [{ publishedDoi: PUB }, { publishedDoi: OTHER_PUB }],
          preprintLinks: [],
        },
      },
    });
    await client.serviceCache.putPapers({
      found: {
        [OTHER_PUB]: {
          title: 'Dreams <script>x()</script> Revisited',
          journal: 'Sleep',
          year: 2022,
          preprintLinks: [],
          publicationLinks: [],
        },
      },
    });
  });
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    serviceUrl: 'http://127.0.0.1:9',
    service: { maxAttempts: 1 },
    secrets: createMemorySecretStore(),
  });
  api = createInProcessApi(core);
  const imported = await api.invoke('library.import', { text: BIB, fileName: 'seed.bib' });
  if (!imported.ok) throw new Error(imported.error.message);
  const list = await api.invoke('library.list', { limit: 10 });
  if (!list.ok) throw new Error(list.error.message);
  for (const r of list.value.rows) ids[r.citationKey] = r.id;
});

afterAll(async () => {
  await core?.close();
  dir?.remove();
});

describe('VersionsState, offline', () => {
  it('shows the stored links, named where the cache knows them, and says nothing without links', async () => {
    const state = new VersionsState(api);
    await state.load(ids.lonely2019!);
    expect(state.versions).toEqual({ doi: '10.1101/2019.05.05.000002', published: [], preprints: [] });
    await state.load(ids.preprint2020!);
    expect(state.versions?.published.map((v) => [v.doi, v.title, v.itemId])).toEqual([
      [OTHER_PUB, 'Dreams <script>x()</script> Revisited', null],
      [PUB, null, null],
    ]);
    // Asking the unreachable service to name the other one changed nothing and raised nothing.
    expect(state.error).toBeNull();
  });

  it('adds a published version as a placeholder when the service cannot be reached, and then offers the merge', async () => {
    const state = new VersionsState(api);
    await state.load(ids.preprint2020!);
    await state.add(PUB);
    expect(state.message).toMatch(/could not be reached: 10\.1038\/published was added as a placeholder/);
    const pub = state.versions?.published.find((v) => v.doi === PUB);
    expect(pub?.itemId).toEqual(expect.any(Number));
    ids.published = pub!.itemId!;
  });

  it('merges the preprint into the published version, selects it and offers one Undo', async () => {
    const library = new LibraryState(api);
    const stop = library.start();
    try {
      const note = await api.invoke('library.notes.add', { itemId: ids.preprint2020!, body: 'Check the figures.' });
      expect(note.ok).toBe(true);
      expect(await library.mergeIntoPublished(ids.published!, ids.preprint2020!)).toBe(true);
      expect(library.selection.single()).toBe(ids.published);
      expect(library.toast?.text).toBe('Merged the preprint into its published version');
      await until(() => library.toastOffer !== null, 'the Undo offer');
      const merged = await api.invoke('library.item.get', { id: ids.published! });
      expect(merged.ok && merged.value.notes.map((n) => n.text)).toEqual(['Check the figures.']);
      expect(merged.ok && merged.value.keyAliases).toContain('preprint2020');

      await library.runOffer();
      const back = await api.invoke('library.item.get', { id: ids.preprint2020! });
      expect(back.ok).toBe(true);
    } finally {
      stop();
    }
  });
});

describe('addOutcome', () => {
  const empty = { added: [], duplicates: [], notAdded: [], queued: [] };
  it('says what add-by-DOI did with the DOI', () => {
    expect(addOutcome({ ...empty, added: [{ doi: PUB, id: 1, citationKey: 'k' }] }, PUB)).toBe(
      `Added the published version (${PUB}) to the library.`,
    );
    expect(addOutcome({ ...empty, duplicates: [{ doi: PUB, existingId: 1 }] }, PUB)).toMatch(/already in the library/);
    expect(
      addOutcome({ ...empty, notAdded: [{ doi: PUB, reason: 'the citation service does not know this DOI' }] }, PUB),
    ).toBe(`Could not add ${PUB}: the citation service does not know this DOI.`);
    expect(addOutcome(empty, PUB)).toBe(`Could not add ${PUB}.`);
  });
});

describe('VersionsState, online', () => {
  it('shows the names the service gave even when the item was read again while they were asked for', async () => {
    const svc = await service();
    const online = tempDir('citewise-versions-online-');
    const onlineCore = await createCore({
      dataDir: online.path,
      mode: 'test',
      logger: silentLogger,
      serviceUrl: svc.url,
      apiKey: svc.fullKey,
      secrets: createMemorySecretStore(),
    });
    try {
      const pair = svc.corpus.db
        .prepare(
          'SELECT p.doi, p.published_doi, q.title FROM papers p JOIN papers q ON q.doi = p.published_doi ORDER BY p.id LIMIT 1',
        )
        .get() as { doi: string; published_doi: string; title: string };
      const onlineApi = createInProcessApi(onlineCore);
      const added = await onlineApi.invoke('library.addDois', { dois: [pair.doi] });
      if (!added.ok) throw new Error(added.error.message);
      const id = added.value.added[0]!.id;
      const state = new VersionsState(onlineApi);
      const first = state.load(id);
      // The stored links are shown and the service is being asked: the item is read again now (a save would).
      await until(() => state.versions !== null, 'the stored links');
      const second = state.load(id);
      await Promise.all([first, second]);
      await until(() => state.versions?.published[0]?.title === pair.title, 'the published version named');
      expect(state.versions?.published.map((v) => v.doi)).toEqual([pair.published_doi]);
    } finally {
      await onlineCore.close();
      await svc.close();
      online.remove();
    }
  });
});
