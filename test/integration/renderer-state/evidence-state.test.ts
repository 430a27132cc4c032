// The Evidence pane's state (renderer/src/panes/evidence/evidence.svelte.ts) in Node against a real
// in-process core and the local test service: searches (the last one asked wins), filters refused
// with a reason, MAUDE's facets and their limit, saving a record with its Undo, and what a key
// without the scope, or no service at all, leaves on screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidenceState, MAX_FACETS } from '../../../renderer/src/panes/evidence/evidence.svelte';
import { coreForTests, offlineCore, onlineCore, until } from './helpers';

describe('EvidenceState against the test service', () => {
  let state: EvidenceState;
  let stop: () => void;

  const env = coreForTests(() => onlineCore('evidence'));

  beforeAll(async () => {
    state = new EvidenceState(env.net.api);
    stop = state.start();
  });

  afterAll(async () => {
    stop?.();
  });

  it('searches a dataset, and shows the answer of the last search asked when two overlap', async () => {
    state.showDataset('maude');
    await until(() => state.schema !== null, 'the MAUDE schema');
    state.setQuery({ q: 'pump' });
    const release = env.net.hold('service.evidence.search');
    const first = state.search();
    expect(state.loading).toBe(true);
    state.setQuery({ q: 'occlusion' });
    await state.search();
    expect(state.loading).toBe(false);
    // The first search's answer arrives last: it is dropped.
    release();
    await first;
    expect(state.error).toBeNull();
    expect(state.searched).toEqual({ q: 'occlusion', filter: '', page: 1 });
    expect(state.results).not.toBeNull();
  });

  it('refuses a filter on a field the schema does not list, a repeated one, and a broken filter string, changing nothing', async () => {
    const field = state.filterableFields[0]!;
    expect(state.addFilter({ field: 'no_such_field', value: 'x' })).toBe(
      '"no_such_field" is not one of this dataset\'s filterable fields.',
    );
    expect(state.addFilter({ field, value: '  x  ' })).toBeNull();
    expect(state.query.filters).toEqual([{ field, value: 'x' }]);
    expect(state.addFilter({ field, value: 'x' })).toBe(`${field}:"x" is already a filter.`);
    expect(state.setFilterString('no_such_field:"y"')).toMatch(/is not one of this dataset's filterable fields/);
    expect(state.query.filters).toEqual([{ field, value: 'x' }]);
    state.removeFilter(0);
    expect(state.query.filters).toEqual([]);
  });

  it('charts facets of the last MAUDE search, at most six fields, and filters by a bar', async () => {
    await state.search(1);
    await until(() => !state.facetsLoading && state.facets !== null, 'the facets');
    expect(state.facetsError).toBeNull();
    const fields = state.filterableFields;
    expect(fields.length).toBeGreaterThan(MAX_FACETS);
    state.setFacetFields(fields.slice(0, MAX_FACETS));
    expect(state.facetFields).toHaveLength(MAX_FACETS);
    state.setFacetFields(fields.slice(0, MAX_FACETS + 1));
    expect(state.facetFields).toEqual(fields.slice(0, MAX_FACETS));
    await until(
      () => !state.facetsLoading && Object.keys(state.facets?.fields ?? {}).length === MAX_FACETS,
      'six charted fields',
    );

    const [field, buckets] = Object.entries(state.facets!.fields).find(([, b]) => b.length > 0)!;
    await state.filterByFacet(field, buckets[0]!.key);
    expect(state.query.filters).toEqual([{ field, value: buckets[0]!.key }]);
    expect(state.searched?.filter).toBe(state.filterString);
    expect(state.error).toBeNull();
    state.setQuery({ filters: [] });
  });

  it('saves an opened record to the library, offers its Undo while it is the last change, and takes it back', async () => {
    state.showDataset('grants');
    state.setQuery({ q: '' });
    await state.search(1);
    expect(state.results?.results.length).toBeGreaterThan(1);
    await state.open(0);
    expect(state.detailLoading).toBe(false);
    expect(state.detailError).toBeNull();
    expect(state.detail).not.toBeNull();
    const saved = await state.save();
    expect(state.saveError).toBeNull();
    expect(saved?.alreadySaved).toBe(false);
    await until(() => state.canUndoSave, 'the Undo offer');

    await state.undoSave();
    expect(state.undone).toBe(saved!.citationKey);
    const item = await env.t.api.invoke('library.item.get', { id: saved!.id });
    expect(item.ok && item.value.trashedAt).not.toBeNull();

    // Saved again, then another change comes after it: the Undo is withdrawn and does nothing.
    const again = await state.save();
    await until(() => state.canUndoSave, 'the second offer');
    await env.t.api.invoke('library.tags.add', { ids: [again!.id], tags: ['later'] });
    await until(() => !state.canUndoSave, 'the offer to go');
    await state.undoSave();
    const kept = await env.t.api.invoke('library.item.get', { id: again!.id });
    expect(kept.ok && kept.value.trashedAt).toBeNull();
  });

  it('opens the last record asked for when two are opened in quick succession', async () => {
    const release = env.net.hold('service.evidence.record');
    const a = state.open(0);
    await state.open(1);
    const shown = state.detail;
    release();
    await a;
    expect(state.selected?.index).toBe(1);
    expect(state.detail).toBe(shown);
    expect(state.detailLoading).toBe(false);
  });
});

describe('EvidenceState without access', () => {
  it("says a key without the dataset's scope is refused, and clears the spinner", async () => {
    const t = await onlineCore('evidence-public', { key: (svc) => svc.publicKey });
    try {
      const state = new EvidenceState(t.api);
      state.setQuery({ q: 'battery' });
      await state.search();
      expect(state.loading).toBe(false);
      expect(state.accessError?.code).toBe('FORBIDDEN');
    } finally {
      await t.close();
    }
  });

  it('keeps the offline answer as its error, and clears the spinner', async () => {
    const t = await offlineCore('evidence-offline');
    try {
      const state = new EvidenceState(t.api);
      await state.search();
      expect(state.loading).toBe(false);
      expect(state.error?.code).toBe('OFFLINE');
      expect(state.accessError).toBeNull();
    } finally {
      await t.close();
    }
  });
});
