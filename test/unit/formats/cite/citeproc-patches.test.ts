// citeproc-js mistakes corrected in citeproc-patches.ts, checked through the formatter (in this thread
// and in a citation worker, which loads citeproc-js on its own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
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

const name = (family: string, given: string) => ({ family, given });
const book = (id: string, title: string, author: { family: string; given: string }[], year: number): CslItem => ({
  id,
  type: 'book',
  title,
  author,
  publisher: 'Press',
  issued: { 'date-parts': [[year]] },
});

describe('subsequent-author-substitute replaces only the same whole list, et al. included', () => {
  const items = [
    book('a', 'Alpha', [name('Lefèvre', 'Carlos'), name('Ng', 'Bo'), name('Oh', 'Cy')], 2001),
    book('b', 'Beta', [name('Lefèvre', 'Carlos')], 2002),
    book('c', 'Gamma', [name('Lefèvre', 'Carlos')], 2003),
  ];
  for (const [label, f] of [
    ['in this thread', () => local],
    ['in a worker', () => pooled],
  ] as const) {
    it(`MLA, ${label}`, async () => {
      const bib = await f().formatBibliography(items, { style: 'mla' });
      expect(bib.entries.map((e) => e.value)).toEqual([
        'Lefèvre, Carlos, et al. Alpha. Press, 2001.',
        // The list before was cut ("et al."): not the same list, so the name is printed.
        'Lefèvre, Carlos. Beta. Press, 2002.',
        '---. Gamma. Press, 2003.',
      ]);
    });
  }
});

describe('initials of compound given names with initialize-with-hyphen="false"', () => {
  const article: CslItem = {
    id: 'v',
    type: 'article-journal',
    title: 'Title',
    author: [name('Zhang', 'Min-jun'), name('Park', 'Ji-Woo'), name('Roux', 'Jean-luc Marie')],
    'container-title': 'J',
    issued: { 'date-parts': [[2020]] },
  };
  it('Vancouver and AMA initialise every part: Zhang MJ, Park JW, Roux JLM', async () => {
    for (const style of ['vancouver', 'ama'] as const) {
      const [entry] = (await local.formatBibliography([article], { style })).entries;
      expect(entry!.value, style).toMatch(/^1\. Zhang MJ, Park JW, Roux JLM\. Title\. J\./);
    }
  });
  it('leaves styles that keep the hyphen as they were (IEEE)', async () => {
    const [entry] = (await local.formatBibliography([article], { style: 'ieee' })).entries;
    expect(entry!.value).toContain('M. Zhang, J.-W. Park, and J. M. Roux');
  });
  it('leaves a name in full where the style does not initialise (APA in-text stays "Zhang")', async () => {
    const [cite] = await local.formatCitations([article], [[{ id: 'v' }]], { style: 'apa' });
    expect(cite!.value).toBe('(Zhang et al., 2020)');
  });
});

describe('name disambiguation tries given names before more names (CSL 1.0.2)', () => {
  // Both cites read "Lee et al."; the first names differ, so initials settle it without more names.
  const items = [
    book('x', 'X', [name('Lee', 'Alice'), name('Park', 'Bo'), name('Kim', 'Cy'), name('Wu', 'Di')], 2020),
    book('y', 'Y', [name('Lee', 'Brian'), name('Chan', 'Di'), name('Kim', 'Cy'), name('Wu', 'Di')], 2020),
  ];
  it.each([
    ['harvard', ['(A. Lee et al., 2020)', '(B. Lee et al., 2020)']],
    ['mla', ['(A. Lee et al.)', '(B. Lee et al.)']],
    ['apa', ['(A. Lee et al., 2020)', '(B. Lee et al., 2020)']],
  ] as const)('%s', async (style, expected) => {
    const cites = await local.formatCitations(items, [[{ id: 'x' }], [{ id: 'y' }]], { style });
    expect(cites.map((c) => c.value)).toEqual(expected);
  });
  it('adds names when given names cannot tell the cites apart', async () => {
    const same = [
      book('x', 'X', [name('Lee', 'Alice'), name('Park', 'Bo'), name('Kim', 'Cy'), name('Wu', 'Di')], 2020),
      book('y', 'Y', [name('Lee', 'Alice'), name('Chan', 'Di'), name('Kim', 'Cy'), name('Wu', 'Di')], 2020),
    ];
    const cites = await local.formatCitations(same, [[{ id: 'x' }], [{ id: 'y' }]], { style: 'harvard' });
    expect(cites.map((c) => c.value)).toEqual(['(Lee, Park, et al., 2020)', '(Lee, Chan, et al., 2020)']);
  });
});

