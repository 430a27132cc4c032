// Issue 42 point 10: "and others" at the end of a BibTeX name list gives "et al." in every style, as
// pandoc's citeproc prints a last {"literal": "others"}; citeproc-js printed nothing for it (the
// library keeps the role in custom.bibtex.others, not as an author) or, given the literal, "others"
// as one more author. Read from a .bib file as JabRef and Better BibTeX write it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import { importText } from '../../../../electron/core/formats';
import { createCiteFormatter, directoryAssets, type CiteFormatter } from '../../../../electron/core/formats/cite';
import { buildCslDir } from './helpers';

let local: CiteFormatter;
let pooled: CiteFormatter;
beforeAll(() => {
  const assets = directoryAssets(buildCslDir());
  local = createCiteFormatter({ assets, workers: 0 });
  pooled = createCiteFormatter({ assets, workers: 1, workerThreshold: 1 });
});
afterAll(async () => {
  await local.close();
  await pooled.close();
});

const BIB = String.raw`@article{kim_2019,
  author = {Kim, Ana and others},
  title = {One named author},
  journal = {Journal of Tests},
  volume = {3},
  pages = {1--9},
  year = {2019}
}
@article{lee_2020,
  author = {Lee, Bo and Oh, Cy and others},
  title = {Two named authors},
  journal = {Journal of Tests},
  volume = {4},
  pages = {10--19},
  year = {2020}
}
@book{six_2021,
  author = {Aa, A. and Bb, B. and Cc, C. and Dd, D. and Ee, E. and Ff, F. and others},
  title = {Six named authors},
  publisher = {Press},
  year = {2021}
}
@article{ng_2022,
  author = {Ng, Di and Wu, Ed},
  title = {Just two},
  journal = {Journal of Tests},
  year = {2022}
}
`;

function items(): CslItem[] {
  const r = importText(BIB, { format: 'bibtex' });
  expect(r.errors).toEqual([]);
  return r.items.map((i) => i.item);
}

describe('"and others" prints "et al." in every style', () => {
  it('the import keeps the names it has and records the rest', () => {
    const [kim, lee, six, ng] = items();
    expect(kim!.author).toEqual([{ family: 'Kim', given: 'Ana' }]);
    expect(lee!.author).toHaveLength(2);
    expect(six!.author).toHaveLength(6);
    for (const i of [kim, lee, six])
      expect((i!.custom as { bibtex: { others: string[] } }).bibtex.others).toEqual(['author']);
    expect((ng!.custom as { bibtex: { others?: string[] } }).bibtex.others).toBeUndefined();
  });

  // What each style prints for the author list of each entry, bibliography and in-text.
  // What each style prints for the author list of each entry: the names the list has, then "et al.",
  // cut as the style's et-al-min/et-al-use-first say for the list's length counting "others" (AMA: 7
  // names give 3), with the comma before "et al." that the style's delimiter-precedes-et-al asks.
  const BIBLIOGRAPHY: Record<string, string[]> = {
    apa: [
      'Kim, A. et al. (2019)',
      'Lee, B., Oh, C., et al. (2020)',
      'Ff, F., et al. (2021)',
      'Ng, D., & Wu, E. (2022)',
    ],
    mla: ['Kim, Ana, et al. “One', 'Lee, Bo, et al. “Two', 'Aa, A., et al. Six', 'Ng, Di, and Ed Wu. “Just'],
    chicago: ['Kim, Ana et al. 2019', 'Lee, Bo, Cy Oh, et al. 2020', 'F. Ff, et al. 2021', 'Ng, Di, and Ed Wu. 2022'],
    harvard: [
      'Kim, A. et al. (2019)',
      'Lee, B., Oh, C., et al. (2020)',
      'Aa, A. et al. (2021)',
      'Ng, D. and Wu, E. (2022)',
    ],
    ieee: ['A. Kim et al., “One', 'B. Lee, C. Oh, et al., “Two', 'A. Aa et al., Six', 'D. Ng and E. Wu, “Just'],
    ama: ['Kim A et al. One', 'Lee B, Oh C, et al. Two', 'Aa A, Bb B, Cc C, et al. Six', 'Ng D, Wu E. Just'],
    vancouver: ['Kim A et al. One', 'Lee B, Oh C, et al. Two', 'Ee E, Ff F, et al. Six', 'Ng D, Wu E. Just'],
  };

  for (const [label, f] of [
    ['in this thread', () => local],
    ['in a worker', () => pooled],
  ] as const) {
    it(`bibliographies, ${label}`, async () => {
      const list = items();
      for (const [style, expected] of Object.entries(BIBLIOGRAPHY)) {
        const bib = await f().formatBibliography(list, { style });
        const byId = new Map(bib.entries.map((e) => [e.id, e.value]));
        list.forEach((item, n) => {
          expect(byId.get(item.id), `${style} ${item['citation-key']}`).toContain(expected[n]);
        });
        // "others" is never printed as an author's name.
        expect(bib.entries.map((e) => e.value).join('\n')).not.toMatch(/\bothers\b/i);
      }
    });
  }

  it('in-text citations', async () => {
    const list = items();
    const cite = (style: string, n: number) =>
      local.formatCitation(list, list[n]!.id, { style }).then((r) => JSON.stringify(r));
    expect(await cite('apa', 0)).toContain('Kim et al., 2019');
    expect(await cite('apa', 3)).toContain('Ng & Wu, 2022');
    expect(await cite('chicago', 0)).toContain('(Kim et al. 2019)');
    expect(await cite('chicago', 1)).toContain('(Lee, Oh, et al. 2020)');
    expect(await cite('mla', 1)).toContain('(Lee et al.)');
    expect(await cite('harvard', 3)).toContain('(Ng and Wu, 2022)');
  });

  it('a CSL item with pandoc\'s last {"literal": "others"} prints the same', async () => {
    const item: CslItem = {
      id: 'p',
      type: 'article-journal',
      title: 'From pandoc',
      author: [{ family: 'Kim', given: 'Ana' }, { family: 'Lee', given: 'Bo' }, { literal: 'others' }],
      'container-title': 'Journal of Tests',
      issued: { 'date-parts': [[2019]] },
    };
    const apa = await local.formatBibliography([item], { style: 'apa' });
    expect(apa.entries[0]!.value).toMatch(/^Kim, A\., Lee, B\., et al\. \(2019\)/);
    const ieee = await local.formatBibliography([item], { style: 'ieee' });
    expect(ieee.entries[0]!.value).toContain('A. Kim, B. Lee, et al., “From pandoc,”');
  });

  it('the items given are not changed', () => {
    const list = items();
    const before = JSON.stringify(list);
    return local.formatBibliography(list, { style: 'apa' }).then(() => expect(JSON.stringify(list)).toBe(before));
  });
});
