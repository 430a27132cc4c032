// The citation graph's state (renderer/src/panes/graph/graph-state.svelte.ts) in Node against a real
// in-process core and the local test service, with its real layout worker in a thread: a seed laid
// out, a page of citations, a page answered after the graph was replaced (dropped), filters, search
// and selection, adding to the library, saving and opening with the layout kept, export, and busy
// kept until the last of two overlapping requests has answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphState } from '../../../renderer/src/panes/graph/graph-state.svelte';
import { coreForTests, corpusDois, enrichmentSettled, offlineCore, onlineCore, until } from './helpers';
import { installWebWorker } from './web-worker';

const env = coreForTests(() => onlineCore('graph'));
let state: GraphState;
let uninstall: () => void;
let seedDoi: string;
let otherDoi: string;

beforeAll(async () => {
  uninstall = installWebWorker();
  state = new GraphState(env.net.api);
  // Papers cited by more than one page of statements, so the citing side pages.
  const [a, b] = corpusDois(env.t.svc, 2, '(SELECT count(*) FROM citations c WHERE c.target = papers.id) > 30');
  seedDoi = a!;
  otherDoi = b!;
});

afterAll(async () => {
  state?.dispose();
  uninstall?.();
});

describe('GraphState against the test service', () => {
  it('starts from a seed, selects it, and lays the graph out in the worker', async () => {
    const starting = state.start({ kind: 'dois', dois: [seedDoi] });
    expect(state.busy).toBe('seed');
    await starting;
    expect(state.busy).toBe('');
    expect(state.error).toBeNull();
    expect(state.seedDois).toEqual([seedDoi]);
    expect(state.selected).toEqual([seedDoi]);
    expect(state.nodeCount()).toBeGreaterThan(0);
    expect(state.layoutInfo.running).toBe(true);
    await until(() => !state.layoutInfo.running, 'the layout to finish');
    expect(state.layoutInfo.iteration).toBeGreaterThan(0);
    expect(state.graph.getNodeAttributes(seedDoi).x).toEqual(expect.any(Number));
  });

  it('adds a page of citations and remembers where the next one starts', async () => {
    const before = state.nodeCount();
    expect(await state.expand(seedDoi, 'citing')).toBe(true);
    expect(state.busy).toBe('');
    const paging = state.paging[`citing:${seedDoi}`]!;
    expect(paging.total).toBeGreaterThan(0);
    expect(state.nodeCount()).toBeGreaterThan(before);
    expect(state.edgeCount()).toBeGreaterThan(0);
  });

  it('filters by year, finds papers by text, and selects one or several', async () => {
    const all = state.visibleCount().nodes;
    const { min, max } = state.yearRange()!;
    state.setFilter({ yearFrom: max + 1 });
    expect(state.visibleCount().nodes).toBe(0);
    state.setFilter({ yearFrom: max, yearTo: max });
    expect(state.visibleCount().nodes).toBeGreaterThan(0);
    state.setFilter({ yearFrom: min, yearTo: max });
    expect(state.visibleCount().nodes).toBeGreaterThan(0);
    state.setFilter({ yearFrom: null, yearTo: null });
    expect(state.visibleCount().nodes).toBe(all);

    const node = state.node(seedDoi)!;
    state.setSearch(seedDoi.toUpperCase());
    expect(state.searchResults().map((n) => n.doi)).toEqual([node.doi]);
    state.setSearch('   ');
    expect(state.searchResults()).toEqual([]);

    state.select(null);
    state.select(seedDoi, true);
    state.select(otherDoi, true);
    state.select(seedDoi, true);
    expect(state.selected).toEqual([otherDoi]);
  });

  it('adds papers to the library and marks them', async () => {
    await state.addToLibrary([seedDoi]);
    expect(state.busy).toBe('');
    expect(state.error).toBeNull();
    expect(state.notice).toMatch(/^Added “.+” to the library\.$/);
    expect(state.graph.getNodeAttributes(seedDoi).inLibrary).toBe(true);
    await enrichmentSettled(env.t.api);
  });

  it('saves with the layout, opens it again as it was, and exports the visible papers', async () => {
    await until(() => !state.layoutInfo.running, 'the layout of the expansion to finish');
    expect(await state.save('Dreams')).toBe(true);
    expect(state.savedName).toBe('Dreams');
    expect(state.saved.map((g) => g.name)).toEqual(['Dreams']);
    const id = state.saved[0]!.id;
    const nodes = state.nodeCount();
    const at = { ...state.graph.getNodeAttributes(seedDoi) };

    state.clear();
    expect(state.isEmpty).toBe(true);
    expect(await state.exportData('csljson')).toBeNull(); // nothing visible, nothing to write
    await state.open(id);
    expect(state.busy).toBe('');
    expect(state.nodeCount()).toBe(nodes);
    expect(state.notice).toMatch(/^Opened “Dreams”/);
    expect(state.layoutInfo.running).toBe(false); // every paper had its place: no layout
    expect(state.graph.getNodeAttributes(seedDoi).x).toBeCloseTo(at.x, 3);

    const out = await state.exportData('csljson');
    expect(out?.nodes).toBe(state.visibleCount().nodes);
    expect(JSON.parse(out!.content)).toHaveLength(out!.nodes);

    // Saving again updates the same saved graph.
    expect(await state.save('Dreams')).toBe(true);
    expect(state.saved).toHaveLength(1);
    await state.deleteSaved(id);
    expect(state.saved).toEqual([]);
  });

  it('drops a page answered after the graph was replaced', async () => {
    const release = env.net.hold('graph.expand');
    const late = state.expand(seedDoi, 'citing');
    await state.start({ kind: 'dois', dois: [otherDoi] });
    const shown = state.nodeCount();
    release();
    expect(await late).toBe(false);
    expect(state.nodeCount()).toBe(shown);
    expect(state.seedDois).toEqual([otherDoi]);
  });

  it('stays busy until the last of two overlapping requests has answered', async () => {
    const graph = new GraphState(env.net.api);
    try {
      await graph.start({ kind: 'dois', dois: [seedDoi] });
      const releasePage = env.net.hold('graph.expand');
      const page = graph.expand(seedDoi, 'citing');
      expect(graph.busy).toBe(`citing:${seedDoi}`);
      const releaseSeed = env.net.hold('graph.seed');
      const starting = graph.start({ kind: 'dois', dois: [otherDoi] });
      expect(graph.busy).toBe('seed');
      releasePage();
      await page;
      // The page is in, the new seed's graph is not: still busy with it.
      expect(graph.seedDois).toEqual([seedDoi]);
      expect(graph.busy).toBe('seed');
      releaseSeed();
      await starting;
      expect(graph.seedDois).toEqual([otherDoi]);
      expect(graph.busy).toBe('');

      // The other way round: the seed answers first, the page it outlived is still on its way.
      const releaseLate = env.net.hold('graph.expand');
      const late = graph.expand(otherDoi, 'citing');
      await graph.start({ kind: 'dois', dois: [seedDoi] });
      expect(graph.busy).toBe(`citing:${otherDoi}`);
      releaseLate();
      expect(await late).toBe(false);
      expect(graph.busy).toBe('');
    } finally {
      graph.dispose();
    }
  });
});

describe('GraphState without the service', () => {
  it('says why the seed could not be drawn, and clears busy', async () => {
    const off = await offlineCore('graph-offline');
    const offline = new GraphState(off.api);
    try {
      await offline.start({ kind: 'items', ids: [] });
      expect(offline.busy).toBe('');
      expect(offline.error).not.toBeNull();
      expect(offline.isEmpty).toBe(true);
    } finally {
      offline.dispose();
      await off.close();
    }
  });
});
