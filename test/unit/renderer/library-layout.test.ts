// The Library's draggable sizes and its selection commands, as pure rules: column widths and their
// bounds, the grid template the header and rows share, what localStorage may hold, the side panes,
// which commands a selection offers, and the collection picker's filter.
import { describe, expect, it } from 'vitest';
import type { Collection } from '../../../shared/model/library';
import { DEFAULT_COLUMNS } from '../../../renderer/src/lib/library/columns';
import {
  MAX_COLUMN_PX,
  MIN_COLUMN_PX,
  MIN_TITLE_PX,
  PANE_BOUNDS,
  clampPane,
  clampWidth,
  columnTemplate,
  fitColumns,
  rowMinWidth,
  sanitizePanes,
  sanitizeWidths,
} from '../../../renderer/src/lib/library/layout';
import {
  MAX_COPY_ITEMS,
  MAX_GRAPH_ITEMS,
  commandLimit,
  filterPicker,
  pickerEntries,
  selectionCommands,
} from '../../../renderer/src/lib/library/selection-commands';

const col = (id: number, name: string, parentId: number | null = null, itemCount = 0): Collection => ({
  id,
  name,
  parentId,
  itemCount,
});

describe('column widths', () => {
  it('clamps to each column’s bounds, on both sides of each', () => {
    expect(clampWidth('year', MIN_COLUMN_PX - 1)).toBe(MIN_COLUMN_PX);
    expect(clampWidth('year', MIN_COLUMN_PX)).toBe(MIN_COLUMN_PX);
    expect(clampWidth('year', MIN_COLUMN_PX + 1)).toBe(MIN_COLUMN_PX + 1);
    expect(clampWidth('title', MIN_TITLE_PX - 1)).toBe(MIN_TITLE_PX);
    expect(clampWidth('title', MIN_TITLE_PX + 1)).toBe(MIN_TITLE_PX + 1);
    expect(clampWidth('creators', MAX_COLUMN_PX + 1)).toBe(MAX_COLUMN_PX);
    expect(clampWidth('creators', MAX_COLUMN_PX - 1)).toBe(MAX_COLUMN_PX - 1);
    expect(clampWidth('creators', 150.6)).toBe(151);
  });

  it('keeps only known columns with finite numbers from storage, clamped', () => {
    expect(sanitizeWidths(null)).toEqual({});
    expect(sanitizeWidths([1, 2])).toEqual({});
    expect(sanitizeWidths('{"year":80}')).toEqual({});
    expect(
      sanitizeWidths({
        year: 80,
        creators: 'wide',
        bogus: 100,
        title: 5,
        container: Number.NaN,
        __proto__: { type: 90 },
      }),
    ).toEqual({ year: 80, title: MIN_TITLE_PX });
  });

  it('gives fixed columns their pixels and shares the spare room 6:1:1 among title, creators and container', () => {
    expect(columnTemplate(['title', 'year', 'citing'], { year: 90 })).toBe('minmax(200px, 6fr) 90px 58px');
    expect(columnTemplate(['year', 'title'], { title: 400 })).toBe('52px minmax(400px, 6fr)');
    expect(columnTemplate(['title', 'creators', 'container'], {})).toBe(
      'minmax(200px, 6fr) minmax(80px, 1fr) minmax(80px, 1fr)',
    );
    // A width the user set applies: creators fixed at it; the title, resized, stays flexible from it.
    expect(columnTemplate(['title', 'creators', 'container'], { title: 300, creators: 150 })).toBe(
      'minmax(300px, 6fr) 150px minmax(80px, 1fr)',
    );
    // Creators alone still reach the edge; without any flexible column an empty last track takes the spare room.
    expect(columnTemplate(['year', 'creators'], {})).toBe('52px minmax(80px, 1fr)');
    expect(columnTemplate(['year', 'creators'], { creators: 110 })).toBe('52px 110px minmax(0, 1fr)');
  });

  it('sums the widths into a row’s least width; the defaults fit a 1360-pixel window with the title at 200 px or more', () => {
    expect(rowMinWidth(['title', 'year'], { year: 100 })).toBe(300);
    const table = 1360 - 252 - PANE_BOUNDS.sidebar.default - PANE_BOUNDS.details.default;
    expect(rowMinWidth(DEFAULT_COLUMNS, {})).toBeLessThanOrEqual(table);
  });
});

