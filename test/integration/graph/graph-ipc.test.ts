// The citation graph through the IPC contract against the local service: seeding from library items,
// expanding both ways, paging a paper with more than 3,000 statements, the store answering when the
// service cannot be reached, saved graphs reopened from the library alone, and the exports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi, Result } from '../../../shared/ipc';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { DEFAULT_FILTER, type ExpandPage, type GraphEdge } from '../../../shared/model/graph';
import { tempDir } from '../../helpers/tmp';
import { serviceProxy, type ServiceProxy } from '../enrich/helpers';
import { service } from '../service-client/helpers';

let svc: Awaited<ReturnType<typeof service>>;
let proxy: ServiceProxy;
let dir: ReturnType<typeof tempDir>;
let core: Core;
let api: CitewiseApi;

function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** The paper with the most statements toward it (a landmark: more than 3,000), and a well-cited, well-referenced one. */
function corpusDois(): { landmark: string; landmarkCount: number; ordinary: string } {
  const db = svc.corpus.db;
  const top = db
    .prepare(
      'SELECT p.doi AS doi, count(*) AS n FROM citations c JOIN papers p ON p.id = c.target GROUP BY c.target ORDER BY n DESC LIMIT 1',
    )
    .get() as { doi: string; n: number };
  const ordinary = db
    .prepare(
      `SELECT p.doi AS doi FROM papers p WHERE (SELECT count(*) FROM citations c WHERE c.target = p.id) BETWEEN 20 AND 200
         AND (SELECT count(*) FROM citations c WHERE c.source = p.id) >= 5 ORDER BY p.id LIMIT 1`,
    )
    .pluck()
    .get() as string;
  return { landmark: top.doi, landmarkCount: top.n, ordinary };
}

beforeAll(async () => {
  svc = await service();
  proxy = await serviceProxy(() => svc.url);
  dir = tempDir();
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    serviceUrl: proxy.url,
    apiKey: svc.fullKey,
    secrets: createMemorySecretStore(),
    service: { attemptTimeoutMs: 2000, deadlineMs: 3000, maxAttempts: 1, backoffInitialMs: 10 },
  });
  api = createInProcessApi(core);
}, 60_000);
afterAll(async () => {
  await core?.close();
  await proxy?.close();
  await svc?.close();
  dir?.remove();
});

