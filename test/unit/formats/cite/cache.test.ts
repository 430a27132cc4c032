// The entry cache must never serve an entry whose item or context changed: after every edit the
// incremental result equals what a fresh formatter produces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import {
  createCiteFormatter,
  directoryAssets,
  type CiteFormatter,
  type StyleId,
} from '../../../../electron/core/formats/cite';
import { buildCslDir, corpus } from './helpers';

let dir: string;
let warm: CiteFormatter;
const base = corpus();

beforeAll(() => {
  dir = buildCslDir();
  warm = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
});
afterAll(async () => {
  await warm.close();
});

async function fresh(items: CslItem[], style: StyleId, format: 'text' | 'html' | 'rtf' = 'text'): Promise<string> {
  const f = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
  try {
    return (await f.formatBibliography(items, { style, format })).document;
  } finally {
    await f.close();
  }
}

const edit = (items: CslItem[], id: string, change: Partial<CslItem>): CslItem[] =>
  items.map((i) => (i.id === id ? { ...i, ...change } : i));

describe('entry cache', () => {
  it('reuses every entry when nothing changed, without calling the engine', async () => {
    await warm.formatBibliography(base, { style: 'apa' });
    const before = warm.stats();
    const again = await warm.formatBibliography(base, { style: 'apa' });
    const after = warm.stats();
    expect(after.rendered - before.rendered).toBe(0);
    expect(after.reused - before.reused).toBe(base.length);
    expect(again.document).toBe(await fresh(base, 'apa'));
  });

  it('renders only the changed entry when an item changes', async () => {
    const changed = edit(base, 'book', { title: 'Reading the scientific record again' });
    const before = warm.stats();
    const bib = await warm.formatBibliography(changed, { style: 'apa' });
    expect(warm.stats().rendered - before.rendered).toBe(1);
    expect(bib.entries.find((e) => e.id === 'book')!.value).toContain('Reading the scientific record again');
    expect(bib.document).toBe(await fresh(changed, 'apa'));
  });

  it('keys entries by the store version when one is given', async () => {
    const versionOf = (i: CslItem): number => (i.id === 'book' ? 2 : 1);
    await warm.formatBibliography(base, { style: 'mla', versionOf });
    const renamed = edit(base, 'book', { title: 'Renamed' });
    const bib = await warm.formatBibliography(renamed, { style: 'mla', versionOf: (i) => (i.id === 'book' ? 3 : 1) });
    expect(bib.entries.find((e) => e.id === 'book')!.value).toContain('Renamed');
  });

  // Each step changes context other entries depend on: year suffixes, numbers, the repeated-author dash.
  const steps: Array<[string, (items: CslItem[]) => CslItem[]]> = [
    ['a year change removes a year suffix', (items) => edit(items, 'dis-b', { issued: { 'date-parts': [[2019]] } })],
    [
      'a new item at the front renumbers',
      (items) => [
        {
          id: 'new',
          type: 'book',
          title: 'Aardvarks',
          author: [{ family: 'Aalto', given: 'A.' }],
          issued: { 'date-parts': [[2020]] },
        },
        ...items,
      ],
    ],
    [
      'an author change makes a dash appear',
      (items) => edit(items, 'thesis', { author: [{ family: 'Smith', given: 'John' }] }),
    ],
    ['a removal renumbers and removes a dash', (items) => items.filter((i) => i.id !== 'dis-a')],
    ['a reorder renumbers', (items) => [...items].reverse()],
  ];
  // apa: year suffixes; ieee: citation numbers; chicago: the repeated-author dash.
  for (const style of ['apa', 'ieee', 'chicago'] as const) {
    it(`${style}: after each edit the warm result equals a fresh formatter's`, async () => {
      let items = base;
      await warm.formatBibliography(items, { style, format: 'html' });
      for (const [label, step] of steps) {
        items = step(items);
        const got = await warm.formatBibliography(items, { style, format: 'html' });
        expect(got.document, label).toBe(await fresh(items, style, 'html'));
      }
    });
  }

  it('gives the same entries through the worker pool as in this thread', async () => {
    const pooled = createCiteFormatter({ assets: directoryAssets(dir), workers: 2, workerThreshold: 1 });
    try {
      await pooled.warmUp({ style: 'apa' });
      for (const style of ['apa', 'ieee'] as const) {
        const a = await pooled.formatBibliography(base, { style, format: 'rtf' });
        expect(a.document).toBe(await fresh(base, style, 'rtf'));
        const again = await pooled.formatBibliography(edit(base, 'book', { title: 'Pooled' }), {
          style,
          format: 'rtf',
        });
        expect(again.document).toBe(await fresh(edit(base, 'book', { title: 'Pooled' }), style, 'rtf'));
      }
      const cite = await pooled.formatCitation(base, [{ id: 'dis-a' }, { id: 'dis-b' }], { style: 'apa' });
      expect(cite.value).toBe('(Smith, 2020b, 2020c)');
    } finally {
      await pooled.close();
    }
    // One engine more than before (the citation has its own, with the citation sort): 36 s at load 15.
  }, 120_000);
});