describe('columns that fit', () => {
  const all = ['title', 'creators', 'year', 'container', 'supporting', 'contrasting', 'mentioning', 'citing'] as const;
  const need = rowMinWidth(all, {});

  it('keeps every chosen column when they fit, on both sides of the limit', () => {
    expect(fitColumns(all, need)).toEqual(all);
    expect(fitColumns(all, need + 1)).toEqual(all);
    // One pixel short: the column kept least (the container) goes first.
    expect(fitColumns(all, need - 1)).toEqual(all.filter((c) => c !== 'container'));
    // Not measured yet: all of them.
    expect(fitColumns(all, 0)).toEqual(all);
  });

  it('at a 1,024-pixel window (icon rail, default panes) keeps the title, creators, year and evidence, and more than three columns', () => {
    const table = 1024 - 52 - PANE_BOUNDS.sidebar.default - PANE_BOUNDS.details.default;
    const fitted = fitColumns(DEFAULT_COLUMNS, table);
    expect(fitted.slice(0, 3)).toEqual(['title', 'creators', 'year']);
    expect(fitted.length).toBeGreaterThan(3);
    expect(fitted).toContain('supporting');
    expect(rowMinWidth(fitted, {})).toBeLessThanOrEqual(table);
  });

  it('leaves out the lowest-kept first, the rightmost among equals, and never the title', () => {
    expect(fitColumns(['title', 'publisher', 'pages', 'year'], 200 + 120 + 52)).toEqual(['title', 'publisher', 'year']);
    expect(fitColumns(['creators', 'title'], 10)).toEqual(['title']);
    expect(fitColumns(['year', 'creators'], 10)).toEqual(['creators']);
  });
});

describe('side panes', () => {
  it('clamps each pane on both sides of its bounds and falls back to the default', () => {
    const { sidebar, details } = PANE_BOUNDS;
    expect(clampPane('sidebar', sidebar.min - 1)).toBe(sidebar.min);
    expect(clampPane('sidebar', sidebar.min + 1)).toBe(sidebar.min + 1);
    expect(clampPane('details', details.max + 1)).toBe(details.max);
    expect(clampPane('details', details.max - 1)).toBe(details.max - 1);
    expect(sanitizePanes(null)).toEqual({ sidebar: sidebar.default, details: details.default });
    expect(sanitizePanes({ sidebar: 300, details: 'x' })).toEqual({ sidebar: 300, details: details.default });
    expect(sanitizePanes({ sidebar: 10_000, details: Number.POSITIVE_INFINITY })).toEqual({
      sidebar: sidebar.max,
      details: details.default,
    });
  });
});

describe('selection commands', () => {
  it('offers nothing without a selection, and trash commands in the Trash', () => {
    expect(selectionCommands({ kind: 'library' }, 0, 'Ctrl')).toEqual([]);
    expect(selectionCommands({ kind: 'duplicates' }, 3, 'Ctrl')).toEqual([]);
    expect(selectionCommands({ kind: 'trash' }, 2, 'Ctrl').map((c) => c.id)).toEqual(['restore', 'deleteForGood']);
    const ids = selectionCommands({ kind: 'collection', id: 4 }, 4, 'Ctrl').map((c) => c.id);
    expect(ids).toEqual(['collection', 'tags', 'copy', 'export', 'refresh', 'graph', 'regenerateKeys', 'trash']);
    // Duplicate item copies one item: it is offered for a selection of one, not of two.
    const one = selectionCommands({ kind: 'library' }, 1, 'Ctrl');
    expect(one.map((c) => c.id)).toContain('duplicate');
    expect(one.find((c) => c.id === 'regenerateKeys')?.label).toBe('Regenerate citation key…');
    expect(selectionCommands({ kind: 'library' }, 2, 'Ctrl').map((c) => c.id)).not.toContain('duplicate');
    expect(selectionCommands({ kind: 'library' }, 1, 'Cmd')[0]).toMatchObject({
      label: 'Add to collection…',
      shortcut: 'Cmd+Shift+L',
    });
  });

  it('refuses copying and the graph past what one request takes, on both sides of each limit', () => {
    expect(commandLimit('copy', MAX_COPY_ITEMS)).toBeNull();
    expect(commandLimit('copy', MAX_COPY_ITEMS + 1)).toMatch(/at most 5,000 items/);
    expect(commandLimit('graph', MAX_GRAPH_ITEMS)).toBeNull();
    expect(commandLimit('graph', MAX_GRAPH_ITEMS + 1)).toMatch(/at most 20,000 items/);
    expect(commandLimit('trash', 1_000_000)).toBeNull();
  });
});

describe('collection picker', () => {
  const collections = [
    col(1, 'Thesis'),
    col(2, 'Methods', 1, 3),
    col(3, 'Méthodes anciennes'),
    col(4, 'Reading', null, 7),
    col(5, 'Methods', 4),
  ];

  it('lists every collection in tree order with its path', () => {
    expect(pickerEntries(collections).map((e) => e.path)).toEqual([
      'Méthodes anciennes',
      'Reading',
      'Reading / Methods',
      'Thesis',
      'Thesis / Methods',
    ]);
    expect(pickerEntries(collections).find((e) => e.id === 2)).toMatchObject({ depth: 1, itemCount: 3 });
  });

  it('filters by every word in the path, ignoring case and accents, names starting with the text first', () => {
    const entries = pickerEntries(collections);
    expect(filterPicker(entries, '').length).toBe(5);
    expect(filterPicker(entries, 'meth').map((e) => e.id)).toEqual([3, 5, 2]);
    expect(filterPicker(entries, 'thesis meth').map((e) => e.id)).toEqual([2]);
    expect(filterPicker(entries, 'READ').map((e) => e.id)).toEqual([4, 5]);
    expect(filterPicker(entries, 'nothing')).toEqual([]);
  });
});
