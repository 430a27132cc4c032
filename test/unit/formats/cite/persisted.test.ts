// Bibliographies kept in the library (persist.ts, library/cite-cache.ts) must print exactly what a fresh
// render prints. Randomized sets in all eight styles, built to make entries depend on their neighbours:
// same author and year (2020a/2020b), one family with two given names (initials or given names added),
// repeated authors (MLA's "---"), numbered styles (ieee, vancouver: numbers follow the order given), and
// edits that change a neighbour's disambiguation. A long-lived formatter with the library store, and a
// second one that meets sets only through the store (as a new process would), are compared with a new
// formatter without any cache after every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import {
  createCiteFormatter,
  directoryAssets,
  type CiteFormatter,
  type OutputFormat,
  type StyleId,
} from '../../../../electron/core/formats/cite';
import { libraryBibliographyStore } from '../../../../electron/core/library/cite-cache';
import { testLibrary, type TestLibrary } from '../../library/helpers/lib';
import { buildCslDir } from './helpers';

const STYLES: StyleId[] = ['apa', 'ieee', 'mla', 'ama', 'chicago', 'harvard', 'vancouver', 'bibtex'];
const AUTHORS = [
  { family: 'Smith', given: 'John' },
  { family: 'Smith', given: 'Jane' },
  { family: 'Lee', given: 'Min' },
  { family: 'García', given: 'Ana' },
  { family: 'Müller', given: 'Jörg' },
];