describe('names are added only to the cites that given names left alike (as pandoc)', () => {
  // Four works cite as "Laurent et al.": initials tell Hiroshi's and José's apart; Maria's two need a
  // second name. citeproc-js went on adding names to the set it had split off, so Hiroshi's and
  // José's cites and Works Cited entries printed three names. Five "Procházka et al." works, two by
  // John: Ana's, Sofia's and Tomás's read differently from John's from the first step on.
  const items = [
    book('m1', 'M1', [name('Laurent', 'Maria'), name('Smith', 'Zoë'), name('Novák', 'Wei')], 2017),
    book('m2', 'M2', [name('Laurent', 'Maria'), name('Maier', 'Amir'), name('Hoffmann', 'Anna')], 1995),
    book(
      'j',
      'J',
      [name('Laurent', 'José'), name('Becker', 'Pierre'), name('Ivanov', 'Tomás'), name('Bonnet', 'Anna')],
      1969,
    ),
    book('h', 'H', [name('Laurent', 'Hiroshi'), name('Korhonen', 'Maria'), name('Patel', 'Élodie')], 2015),
    book('p1', 'P1', [name('Procházka', 'John'), name('Demir', 'Anna'), name('Krüger', 'Björn')], 1977),
    book('p2', 'P2', [name('Procházka', 'Sofia'), name('Nieminen', 'Priya'), name('Bonnet', 'John')], 1975),
    book('p3', 'P3', [name('Procházka', 'John'), name('Schäfer', 'Zoë'), name('Virtanen', 'Olga')], 2006),
    book('p4', 'P4', [name('Procházka', 'Ana'), name('Girard', 'Tomás'), name('Černý', 'Priya')], 1990),
    book('p5', 'P5', [name('Procházka', 'Tomás'), name('Şahin', 'Tomás'), name('Li', 'Inés')], 1998),
  ];
  for (const [label, f] of [
    ['in this thread', () => local],
    ['in a worker', () => pooled],
  ] as const) {
    it(`MLA citations, ${label}`, async () => {
      const cites = await f().formatCitations(
        items,
        items.map((i) => [{ id: i.id }]),
        { style: 'mla' },
      );
      expect(cites.map((c) => c.value)).toEqual([
        '(M. Laurent, Smith, et al.)',
        '(M. Laurent, Maier, et al.)',
        '(J. Laurent et al.)',
        '(H. Laurent et al.)',
        '(J. Procházka, Demir, et al.)',
        '(S. Procházka et al.)',
        '(J. Procházka, Schäfer, et al.)',
        '(A. Procházka et al.)',
        '(T. Procházka et al.)',
      ]);
    });
    it(`MLA Works Cited, ${label}`, async () => {
      const bib = await f().formatBibliography(items, { style: 'mla' });
      expect(bib.entries.map((e) => e.value.replace(/\. [A-Z]\d?\. Press.*$/, ''))).toEqual([
        'Laurent, Hiroshi, et al',
        'Laurent, José, et al',
        // Sorted by the author macro as cut ("Laurent, Maria, et al."), then by title.
        'Laurent, Maria, Zoë Smith, et al',
        'Laurent, Maria, Amir Maier, et al',
        'Procházka, Ana, et al',
        'Procházka, John, Anna Demir, et al',
        'Procházka, John, Zoë Schäfer, et al',
        'Procházka, Sofia, et al',
        'Procházka, Tomás, et al',
      ]);
    });
  }
  it('a lone "Laurent et al." (nothing to tell apart) gets no initials and no names', async () => {
    const [cite] = await local.formatCitations([items[3]!], [[{ id: 'h' }]], { style: 'mla' });
    expect(cite!.value).toBe('(Laurent et al.)');
  });
});

