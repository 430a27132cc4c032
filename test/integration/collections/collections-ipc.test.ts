// The collections feature through IPC, against the local service: collections made from library
// items, a library collection and a query, with what the boundary refuses; the kept copy (list, get,
// refresh, offline); importing and filing; a key without Collections access; author pages.
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import type { CitewiseApi, LibraryChange } from '../../../shared/ipc';
import { tempDir } from '../../helpers/tmp';
import { sampleDois, service } from '../service-client/helpers';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function makeCore(serviceUrl: string, apiKey: string): Promise<{ core: Core; api: CitewiseApi }> {
  const dir = tempDir();
  const core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    serviceUrl,
    apiKey,
    service: { maxAttempts: 1 },
  });
  cleanup.push(
    () => dir.remove(),
    () => core.close(),
  );
  return { core, api: createInProcessApi(core) };
}

async function value<T>(
  p: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>,
): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('collections over IPC', () => {
  it('makes collections from items and from a library collection, keeps them, and refuses what cannot become one', async () => {
    const svc = await service({ papers: 300 });
    cleanup.push(() => svc.close());
    const { core, api } = await makeCore(svc.url, svc.fullKey);
    const known = sampleDois(svc, 4);
    const unknown = '10.5555/not-on-the-service.1';
    const { ids } = await core.library.importItems([
      ...known.map((doi, i) => ({ id: `k${i}`, type: 'article-journal' as const, title: `Known ${i}`, DOI: doi })),
      { id: 'u', type: 'article-journal', title: 'Unknown', DOI: unknown },
      { id: 'n', type: 'book', title: 'No DOI' },
    ]);

    const fromItems = await value(
      api.invoke('collections.create', {
        name: 'Chapter 2',
        description: 'What chapter 2 cites',
        source: { kind: 'items', ids },
      }),
    );
    expect(fromItems).toMatchObject({
      name: 'Chapter 2',
      matched: 4,
      unmatched: 1,
      total: 5,
      origin: { kind: 'items', dois: 5 },
    });
    expect(fromItems.warning).toMatch(/could not be matched/);
    expect(fromItems.collection.unmatchedDois).toEqual([unknown]);
    expect(new Set(fromItems.inLibrary)).toEqual(new Set(known));

    const libCol = await value(api.invoke('library.collections.create', { name: 'Thesis' }));
    const sub = await value(api.invoke('library.collections.create', { name: 'Methods', parentId: libCol.id }));
    await value(api.invoke('library.collections.addItems', { collectionId: libCol.id, ids: [ids[0]!] }));
    await value(api.invoke('library.collections.addItems', { collectionId: sub.id, ids: [ids[1]!, ids[5]!] }));
    const fromCollection = await value(
      api.invoke('collections.create', { name: 'Thesis on scite', source: { kind: 'collection', id: libCol.id } }),
    );
    expect(fromCollection).toMatchObject({
      matched: 2,
      unmatched: 0,
      origin: { kind: 'collection', collectionId: libCol.id, collectionName: 'Thesis', dois: 2 },
    });

    // Refused before anything is sent, with what and where.
    const noDoi = await api.invoke('collections.create', { name: 'Books', source: { kind: 'items', ids: [ids[5]!] } });
    expect(noDoi).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: 'The selected item has no DOI; a service collection is made of DOIs.' },
    });
    const empty = await value(api.invoke('library.collections.create', { name: 'Empty' }));
    expect(
      await api.invoke('collections.create', { name: 'E', source: { kind: 'collection', id: empty.id } }),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: 'The collection “Empty” is empty.' } });
    const reversed = await api.invoke('collections.create', {
      name: 'Q',
      source: { kind: 'query', query: { term: 'x', supportingFrom: 5, supportingTo: 1 } },
    });
    expect(reversed).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(reversed)).toContain('the lower bound (5) is above the upper bound (1)');
    expect(
      await api.invoke('collections.create', {
        name: 'Q',
        source: { kind: 'query', query: { term: 'x', dois: ['10.1/a'] } as never },
      }),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await api.invoke('collections.create', { name: '  ', source: { kind: 'items', ids } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });

    const list = await value(api.invoke('collections.list', {}));
    expect(list.map((c) => c.name)).toEqual(['Thesis on scite', 'Chapter 2']);
    expect(list[1]).not.toHaveProperty('collection');
    expect(await api.invoke('collections.get', { id: 999 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('makes a collection of a query, imports its papers filed in a library collection, refreshes it, and keeps the copy offline', async () => {
    const svc = await service({ papers: 300 });
    const { core, api } = await makeCore(svc.url, svc.fullKey);
    const changes: LibraryChange[] = [];
    cleanup.push(api.on('library.changed', (c) => changes.push(c)));
    const jobLabels = new Set<string>();
    cleanup.push(api.on('jobs.changed', (list) => list.forEach((j) => jobLabels.add(`${j.label}: ${j.state}`))));
    const made = await value(
      api.invoke('collections.create', {
        name: 'Recent and cited',
        source: { kind: 'query', query: { dateFrom: '2015', hasTally: true, sort: 'total_cited', limit: 7 } },
      }),
    );
    expect(made).toMatchObject({
      matched: 7,
      unmatched: 0,
      inLibrary: [],
      origin: { kind: 'query', query: { dateFrom: '2015', hasTally: true, sort: 'total_cited', limit: 7 } },
    });
    const dois = made.collection.doiQuery!.query!.dois!;

    const report = await value(api.invoke('collections.import', { id: made.id }));
    expect(report.added.map((a) => a.doi).sort()).toEqual([...dois].sort());
    expect(report.collection).toMatchObject({ name: 'Recent and cited' });
    // It ran as a job, shown in the status bar with Cancel.
    await new Promise((r) => setTimeout(r, 300));
    expect([...jobLabels]).toContain('Import “Recent and cited” (7 papers): done');
    expect(changes.some((c) => c.kind === 'items') && changes.some((c) => c.kind === 'collections')).toBe(true);
    const filed = (await value(api.invoke('library.collections.list', {}))).find((c) => c.name === 'Recent and cited')!;
    expect(filed.itemCount).toBe(7);
    // Again: nothing new, and the same library collection.
    const again = await value(api.invoke('collections.import', { id: made.id }));
    expect(again).toMatchObject({ added: [], collection: { id: filed.id } });
    expect(again.duplicates).toHaveLength(7);
    expect((await value(api.invoke('collections.get', { id: made.id }))).inLibrary).toHaveLength(7);

    const before = made.fetchedAt;
    await new Promise((r) => setTimeout(r, 5));
    const refreshed = await value(api.invoke('collections.refresh', { id: made.id }));
    expect(refreshed.fetchedAt).toBeGreaterThan(before);
    expect(refreshed.problem).toBeUndefined();

    await svc.close();
    const offline = await value(api.invoke('collections.refresh', { id: made.id }));
    expect(offline.problem?.code).toBe('OFFLINE');
    expect(offline).toMatchObject({ matched: 7, fetchedAt: refreshed.fetchedAt });
    expect((await value(api.invoke('collections.get', { id: made.id }))).matched).toBe(7);
    void core;
  });

  it('tells a key without Collections access so, and keeps nothing; author pages still work with it', async () => {
    const svc = await service({ papers: 300 });
    cleanup.push(() => svc.close());
    const { api } = await makeCore(svc.url, svc.publicKey);
    const denied = await api.invoke('collections.create', {
      name: 'No',
      source: { kind: 'query', query: { term: 'cells' } },
    });
    expect(denied).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: expect.stringMatching(/does not include access to/) },
    });
    expect(await value(api.invoke('collections.list', {}))).toEqual([]);

    const slug = svc.corpus.db
      .prepare(
        'SELECT a.slug FROM authors a JOIN paper_authors pa ON pa.author_id = a.id GROUP BY a.id HAVING count(*) > 12 LIMIT 1',
      )
      .pluck()
      .get() as string;
    const first = await value(api.invoke('authors.page', { slug, limit: 5 }));
    expect(first.papers).toHaveLength(5);
    expect(first.next).toEqual({ offset: 5, limit: 5 });
    const second = await value(api.invoke('authors.page', { slug, offset: first.next!.offset, limit: 5 }));
    expect(second.offset).toBe(5);
    expect(second.papers.map((p) => p.doi)).not.toContain(first.papers[0]!.doi);
    expect(await api.invoke('authors.page', { slug: 'nobody-at-all-xyz' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });
});
