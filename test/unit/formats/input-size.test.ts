// Issue 41, point 2, piece by piece: no parser or mapper reads its input with recursion (or passes
// an array as arguments) in proportion to its size, and an item's own failure costs only that item.
import { describe, expect, it } from 'vitest';
import { appendAll, maxOf, minOf } from '../../../shared/model/arrays';
import { checkQuery, MAX_QUERY_NESTING } from '../../../shared/model/query/parser';
import type { CslItem } from '../../../shared/model/csl';
import { decodeLatex } from '../../../electron/core/formats/bibtex/latex-decode';
import { SinkFailure } from '../../../electron/core/formats/collector';
import { decodePortItems, encodePortItems } from '../../../electron/core/formats/import-port';
import { importText, type ImportedItem } from '../../../electron/core/formats';
import { prepareItem } from '../../../electron/core/library/derive';

const bib = (count: number): string =>
  Array.from({ length: count }, (_, i) => `@article{k${i},\n  title = {Paper ${i}},\n  year = {2020}\n}\n`).join('');

describe('an item the collector cannot take', () => {
  it('is reported on its own line, and every other item of its chunk is passed on', () => {
    const chunks: string[][] = [];
    const result = importText(bib(10), {
      format: 'bibtex',
      chunkSize: 3,
      onItems: (chunk) => chunks.push(chunk.map((it) => it.item['citation-key'] as string)),
      checkItem: (it: ImportedItem) => {
        if (it.item['citation-key'] === 'k5') throw new Error('this one cannot be prepared');
      },
    });
    expect(result.errors).toEqual([
      { line: 21, reason: 'The entry "k5" could not be read: this one cannot be prepared' },
    ]);
    expect(chunks.flat()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k6', 'k7', 'k8', 'k9']);
    expect(result.count).toBe(9);
  });

  it('in RIS and CSL-JSON too', () => {
    const ris = Array.from({ length: 4 }, (_, i) => `TY  - JOUR\nTI  - Paper ${i}\nER  - \n`).join('');
    const fail = (title: string) => (it: ImportedItem) => {
      if (it.item.title === title) throw new Error('no');
    };
    const r = importText(ris, { format: 'ris', chunkSize: 2, onItems: () => undefined, checkItem: fail('Paper 2') });
    expect(r.errors).toEqual([{ line: 7, reason: 'no' }]);
    expect(r.count).toBe(3);
    const json = JSON.stringify([0, 1, 2].map((i) => ({ id: `j${i}`, type: 'book', title: `Paper ${i}` })));
    const c = importText(json, {
      format: 'csljson',
      chunkSize: 2,
      onItems: () => undefined,
      checkItem: fail('Paper 1'),
    });
    expect(c.errors).toEqual([{ line: 1, reason: 'Item 2 ("j1"): no' }]);
    expect(c.count).toBe(2);
  });

  it('ends the import when the sink fails, blaming no entry', () => {
    let calls = 0;
    const run = () =>
      importText(bib(10), {
        format: 'bibtex',
        chunkSize: 4,
        onItems: () => {
          if (++calls === 2) throw new Error('the port is gone');
        },
      });
    expect(run).toThrow(SinkFailure);
    calls = 0;
    expect(run).toThrow('The entries read so far could not be passed on to the library: the port is gone');
  });
});

describe('an entry with 90,000 authors', () => {
  it('is packed for the library and read back whole', () => {
    const item = {
      id: 'big',
      type: 'article-journal',
      title: 'Many hands',
      author: Array.from({ length: 90_000 }, (_, i) => ({ family: `F${i}`, given: 'G' })),
      keyword: Array.from({ length: 200_000 }, (_, i) => `t${i}`).join(', '),
    } as CslItem;
    const prepared = prepareItem(item);
    const [back] = decodePortItems(encodePortItems([{ prepared, line: 7, sourceKey: 'big' }]));
    expect(back!.line).toBe(7);
    expect(back!.sourceKey).toBe('big');
    expect(back!.prepared.creators).toHaveLength(90_000 * 6);
    expect(back!.prepared.creators.slice(-6)).toEqual(prepared.creators.slice(-6));
    expect(back!.prepared.tags).toEqual(prepared.tags);
  });
});

describe('LaTeX decoding', () => {
  it('reads 100,000 switches in one group without recursion', () => {
    const out = decodeLatex(`{${'\\em a '.repeat(100_000)}}`, { rich: true });
    expect(out.startsWith('<i>a <i>a ')).toBe(true);
    expect(out.match(/<i>/g)).toHaveLength(100_000);
  });

  it('formats the rest of a group after a switch as before', () => {
    expect(decodeLatex('A {\\em b \\bf c} d', { rich: true })).toBe('A <i>b <b>c</b></i> d');
    expect(decodeLatex('{\\em}', { rich: true })).toBe('');
    expect(decodeLatex('x {\\em \\bf} y', { rich: false })).toBe('x y');
  });

  it('takes 255 nested groups, and refuses 256 with a message instead of overflowing', () => {
    const nested = (k: number) => `${'{'.repeat(k)}x${'}'.repeat(k)}`;
    expect(decodeLatex(nested(254), { rich: false })).toBe('x');
    expect(decodeLatex(nested(255), { rich: false })).toBe('x');
    expect(() => decodeLatex(nested(256), { rich: false })).toThrow(
      'its LaTeX nests braces or commands more than 256 levels deep',
    );
    expect(() => decodeLatex(`${'\\textit '.repeat(100_000)}x`, { rich: true })).toThrow(/more than 256 levels/);
  });
});

describe('a search query', () => {
  const parens = (k: number) => `${'('.repeat(k)}a${')'.repeat(k)}`;
  it(`nests up to ${MAX_QUERY_NESTING} levels and refuses more with a syntax error`, () => {
    expect(checkQuery(parens(MAX_QUERY_NESTING - 1)).ok).toBe(true);
    expect(checkQuery(parens(MAX_QUERY_NESTING)).ok).toBe(true);
    const deep = checkQuery(parens(MAX_QUERY_NESTING + 1));
    expect(deep.ok).toBe(false);
    expect(JSON.stringify(deep)).toContain('nests parentheses or NOT more than 64 levels deep');
    expect(checkQuery(parens(1999)).ok).toBe(false);
    expect(checkQuery(`${'NOT '.repeat(MAX_QUERY_NESTING)}a`).ok).toBe(true);
    expect(checkQuery(`${'NOT '.repeat(MAX_QUERY_NESTING + 1)}a`).ok).toBe(false);
  });
});

describe('array helpers', () => {
  it('take any length', () => {
    const big = Array.from({ length: 500_000 }, (_, i) => i);
    expect(appendAll([-1], big)).toHaveLength(500_001);
    expect(maxOf(big)).toBe(499_999);
    expect(minOf(big)).toBe(0);
    expect(maxOf([])).toBe(-Infinity);
    expect(minOf([], 7)).toBe(7);
  });
});