/** mulberry32: a seeded generator, so a failure names a reproducible case. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let serial = 0;
function item(
  random: () => number,
  author = AUTHORS[Math.floor(random() * AUTHORS.length)]!,
  year = 2019 + Math.floor(random() * 3),
): CslItem {
  const n = ++serial;
  return {
    id: `item${n}`,
    type: 'article-journal',
    title: `Finding number ${n} on ${['reliability', 'citations', 'retractions'][n % 3]}`,
    author: [{ ...author }],
    issued: { 'date-parts': [[year]] },
    'container-title': 'Journal of Tests',
    volume: String(1 + (n % 7)),
    page: `${n}-${n + 9}`,
  };
}

function startSet(random: () => number): CslItem[] {
  const set = Array.from({ length: 8 }, () => item(random));
  // Always a same-author-same-year pair and a repeated author.
  set.push(item(random, AUTHORS[0], 2020), item(random, AUTHORS[0], 2020), item(random, AUTHORS[3], 2018));
  return set;
}

type Step = { op: string; set: CslItem[] };

function nextStep(random: () => number, set: CslItem[], history: CslItem[][]): Step {
  const pick = (): number => Math.floor(random() * set.length);
  const r = random();
  if (r < 0.25) {
    // An item takes a neighbour's author and year: both now need a year suffix or more names.
    const [a, b] = [pick(), pick()];
    const next = set.map((x, i) => (i === a ? { ...x, author: set[b]!.author, issued: set[b]!.issued } : x));
    return { op: `item ${a} takes the author and year of item ${b}`, set: next };
  }
  if (r < 0.4) {
    const a = pick();
    const other = AUTHORS[Math.floor(random() * AUTHORS.length)]!;
    return {
      op: `item ${a} gets author ${other.given} ${other.family}`,
      set: set.map((x, i) => (i === a ? { ...x, author: [{ ...other }] } : x)),
    };
  }
  if (r < 0.55 && set.length > 3) {
    const a = pick();
    return { op: `item ${a} is dropped`, set: set.filter((_, i) => i !== a) };
  }
  if (r < 0.7)
    return {
      op: 'an item by a present author is added',
      set: [...set, item(random, set[pick()]!.author![0] as (typeof AUTHORS)[number])],
    };
  if (r < 0.85 && history.length > 1) {
    const back = history[Math.floor(random() * (history.length - 1))]!;
    return { op: 'an earlier set again', set: back };
  }
  const shuffled = [...set];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return { op: 'the same items in another order', set: shuffled };
}

let dir: string;
let lib: TestLibrary;

beforeAll(() => {
  dir = buildCslDir();
  lib = testLibrary();
});
afterAll(() => lib.dispose());

async function fresh(items: CslItem[], style: StyleId, format: OutputFormat): Promise<string[]> {
  const f = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
  try {
    return (await f.formatBibliography(items, { style, format })).entries.map((e) => `${e.id}\t${e.value}`);
  } finally {
    await f.close();
  }
}

describe('bibliographies kept in the library', { timeout: 240_000 }, () => {
  it.each(STYLES.map((style, i) => [style, 1000 + i] as const))(
    '%s: cached and fresh renders agree over randomized edits (seed %i)',
    async (style, seed) => {
      const random = rng(seed);
      const store = libraryBibliographyStore(lib.library.citeCache);
      const long: CiteFormatter = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
      const reader: CiteFormatter = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
      try {
        let set = startSet(random);
        const history: CslItem[][] = [];
        let revisits = 0;
        for (let step = 0; step < 7; step++) {
          const { op, set: next } = step === 0 ? { op: 'the first set', set } : nextStep(random, set, history);
          set = next;
          history.push(set);
          const format: OutputFormat = step % 3 === 2 ? 'html' : 'text';
          const expected = await fresh(set, style, format);
          const got = (await long.formatBibliography(set, { style, format, store })).entries.map(
            (e) => `${e.id}\t${e.value}`,
          );
          expect(got, `${style}, seed ${seed}, step ${step} (${op})`).toEqual(expected);
          if (op === 'an earlier set again' || step === 6) {
            revisits++;
            const hitsBefore = reader.persistedStats().hits;
            const kept = (await reader.formatBibliography(set, { style, format, store })).entries.map(
              (e) => `${e.id}\t${e.value}`,
            );
            expect(kept, `${style}, seed ${seed}, step ${step}: from the library (${op})`).toEqual(expected);
            if (style !== 'bibtex') expect(reader.persistedStats().hits).toBe(hitsBefore + 1);
          }
        }
        expect(revisits).toBeGreaterThan(0);
        if (style !== 'bibtex') {
          // The reader never rendered: every set it was asked for came from the library.
          expect(reader.stats().rendered).toBe(0);
          expect(long.persistedStats().misses).toBeGreaterThan(0);
        }
      } finally {
        await long.close();
        await reader.close();
      }
    },
  );

  it('the generator really makes entries depend on their neighbours (2020a/2020b appear in apa)', async () => {
    const random = rng(7);
    const set = startSet(random);
    const text = (await fresh(set, 'apa', 'text')).join('\n');
    expect(text).toMatch(/2020a\)/);
    expect(text).toMatch(/2020b\)/);
    const mla = (await fresh(set, 'mla', 'text')).join('\n');
    expect(mla).toContain('---.');
  });

  it('a changed style, locale, format or item order is a different key; the same inputs are the same key', async () => {
    const store = libraryBibliographyStore(lib.library.citeCache);
    const f = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
    try {
      const random = rng(99);
      const set = startSet(random);
      const count = (): number => lib.library.citeCache.stats().rows;
      await f.formatBibliography(set, { style: 'vancouver', store });
      const rows = count();
      await f.formatBibliography(set, { style: 'vancouver', store });
      expect(count()).toBe(rows);
      expect(f.persistedStats().hits).toBe(1);
      await f.formatBibliography(set, { style: 'vancouver', store, locale: 'en-GB' });
      await f.formatBibliography(set, { style: 'vancouver', store, format: 'rtf' });
      await f.formatBibliography([...set].reverse(), { style: 'vancouver', store });
      await f.formatBibliography(
        set.map((x, i) => (i === 0 ? { ...x, title: `${x.title} (revised)` } : x)),
        { style: 'vancouver', store },
      );
      expect(count()).toBe(rows + 4);
      expect(f.persistedStats()).toEqual({ hits: 1, misses: 5 });
    } finally {
      await f.close();
    }
  });
});