describe('citation graph over IPC', () => {
  it('seeds from library items, expands citations and references, and keeps them for offline use', async () => {
    const { ordinary } = corpusDois();
    const added = value(await api.invoke('library.addDois', { dois: [ordinary] }));
    const id = added.added[0]!.id;
    const seed = value(await api.invoke('graph.seed', { seed: { kind: 'items', ids: [id] } }));
    expect(seed.seedDois).toEqual([ordinary.toLowerCase()]);
    expect(seed.data.nodes[0]).toMatchObject({ doi: ordinary.toLowerCase(), itemId: id });

    const citing = value(await api.invoke('graph.expand', { doi: ordinary, direction: 'citing' }));
    expect(citing.fromStore).toBe(false);
    expect(citing.nextOffset).toBeNull();
    const incoming = citing.data.edges;
    expect(incoming.length).toBeGreaterThan(0);
    expect(incoming.every((e) => e.target === ordinary.toLowerCase())).toBe(true);
    expect(incoming.reduce((n, e) => n + e.statements.length, 0)).toBe(citing.total);
    // Citing papers come with their metadata (from the same answer).
    const citingNode = citing.data.nodes.find((n) => n.doi === incoming[0]!.source)!;
    expect(citingNode.title).toBeTruthy();
    expect(citingNode.year).toBeGreaterThan(1900);
    expect(citing.histogram && Object.keys(citing.histogram).length).toBeGreaterThan(0);

    const refs = value(await api.invoke('graph.expand', { doi: ordinary, direction: 'references' }));
    expect(refs.data.edges.length).toBeGreaterThan(0);
    expect(refs.data.edges.every((e) => e.source === ordinary.toLowerCase())).toBe(true);

    // The service goes away: the same expansions come from the library, and say so.
    proxy.offline = true;
    try {
      const again = value(await api.invoke('graph.expand', { doi: ordinary, direction: 'citing' }));
      expect(again.fromStore).toBe(true);
      expect(again.offlineReason).toBeTruthy();
      expect(again.data.edges.map((e) => e.source).sort()).toEqual(incoming.map((e) => e.source).sort());
      // Never fetched: a clear error, not an empty graph.
      const never = await api.invoke('graph.expand', { doi: citingNode.doi, direction: 'references' });
      expect(never.ok).toBe(false);
      if (!never.ok) expect(never.error.message).toMatch(/Nothing is stored yet/);
    } finally {
      proxy.offline = false;
    }

    // Saved, then reopened with the service unreachable: the same papers and edges.
    const dois = [...new Set([...citing.data.nodes, ...refs.data.nodes].map((n) => n.doi))];
    const saved = value(
      await api.invoke('graph.save', {
        name: 'Ordinary paper',
        seed: { kind: 'items', ids: [id] },
        seedDois: seed.seedDois,
        dois,
      }),
    );
    expect(value(await api.invoke('graph.list', {})).map((g) => g.name)).toEqual(['Ordinary paper']);
    proxy.offline = true;
    try {
      const opened = value(await api.invoke('graph.open', { id: saved.id }));
      expect([...opened.graph.dois].sort()).toEqual([...dois].sort());
      // Saved without a layout (as before layouts were kept): none comes back.
      expect(opened.graph.positions).toBeNull();
      expect(opened.data.nodes).toHaveLength(dois.length);
      const key = (e: GraphEdge) => `${e.source}>${e.target}`;
      const opendEdges = new Set(opened.data.edges.map(key));
      for (const e of [...incoming, ...refs.data.edges]) expect(opendEdges.has(key(e))).toBe(true);
    } finally {
      proxy.offline = false;
    }

    // Saving the graph again updates it; another graph is refused that name unless it replaces it; a
    // blank name is refused at the boundary.
    const again = value(
      await api.invoke('graph.save', {
        name: 'Ordinary paper',
        seed: { kind: 'items', ids: [id] },
        seedDois: seed.seedDois,
        dois: dois.slice(0, 4),
        id: saved.id,
      }),
    );
    expect(again).toMatchObject({ id: saved.id, nodeCount: 4 });
    const clash = await api.invoke('graph.save', {
      name: 'ordinary PAPER',
      seed: { kind: 'items', ids: [id] },
      seedDois: seed.seedDois,
      dois: dois.slice(0, 3),
    });
    expect(clash.ok ? null : clash.error.code).toBe('CONFLICT');
    expect(value(await api.invoke('graph.open', { id: saved.id })).graph.dois).toHaveLength(4);
    // With its layout: the positions come back exactly; a position of a paper not in the graph is refused.
    const positions = Object.fromEntries(dois.slice(0, 4).map((d, i) => [d, { x: i * 10.123456789, y: 0.5 - i / 3 }]));
    value(
      await api.invoke('graph.save', {
        name: 'Ordinary paper',
        seed: { kind: 'items', ids: [id] },
        seedDois: seed.seedDois,
        dois: dois.slice(0, 4),
        positions,
        id: saved.id,
      }),
    );
    const laidOut = value(await api.invoke('graph.open', { id: saved.id })).graph;
    expect(laidOut.positions).toEqual(positions);
    expect(laidOut.dois).toHaveLength(4);
    const stray = await api.invoke('graph.save', {
      name: 'Ordinary paper',
      seed: { kind: 'items', ids: [id] },
      seedDois: seed.seedDois,
      dois: dois.slice(0, 3),
      positions,
      id: saved.id,
    });
    expect(stray.ok ? null : stray.error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/not a paper of the graph/),
    });
    const replaced = value(
      await api.invoke('graph.save', {
        name: 'ordinary PAPER',
        seed: { kind: 'items', ids: [id] },
        seedDois: seed.seedDois,
        dois: dois.slice(0, 3),
        replace: true,
      }),
    );
    expect(replaced.id).toBe(saved.id);
    expect(replaced.nodeCount).toBe(3);
    const blank = await api.invoke('graph.save', { name: '  ', seed: { kind: 'library' }, seedDois: [], dois });
    expect(blank.ok ? null : blank.error.code).toBe('INVALID_INPUT');
    value(await api.invoke('graph.delete', { id: saved.id }));
    expect(value(await api.invoke('graph.list', {}))).toEqual([]);
    const gone = await api.invoke('graph.open', { id: saved.id });
    expect(gone.ok ? null : gone.error.code).toBe('NOT_FOUND');

    // Exports: GraphML and GEXF of the papers and the edges among them; BibTeX with keys.
    const graphml = value(await api.invoke('graph.export', { dois, format: 'graphml', filter: DEFAULT_FILTER }));
    expect(graphml.content).toMatch(/^<\?xml/);
    expect((graphml.content.match(/<node /g) ?? []).length).toBe(dois.length);
    expect((graphml.content.match(/<edge /g) ?? []).length).toBe(graphml.edges);
    const contrastingOnly = value(
      await api.invoke('graph.export', { dois, format: 'gexf', filter: { ...DEFAULT_FILTER, types: ['contrasting'] } }),
    );
    expect(contrastingOnly.edges).toBeLessThan(graphml.edges!);
    const bib = value(await api.invoke('graph.export', { dois: dois.slice(0, 5), format: 'bibtex' }));
    expect((bib.content.match(/^@\w+\{/gm) ?? []).length).toBe(5);
    const keys = (bib.content.match(/^@\w+\{([^,]+),/gm) ?? []).map((l) => l.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
    expect(bib.content).toContain(`@article{${added.added[0]!.citationKey},`);
  });

  it('pages through a paper with more than 3,000 statements, a page at a time, resuming where it stopped', async () => {
    const { landmark, landmarkCount } = corpusDois();
    expect(landmarkCount).toBeGreaterThan(3000);
    let offset: number | null = 0;
    let pages = 0;
    let statements = 0;
    const sources = new Set<string>();
    while (offset !== null) {
      const page: ExpandPage = value(await api.invoke('graph.expand', { doi: landmark, direction: 'citing', offset }));
      expect(page.offset).toBe(offset);
      expect(page.total).toBe(landmarkCount);
      for (const e of page.data.edges) sources.add(e.source);
      statements += page.data.edges.reduce((n, e) => n + e.statements.length, 0);
      offset = page.nextOffset;
      pages++;
    }
    expect(pages).toBe(Math.ceil(landmarkCount / 1000));
    const stored = value(await api.invoke('graph.data', { dois: [landmark] }));
    expect(stored.nodes[0]!.citing).toMatchObject({ fetched: landmarkCount, total: landmarkCount });
    // A page's edges carry every statement of their pair stored so far, so the count can exceed the page's.
    expect(statements).toBeGreaterThanOrEqual(landmarkCount);
    const all = value(await api.invoke('graph.data', { dois: [landmark, ...sources] }));
    expect(
      all.edges.filter((e) => e.target === landmark.toLowerCase()).reduce((n, e) => n + e.statements.length, 0),
    ).toBe(landmarkCount);
  });

  it('refuses bad input at the boundary with what and where', async () => {
    const bad = await api.invoke('graph.expand', { doi: 'not a doi', direction: 'citing' });
    expect(bad.ok ? null : bad.error.code).toBe('INVALID_INPUT');
    const wrong = await api.invoke('graph.expand', { doi: '10.1000/x', direction: 'sideways' } as never);
    expect(wrong.ok ? null : wrong.error.code).toBe('INVALID_INPUT');
    const extra = await api.invoke('graph.seed', { seed: { kind: 'library' }, more: 1 } as never);
    expect(extra.ok ? null : extra.error.code).toBe('INVALID_INPUT');
  });
});
