// The Library's layout preferences (renderer/src/lib/state/{library-columns,library-panes}.svelte.ts):
// columns shown, ordered and sized, and the side panes' widths, clamped at both bounds, and kept in
// the library's settings through LibraryState so that another window on the same core adopts them.
import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMNS } from '../../../renderer/src/lib/library/columns';
import { MAX_COLUMN_PX, MIN_COLUMN_PX, MIN_TITLE_PX, PANE_BOUNDS } from '../../../renderer/src/lib/library/layout';
import type { LibraryLayout } from '../../../shared/ipc/settings';
import { ColumnPrefs } from '../../../renderer/src/lib/state/library-columns.svelte';
import { PanePrefs } from '../../../renderer/src/lib/state/library-panes.svelte';
import { LibraryState, sanitizeSort } from '../../../renderer/src/lib/state/library.svelte';
import { coreForTests, offlineCore, until } from './helpers';

describe('ColumnPrefs', () => {
  it('keeps at least one column, moves within bounds, and brings a column back at its default place', () => {
    const saved: LibraryLayout[] = [];
    const prefs = new ColumnPrefs((part) => saved.push(part));
    expect(prefs.ids).toEqual(DEFAULT_COLUMNS);
    prefs.toggle('year');
    expect(prefs.shown('year')).toBe(false);
    prefs.toggle('year');
    expect(prefs.ids).toEqual(DEFAULT_COLUMNS); // back between creators and container
    expect(saved.at(-1)).toEqual({ columns: [...DEFAULT_COLUMNS] });

    prefs.move('title', -1); // already first
    prefs.move('citing', 1); // already last
    expect(prefs.ids).toEqual(DEFAULT_COLUMNS);
    prefs.move('title', 1);
    expect(prefs.ids.slice(0, 2)).toEqual(['creators', 'title']);
    prefs.place('title', 'creators');
    expect(prefs.ids.slice(0, 2)).toEqual(['title', 'creators']);

    for (const id of DEFAULT_COLUMNS.slice(1)) prefs.toggle(id);
    expect(prefs.ids).toEqual(['title']);
    prefs.toggle('title'); // the last one stays
    expect(prefs.ids).toEqual(['title']);
    prefs.reset();
    expect(prefs.ids).toEqual(DEFAULT_COLUMNS);
  });

  it('clamps widths at both bounds, and saves only when the drag ends', () => {
    const saved: LibraryLayout[] = [];
    const prefs = new ColumnPrefs((part) => saved.push(part));
    prefs.resize('year', MIN_COLUMN_PX - 1, false);
    expect(prefs.width('year')).toBe(MIN_COLUMN_PX);
    expect(saved).toEqual([]);
    prefs.resize('year', MIN_COLUMN_PX + 1);
    expect(prefs.width('year')).toBe(MIN_COLUMN_PX + 1);
    expect(saved).toEqual([{ columnWidths: { year: MIN_COLUMN_PX + 1 } }]);
    prefs.resize('title', MIN_TITLE_PX - 1);
    expect(prefs.width('title')).toBe(MIN_TITLE_PX);
    prefs.resize('title', MAX_COLUMN_PX + 1);
    expect(prefs.width('title')).toBe(MAX_COLUMN_PX);
    prefs.resize('title', MAX_COLUMN_PX - 1);
    expect(prefs.width('title')).toBe(MAX_COLUMN_PX - 1);
    expect(prefs.template).toMatch(new RegExp(`^minmax\\(${MAX_COLUMN_PX - 1}px`));
  });
});

describe('PanePrefs', () => {
  it('clamps each pane at both bounds', () => {
    const prefs = new PanePrefs();
    const { sidebar, details } = PANE_BOUNDS;
    prefs.resize('sidebar', sidebar.min - 1);
    expect(prefs.sidebar).toBe(sidebar.min);
    prefs.resize('sidebar', sidebar.min + 1);
    expect(prefs.sidebar).toBe(sidebar.min + 1);
    prefs.resize('details', details.max + 1);
    expect(prefs.details).toBe(details.max);
    prefs.resize('details', details.max - 1);
    expect(prefs.details).toBe(details.max - 1);
  });
});

describe('the layout kept in the library', () => {
  const env = coreForTests(() => offlineCore('layout'));

  it('is adopted by another window on the same library', async () => {
    const first = new LibraryState(env.t.api);
    const stopFirst = first.start();
    await until(() => first.total === 0, 'the first window');
    first.columns.toggle('mentioning');
    first.columns.resize('year', 90);
    first.panes.resize('details', 400);
    const expected = DEFAULT_COLUMNS.filter((c) => c !== 'mentioning');
    stopFirst();
    let layout: LibraryLayout | undefined;
    await until(
      () => JSON.stringify(layout?.columns) === JSON.stringify(expected) && layout?.panes?.details === 400,
      'the layout in the settings',
      15_000,
      async () => {
        const s = await env.t.api.invoke('settings.get', {});
        layout = s.ok ? s.value.libraryLayout : undefined;
      },
    );

    const second = new LibraryState(env.t.api);
    const stopSecond = second.start();
    await until(() => second.panes.details === 400, 'the second window to adopt it');
    expect(second.columns.ids).toEqual(expected);
    expect(second.columns.width('year')).toBe(90);
    stopSecond();
  });

  it('keeps the sort order: a reload (or another window) opens sorted as the user left it', async () => {
    const first = new LibraryState(env.t.api);
    const stopFirst = first.start();
    await until(() => first.total === 0, 'the first window');
    first.sortBy('dateModified');
    expect(first.sort).toEqual({ column: 'dateModified', direction: 'desc' });
    first.sortBy('dateModified');
    expect(first.sort).toEqual({ column: 'dateModified', direction: 'asc' });
    stopFirst();
    let kept: LibraryLayout['sort'];
    await until(
      () => kept?.direction === 'asc',
      'the sort in the settings',
      15_000,
      async () => {
        const s = await env.t.api.invoke('settings.get', {});
        kept = s.ok ? s.value.libraryLayout?.sort : undefined;
      },
    );
    expect(kept).toEqual({ column: 'dateModified', direction: 'asc' });
    // A fresh window with nothing in localStorage (another port in browser mode) still gets it.
    (globalThis as { localStorage?: Storage }).localStorage?.clear();
    const second = new LibraryState(env.t.api);
    const stopSecond = second.start();
    await until(() => second.sort.column === 'dateModified', 'the second window to adopt the sort');
    expect(second.sort).toEqual({ column: 'dateModified', direction: 'asc' });
    stopSecond();
  });

  it('ignores a kept sort the table does not offer', () => {
    expect(sanitizeSort({ column: 'dateModified', direction: 'asc' })).toEqual({
      column: 'dateModified',
      direction: 'asc',
    });
    expect(sanitizeSort({ column: 'relevance', direction: 'desc' })).toBeNull();
    expect(sanitizeSort({ column: 'bogus', direction: 'asc' })).toBeNull();
    expect(sanitizeSort({ column: 'title', direction: 'up' })).toBeNull();
    expect(sanitizeSort(null)).toBeNull();
  });
});
