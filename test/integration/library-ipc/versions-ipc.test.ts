// A preprint and its published version through the IPC contract, as the details column uses them: a
// real core against the local service. Adding the preprint by DOI caches its record, whose links name
// the published version; asking with `fetch` names it from the service; adding it links the item; the
// merge carries the preprint's tags and notes over. Inputs are checked at the boundary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi, Result } from '../../../shared/ipc';
import type { PaperVersions } from '../../../shared/model/paper-versions';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { tempDir } from '../../helpers/tmp';
import { withLibrary } from '../../../electron/cli/library-session';
import { recordingProxy, service } from '../service-client/helpers';

let svc: Awaited<ReturnType<typeof service>>;
let dir: ReturnType<typeof tempDir>;
let core: Core;
let api: CitewiseApi;
let pair: { doi: string; published_doi: string; title: string; year: number };

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

beforeAll(async () => {
  svc = await service();
  pair = svc.corpus.db
    .prepare(
      `SELECT p.doi, p.published_doi, q.title, q.year FROM papers p JOIN papers q ON q.doi = p.published_doi WHERE p.published_doi IS NOT NULL ORDER BY p.id LIMIT 1`,
    )
    .get() as typeof pair;
  dir = tempDir();
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    serviceUrl: svc.url,
    apiKey: svc.fullKey,
    secrets: createMemorySecretStore(),
  });
  api = createInProcessApi(core);
}, 60_000);
afterAll(async () => {
  await core?.close();
  await svc?.close();
  dir?.remove();
});

describe('library.item.versions', () => {
  it('names the published version of a preprint added by DOI, adds it and merges the preprint into it', async () => {
    const added = value(await api.invoke('library.addDois', { dois: [pair.doi] }));
    const pre = added.added[0]!.id;
    value(await api.invoke('library.tags.add', { ids: [pre], tags: ['to-read'] }));
    value(await api.invoke('library.notes.add', { itemId: pre, body: 'Read the methods.' }));

    // Offline by default: only what the cache holds (the preprint's record names the DOI, not the paper).
    const stored = value(await api.invoke('library.item.versions', { id: pre }));
    expect(stored).toEqual({
      doi: pair.doi,
      published: [
        {
          doi: pair.published_doi,
          itemId: null,
          citationKey: null,
          title: null,
          journal: null,
          year: null,
          trashed: false,
        },
      ],
      preprints: [],
    });

    const named = value(await api.invoke('library.item.versions', { id: pre, fetch: true }));
    expect(named.published).toEqual([
      expect.objectContaining({ doi: pair.published_doi, itemId: null, title: pair.title, year: pair.year }),
    ]);
    expect(named.published[0]!.journal).toEqual(expect.any(String));
    // Named once, it is stored: the next offline answer has it too.
    expect(value(await api.invoke('library.item.versions', { id: pre }))).toEqual(named);

    const pub = value(await api.invoke('library.addDois', { dois: [pair.published_doi] })).added[0]!.id;
    const linked = value(await api.invoke('library.item.versions', { id: pre }));
    expect(linked.published[0]).toMatchObject({ doi: pair.published_doi, itemId: pub });
    expect(value(await api.invoke('library.item.versions', { id: pub })).preprints).toEqual([
      expect.objectContaining({ doi: pair.doi, itemId: pre }),
    ]);

    const merged = value(await api.invoke('library.merge', { keepId: pub, otherIds: [pre] }));
    expect(merged.doi).toBe(pair.published_doi);
    expect(merged.tags).toEqual(['to-read']);
    expect(merged.notes.map((n) => n.text)).toEqual(['Read the methods.']);
    const after: PaperVersions = value(await api.invoke('library.item.versions', { id: pub }));
    expect(after.preprints).toEqual([expect.objectContaining({ doi: pair.doi, itemId: null })]);
    // One undo brings the preprint back.
    value(await api.invoke('library.undo', {}));
    expect(value(await api.invoke('library.item.versions', { id: pub })).preprints[0]!.itemId).toBe(pre);
  });

  it('refuses bad input with what and where', async () => {
    for (const input of [{ id: 0 }, { id: 1.5 }, { id: 1, fetch: 'yes' }, { id: 1, extra: true }, {}]) {
      const r = await api.invoke('library.item.versions', input as never);
      expect(r.ok, JSON.stringify(input)).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('INVALID_INPUT');
    }
    const missing = await api.invoke('library.item.versions', { id: 999_999 });
    expect(missing.ok ? null : missing.error.code).toBe('NOT_FOUND');
  });
});

describe('library.item.versions with fetch, for a linked paper the service does not know', () => {
  it('asks once, then shows the DOI alone without asking again at every showing', async () => {
    const seeded = tempDir();
    const proxy = await recordingProxy(svc.url);
    const unknownPub = '10.9999/never-published-here';
    try {
      await withLibrary(seeded.path, async (client) => {
        await client.lib.addItem({
          id: 'p',
          type: 'article',
          title: 'A lonely preprint',
          DOI: '10.1101/2022.03.03.000003',
        });
        await client.serviceCache.putPapers({
          found: {
            '10.1101/2022.03.03.000003': { publicationLinks: [{ publishedDoi: unknownPub }], preprintLinks: [] },
          },
        });
      });
      const other = await createCore({
        dataDir: seeded.path,
        mode: 'test',
        logger: silentLogger,
        serviceUrl: proxy.url,
        apiKey: svc.fullKey,
        secrets: createMemorySecretStore(),
      });
      try {
        const otherApi = createInProcessApi(other);
        const id = value(await otherApi.invoke('library.list', { limit: 1 })).rows[0]!.id;
        const asks = () => proxy.arrivals.filter((a) => a.path === '/papers').length;
        const expected = {
          doi: '10.1101/2022.03.03.000003',
          published: [
            {
              doi: unknownPub,
              itemId: null,
              citationKey: null,
              title: null,
              journal: null,
              year: null,
              trashed: false,
            },
          ],
          preprints: [],
        };
        expect(value(await otherApi.invoke('library.item.versions', { id, fetch: true }))).toEqual(expected);
        expect(asks()).toBe(1);
        expect(value(await otherApi.invoke('library.item.versions', { id, fetch: true }))).toEqual(expected);
        expect(asks()).toBe(1);
      } finally {
        await other.close();
      }
    } finally {
      await proxy.close();
      seeded.remove();
    }
  });
});
