// The Collections tab and the Paper search tab (renderer/src/panes/collections/{collections,
// paper-search}.svelte.ts) in Node against a real in-process core and the local test service: the
// form's problems before anything is asked, create/open/import/refresh/remove, a key without the
// scope, paging with the last page asked winning, and adding hits to the library.
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_LIMIT } from '../../../shared/model/paper-query';
import { CollectionsState, explainError } from '../../../renderer/src/panes/collections/collections.svelte';
import { PaperSearchState, SEARCH_PAGE } from '../../../renderer/src/panes/collections/paper-search.svelte';
import { coreForTests, corpusDois, enrichmentSettled, offlineCore, onlineCore } from './helpers';

let itemIds: number[];

const env = coreForTests(() => onlineCore('collections'));

beforeAll(async () => {
  const added = await env.t.api.invoke('library.addDois', { dois: corpusDois(env.t.svc, 4) });
  if (!added.ok) throw new Error(added.error.message);
  itemIds = added.value.added.map((a) => a.id);
  await enrichmentSettled(env.t.api);
});

/** A long word of the first (or last) paper's title: a search term the corpus surely matches. */
function term(order: 'ASC' | 'DESC' = 'ASC'): string {
  const { title } = env.t.svc.corpus.db.prepare(`SELECT title FROM papers ORDER BY id ${order} LIMIT 1`).get() as {
    title: string;
  };
  return title
    .split(/\W+/)
    .filter((w) => w.length > 5)
    .at(order === 'ASC' ? 0 : -1)!;
}

describe('CollectionsState', () => {
  it('lists every problem of the form without asking the service', async () => {
    const state = new CollectionsState(env.t.api);
    state.startCreate();
    state.source = 'selection';
    await state.create(async () => []);
    expect(state.problems.map((p) => p.field)).toEqual(['name', 'selection']);
    state.name = 'From a query';
    state.source = 'query';
    await state.create(async () => itemIds);
    expect(state.problems.map((p) => p.field)).toEqual(['term']);
    state.form.term = term();
    state.form.limit = String(MAX_QUERY_LIMIT + 1);
    await state.create(async () => itemIds);
    expect(state.problems).toEqual([{ field: 'limit', message: 'Papers to take: between 1 and 10,000.' }]);
    expect(state.busy).toBeNull();
    expect(state.current).toBeNull();
  });

  it('creates from the selection and from a query, opens the one asked last, imports, refreshes and removes', async () => {
    const state = new CollectionsState(env.net.api);
    state.startCreate();
    state.name = '  Selected  ';
    state.source = 'selection';
    await state.create(async () => itemIds);
    expect(state.error).toBeNull();
    expect(state.busy).toBeNull();
    expect(state.creating).toBe(false);
    expect(state.name).toBe('');
    const selected = state.current!;
    expect(selected.name).toBe('Selected');
    expect(selected.matched).toBe(itemIds.length);

    state.startCreate();
    state.name = 'Queried';
    state.source = 'query';
    state.form.term = term();
    state.form.limit = String(MAX_QUERY_LIMIT);
    await state.create(async () => []);
    expect(state.problems).toEqual([]);
    expect(state.error).toBeNull();
    const queried = state.current!;
    expect(state.list.map((c) => c.name).sort()).toEqual(['Queried', 'Selected']);

    const release = env.net.hold('collections.get');
    const slow = state.open(selected.id);
    await state.open(queried.id);
    release();
    await slow;
    expect(state.current?.id).toBe(queried.id);

    await state.importPapers(false);
    expect(state.error).toBeNull();
    expect(state.busy).toBeNull();
    expect(state.report!.added.length + state.report!.duplicates.length + state.report!.queued.length).toBeGreaterThan(
      0,
    );
    await enrichmentSettled(env.t.api);

    await state.refresh();
    expect(state.error).toBeNull();
    expect(state.current?.id).toBe(queried.id);

    await state.remove();
    expect(state.current).toBeNull();
    expect(state.list.map((c) => c.name)).toEqual(['Selected']);
  });

  it('says a key without collections access is refused, and clears busy', async () => {
    const pub = await onlineCore('collections-public', { key: (svc) => svc.publicKey });
    try {
      const state = new CollectionsState(pub.api);
      state.name = 'Nope';
      state.source = 'query';
      state.form.term = 'sleep';
      await state.create(async () => []);
      expect(state.busy).toBeNull();
      expect(state.creating).toBe(false); // never started: the form stays as it was
      expect(state.error?.code).toBe('FORBIDDEN');
      const said = explainError(state.error!, 'collections');
      expect(said.access).toBe(true);
      expect(said.title).toBe('Your API key does not include collections access');
    } finally {
      await pub.close();
    }
  });
});

describe('PaperSearchState', () => {
  it('refuses a query without criteria, and shows the problem beside the term', async () => {
    const state = new PaperSearchState(env.t.api);
    await state.search();
    expect(state.problems.map((p) => p.field)).toEqual(['term']);
    expect(state.showFilters).toBe(false);
    state.form.dateFrom = 'not a date';
    await state.search();
    expect(state.problems.map((p) => p.field)).toContain('dateFrom');
    expect(state.showFilters).toBe(true);
    expect(state.results).toBeNull();
  });

  it('pages through the hits, and shows the page asked for last when an earlier answer comes later', async () => {
    const state = new PaperSearchState(env.net.api);
    state.form.term = term();
    await state.search();
    expect(state.error).toBeNull();
    expect(state.results!.hits.length).toBe(SEARCH_PAGE);
    expect(state.hasNext).toBe(true);

    const release = env.net.hold('service.search');
    const slow = state.page(0);
    await state.page(SEARCH_PAGE);
    expect(state.offset).toBe(SEARCH_PAGE);
    release();
    await slow;
    expect(state.offset).toBe(SEARCH_PAGE);
    expect(state.loading).toBe(false);
  });

  it('adds hits to the library and marks them, once', async () => {
    const state = new PaperSearchState(env.t.api);
    // Not the term of the collection imported above: its papers are all in the library already.
    state.form.term = term('DESC');
    expect(state.form.term).not.toBe(term());
    await state.search();
    const dois = state
      .results!.hits.map((h) => h.doi!)
      .filter((d) => !state.inLibrary.has(d.toLowerCase()))
      .slice(0, 2);
    expect(dois).toHaveLength(2);
    await state.add(dois);
    expect(state.error).toBeNull();
    expect(state.report?.added.length).toBe(2);
    expect(dois.every((d) => state.inLibrary.has(d.toLowerCase()))).toBe(true);
    expect(state.adding.size).toBe(0);
    await enrichmentSettled(env.t.api);
  });

  it('keeps the offline answer as its error and clears loading', async () => {
    const off = await offlineCore('paper-search-offline');
    try {
      const state = new PaperSearchState(off.api);
      state.form.term = 'sleep';
      await state.search();
      expect(state.loading).toBe(false);
      expect(state.error?.code).toBe('OFFLINE');
    } finally {
      await off.close();
    }
  });
});