describe('casing and sorting ask ICU once, not at every call (speed only)', () => {
  type Internals = {
    getSortCompare(this: unknown, locale?: string): (a: string, b: string) => number;
    toLocaleLowerCase(this: unknown, s: string): string;
  };
  const words = [
    'Émile',
    'emile',
    '[Bracketed] title',
    'bracketed',
    'Zoë',
    'zoe',
    'Item 10',
    'Item 9',
    'İstanbul',
    'ISTANBUL',
    "'Quoted'",
    'quoted',
    'Ölçek',
    'olcek',
    'Straße',
    'STRASSE',
    'ab',
    'a b',
    'a-b',
  ];

  it('sorts as lower-casing and String.prototype.localeCompare with the same options do', async () => {
    const { citeproc } = await import('../../../../electron/core/formats/cite/citeproc');
    const csl = citeproc() as unknown as Internals;
    for (const [locale, langs] of [
      ['en-US', ['en-US', 'en']],
      ['tr-TR', ['tr-TR', 'tr']],
      ['de-DE', ['de-DE', 'de']],
      [undefined, ['en-US']],
    ] as const) {
      const state = { tmp: { lang_array: [...langs] } };
      const compare = csl.getSortCompare.call(state, locale);
      const opts = { sensitivity: 'base', ignorePunctuation: true, numeric: true } as const;
      const reference = (a: string, b: string): number =>
        a.toLocaleLowerCase([...langs]).localeCompare(b.toLocaleLowerCase([...langs]), locale ?? 'en-US', opts);
      for (const a of words)
        for (const b of words)
          expect(Math.sign(compare(a, b)), `${locale}: ${a} / ${b}`).toBe(Math.sign(reference(a, b)));
      for (const w of words) expect(csl.toLocaleLowerCase.call(state, w)).toBe(w.toLocaleLowerCase([...langs]));
    }
  });

  it('a bibliography of 300 items calls localeCompare and toLocaleLowerCase a bounded number of times', async () => {
    const items = Array.from({ length: 300 }, (_, i) =>
      book(
        `s${i}`,
        `Study ${i} of ${['reading', 'Writing', 'counting'][i % 3]}`,
        [name(['Smith', 'Émile', 'Lee', 'Zoë', 'Ng'][i % 5]!, ['Ann', 'Bo'][i % 2]!)],
        2000 + (i % 7),
      ),
    );
    const counts = { compare: 0, lower: 0 };
    const { localeCompare, toLocaleLowerCase } = String.prototype;
    String.prototype.localeCompare = function (this: string, ...args: Parameters<typeof localeCompare>) {
      counts.compare++;
      return localeCompare.apply(this, args);
    };
    String.prototype.toLocaleLowerCase = function (this: string, ...args: Parameters<typeof toLocaleLowerCase>) {
      counts.lower++;
      return toLocaleLowerCase.apply(this, args);
    };
    let bib;
    try {
      bib = await local.formatBibliography(items, { style: 'apa', locale: 'de-DE' });
    } finally {
      String.prototype.localeCompare = localeCompare;
      String.prototype.toLocaleLowerCase = toLocaleLowerCase;
    }
    expect(bib.entries).toHaveLength(300);
    // Sorting 300 entries compares thousands of keys; before the patch each comparison called
    // localeCompare, and each called toLocaleLowerCase twice.
    expect(counts.compare).toBeLessThan(50);
    expect(counts.lower).toBeLessThan(1500);
  });
});
