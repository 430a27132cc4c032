// A bibliography's engine is built without the citation's sort keys (bibliographyStyle, core.ts):
// for apa they were half of creating an engine. Citations keep them: the cites of a cluster are
// still put in the style's order. The bytes of bibliographies: pinned.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import { createCiteFormatter, directoryAssets, type CiteFormatter } from '../../../../electron/core/formats/cite';
import { citeproc } from '../../../../electron/core/formats/cite/citeproc';
import { buildCslDir } from './helpers';

interface MacroExpander {
  expandMacro: (this: { build: { area: string } }, ...args: unknown[]) => unknown;
}

const items: CslItem[] = [
  {
    id: 'zeta',
    type: 'book',
    title: 'Last by name',
    author: [{ family: 'Zeta', given: 'Ana' }],
    issued: { 'date-parts': [[2021]] },
  },
  {
    id: 'alpha',
    type: 'book',
    title: 'First by name',
    author: [{ family: 'Alpha', given: 'Ben' }],
    issued: { 'date-parts': [[2020]] },
  },
];

let f: CiteFormatter;
let original: MacroExpander['expandMacro'];
const expanded = new Map<string, number>();

beforeAll(() => {
  f = createCiteFormatter({ assets: directoryAssets(buildCslDir()), workers: 0 });
  const csl = citeproc() as unknown as MacroExpander;
  original = csl.expandMacro;
  csl.expandMacro = function (this: { build: { area: string } }, ...args: unknown[]) {
    expanded.set(this.build.area, (expanded.get(this.build.area) ?? 0) + 1);
    return original.apply(this, args);
  };
});
afterAll(async () => {
  (citeproc() as unknown as MacroExpander).expandMacro = original;
  await f.close();
});

describe('engines for bibliographies and for citations', () => {
  it('builds a bibliography engine without the citation sort keys, and sorts the bibliography', async () => {
    expanded.clear();
    const bib = await f.formatBibliography(items, { style: 'apa' });
    expect(bib.entries.map((e) => e.id)).toEqual(['alpha', 'zeta']);
    expect(expanded.get('bibliography_sort') ?? 0).toBeGreaterThan(0);
    expect(expanded.get('citation_sort') ?? 0).toBe(0);
  });

  it('builds a citation engine with them, and orders the cites of a cluster by them', async () => {
    expanded.clear();
    const [cite] = await f.formatCitations(items, [[{ id: 'zeta' }, { id: 'alpha' }]], { style: 'apa' });
    expect(expanded.get('citation_sort') ?? 0).toBeGreaterThan(0);
    expect(cite!.value).toBe('(Alpha, 2020; Zeta, 2021)');
  });
});
