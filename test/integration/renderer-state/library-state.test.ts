// The Library pane's state classes (renderer/src/lib/state/*.svelte.ts, Svelte 5 runes compiled by the
// svelte plugin) in Node against a real in-process core with a library in a temporary folder: the
// rows a view lists, the search box, the selection and what acting on it does. No renderer, no mocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitewiseApi } from '../../../shared/ipc';
import { LibraryState } from '../../../renderer/src/lib/state/library.svelte';
import { RowCache } from '../../../renderer/src/lib/state/library-rows.svelte';
import { coreForTests, offlineCore, seed, until } from './helpers';

const BIB = `@article{doe2020, title = {Alpha paper}, author = {Doe, Jane}, year = 2020}
@article{roe2021, title = {Beta paper}, author = {Roe, Rick}, year = 2021}
@book{poe2019, title = {Gamma book}, author = {Poe, Paula}, year = 2019}
@article{doe2022, title = {Delta paper}, author = {Doe, John}, year = 2022}
@misc{kay2018, title = {Epsilon note}, author = {Kay, Kim}, year = 2018}
`;

// No service: nothing here needs it, and an unreachable one fails at once.
const env = coreForTests(() => offlineCore('state'));
let api: CitewiseApi;

function titles(rows: RowCache): string[] {
  return Array.from({ length: rows.count }, (_, i) => rows.row(i)?.title ?? '?').sort();
}

beforeAll(async () => {
  api = env.t.api;
  await seed(api, BIB);
});

describe('RowCache against the core', () => {
  it('lists every row of a where, and only the matching ones for a query', async () => {
    const rows = new RowCache(api);
    rows.load({}, { column: 'year', direction: 'asc' });
    await until(() => rows.counted && rows.row(rows.count - 1) !== undefined, 'all rows');
    expect(rows.count).toBe(5);
    expect(Array.from({ length: 5 }, (_, i) => rows.row(i)?.year)).toEqual([2018, 2019, 2020, 2021, 2022]);

    rows.load({ query: 'author:doe' }, { column: 'year', direction: 'asc' });
    expect(rows.count).toBe(0); // a new where starts over
    await until(() => rows.counted && rows.count > 0, 'the query rows');
    expect(titles(rows)).toEqual(['Alpha paper', 'Delta paper']);
    expect(rows.idsBetween(1, 0)).toHaveLength(2);
    expect((await rows.allIds()).length).toBe(2);
  });

  it("keeps the core's refusal of a where as its error", async () => {
    const rows = new RowCache(api);
    rows.load({ collectionId: 999_999 }, { column: 'year', direction: 'asc' });
    await until(() => rows.error !== null || rows.counted, 'an answer');
    // An unknown collection lists nothing; it is not an error to show.
    expect(rows.error).toBeNull();
    expect(rows.count).toBe(0);
  });
});

describe('LibraryState: views, search and selection against the core', () => {
  let state: LibraryState;
  let stop: () => void;

  beforeAll(async () => {
    state = new LibraryState(api);
    stop = state.start();
    await until(() => state.total === 5 && state.rows.counted && state.rowsCount() === 5, 'the first load');
  });

  afterAll(() => stop?.());

  it('loads the library and the sidebar counts', () => {
    expect(state.total).toBe(5);
    expect(state.trashed).toBe(0);
    expect(state.firstRun).toBe(false);
    expect(state.queryError).toBeNull();
  });

  it('searches at the first keystroke, and refuses a query the parser refuses without searching', async () => {
    state.setSearch('year:2020..2021');
    expect(state.appliedSearch).toBe('year:2020..2021');
    await until(() => state.rows.counted && state.rowsCount() === 2, 'the search rows');
    expect(titles(state.rows)).toEqual(['Alpha paper', 'Beta paper']);

    state.setSearch('title:(');
    expect(state.queryError).not.toBeNull();
    // The table still shows the last good search.
    expect(state.appliedSearch).toBe('year:2020..2021');
    expect(state.rowsCount()).toBe(2);

    state.setSearch('');
    expect(state.queryError).toBeNull();
  });

  it('selects one, a Shift range and all, and reads the ids the selection stands for', async () => {
    await new Promise((r) => setTimeout(r, 150)); // past the debounce: the next search applies at once
    state.setSearch('');
    await until(() => state.appliedSearch === '' && state.rows.counted && state.rowsCount() === 5, 'all rows again');
    const between = (a: number, b: number) => state.rows.idsBetween(a, b);
    const id = (i: number) => state.rows.row(i)!.id;

    state.selection.pick(0, id(0), { range: false, toggle: false }, between);
    expect(state.selectedCount).toBe(1);
    expect(state.selection.single()).toBe(id(0));

    state.selection.pick(2, id(2), { range: true, toggle: false }, between);
    expect(state.selectedCount).toBe(3);
    expect((await state.selectedIds()).sort()).toEqual([id(0), id(1), id(2)].sort());
    expect(state.selection.single()).toBeNull();

    state.selection.pick(1, id(1), { range: false, toggle: true }, between);
    expect((await state.selectedIds()).sort()).toEqual([id(0), id(2)].sort());

    state.selection.selectAll();
    expect(state.selectedCount).toBe(5);
    expect((await state.selectedIds()).length).toBe(5);
  });

  it('trashes the selection: the core moves the items, the counts and the trash view follow', async () => {
    const between = (a: number, b: number) => state.rows.idsBetween(a, b);
    const kept = state.rows.row(0)!;
    const gone = state.rows.row(1)!;
    state.selection.pick(1, gone.id, { range: false, toggle: false }, between);
    await state.trashSelected();
    expect(state.error).toBeNull();
    expect(state.toast?.text).toBe('Moved 1 item to the Trash');
    expect(state.selectedCount).toBe(0);
    await until(() => state.total === 4 && state.trashed === 1 && state.rowsCount() === 4, 'the change to arrive');
    expect(titles(state.rows)).not.toContain(gone.title);

    state.show({ kind: 'trash' });
    await until(() => state.rows.counted && state.rowsCount() === 1, 'the trash');
    expect(state.rows.row(0)?.id).toBe(gone.id);
    // The core refuses trashing what is already in the trash view: the state does not ask.
    state.selection.selectAll();
    await state.trashSelected();
    expect(state.trashed).toBe(1);

    state.show({ kind: 'library' });
    await until(() => state.rows.counted && state.rowsCount() === 4, 'the library again');
    expect(titles(state.rows)).toContain(kept.title);
  });

  it('keeps a refusal from the core as its error until dismissed', async () => {
    expect(await state.createCollection('', null)).toBeNull();
    expect(state.error?.code).toBe('INVALID_INPUT');
    state.dismissError();
    expect(state.error).toBeNull();
  });
});
