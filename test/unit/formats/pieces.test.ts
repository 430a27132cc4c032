// A large BibTeX file is read and parsed in pieces (importFile's pieceBytes): the result must be
// exactly what reading it whole gives, items, errors (lines, reasons, excerpts) and warnings alike,
// wherever the pieces happen to be cut, including inside broken entries and multi-byte characters.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError, importFile, type ParseResult } from '../../../electron/core/formats';
import { generateBibtex } from './corpus';

const FIXTURES = join(import.meta.dirname, '../../fixtures/formats');
// Without crossref and xdata, which need the whole file (tested below).
const SEED = (
  readFileSync(join(FIXTURES, 'library.bib'), 'utf8') + readFileSync(join(FIXTURES, 'biblatex.bib'), 'utf8')
).replace(/crossref|xdata/gi, 'note');
const dir = mkdtempSync(join(tmpdir(), 'citewise-pieces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function both(
  text: string | Uint8Array,
  pieceBytes: number,
): { whole: ParseResult | string; pieces: ParseResult | string } {
  const file = join(dir, `f${n++}.bib`);
  writeFileSync(file, text);
  const run = (bytes: number): ParseResult | string => {
    try {
      return importFile(file, { pieceBytes: bytes });
    } catch (err) {
      if (err instanceof FormatError) return `FormatError: ${err.message}`;
      throw err;
    }
  };
  return { whole: run(Number.MAX_SAFE_INTEGER), pieces: run(pieceBytes) };
}

describe('BibTeX files read in pieces', () => {
  it('gives the whole-file result for a generated library, for any piece size', () => {
    const text = generateBibtex({ entries: 600, seed: 7 });
    for (const size of [64, 301, 4096, 65_536]) {
      const { whole, pieces } = both(text, size);
      expect(typeof whole).not.toBe('string');
      expect((whole as ParseResult).count).toBe(600);
      expect(pieces).toEqual(whole);
    }
  });

  it('gives the whole-file result for broken files (mutated fixtures), cut anywhere', () => {
    const SYNTAX = fc.constantFrom(
      '{',
      '}',
      '@',
      ',',
      '=',
      '"',
      '#',
      '\\',
      '\n',
      '\n@article{',
      '\n@string{',
      '\n@comment{',
      '\r\n',
      '%',
      'é',
      '😀',
      '\ufeff',
      '\t',
      '@preamble{',
      ' and ',
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.nat(),
            len: fc.nat({ max: 120 }),
            text: fc.oneof(
              SYNTAX,
              fc.array(SYNTAX, { maxLength: 5 }).map((a) => a.join('')),
            ),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.integer({ min: 40, max: 3000 }),
        (mutations, size) => {
          let s = SEED;
          for (const m of mutations) {
            const at = m.at % (s.length + 1);
            s = m.len % 3 === 0 ? s.slice(0, at) + s.slice(at + m.len) : s.slice(0, at) + m.text + s.slice(at);
          }
          const { whole, pieces } = both(s, size);
          expect(pieces).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);

  it('leaves files it cannot read in pieces to the whole-file path (crossref, other encodings)', () => {
    const crossref = `@proceedings{b, title = {Book}, year = {2001}}\n${'@inproceedings{a, crossref = {b}, title = {Chapter}}\n'.repeat(50)}`;
    const r1 = both(crossref, 100);
    expect(r1.pieces).toEqual(r1.whole);
    expect((r1.pieces as ParseResult).items[1]!.item['container-title']).toBe('Book');
    const latin1 = Buffer.from(`${'@article{k, title = {Caf\u00e9}}\n'.repeat(40)}`, 'latin1');
    const r2 = both(latin1, 100);
    expect(r2.pieces).toEqual(r2.whole);
    expect((r2.pieces as ParseResult).encoding).toBe('windows-1252');
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('@article{k, title = {Gr\u00fc\u00dfe}}\n'.repeat(40)),
    ]);
    const r3 = both(bom, 100);
    expect(r3.pieces).toEqual(r3.whole);
    expect((r3.pieces as ParseResult).count).toBe(40);
  });

  it('sees crossref or xdata cut between two pieces, in any case', () => {
    const head = '@article{x, title = {Filler}}\n'.repeat(20);
    for (const word of ['crossref', 'CrossRef', 'XDATA']) {
      const text = `${head}@inproceedings{a, ${word} = {b}, title = {Chapter}}\n@proceedings{b, title = {Book}, year = {2001}}\n`;
      const at = text.indexOf(word);
      for (let cut = 1; cut < word.length; cut++) {
        const { whole, pieces } = both(text, at + cut);
        expect(pieces).toEqual(whole);
        // Inherited fields show the whole-file path ran (xdata only names an @xdata entry, so it inherits nothing here).
        if (word !== 'XDATA') expect((pieces as ParseResult).items[20]!.item['container-title']).toBe('Book');
      }
    }
  });

  it('stops with a clear error when the file changes while it is read (the import then adds nothing)', () => {
    const text = '@article{k, title = {Gr\u00fc\u00dfe}}\n'.repeat(200);
    for (const change of ['garbled', 'shorter'] as const) {
      const file = join(dir, `changing-${change}.bib`);
      writeFileSync(file, text);
      let chunks = 0;
      const run = () =>
        importFile(file, {
          pieceBytes: 512,
          chunkSize: 5,
          onItems: () => {
            if (chunks++ > 0) return;
            // After the first pass and the first window: the rest of the file is no longer what was checked.
            const bytes = Buffer.from(text);
            if (change === 'garbled')
              writeFileSync(file, Buffer.concat([bytes.subarray(0, 2000), Buffer.alloc(bytes.length - 2000, 0xff)]));
            else writeFileSync(file, bytes.subarray(0, 1500));
          },
        });
      expect(run).toThrow(/^The file changed while it was being read.*; import it again\.$/);
    }
  });

  it('drops the byte-order marks the whole-file path drops, and keeps a U+FEFF further on', () => {
    const body =
      '@article{k, title = {Gr\u00fc\u00dfe}}\n'.repeat(30) + '\ufeff@article{late, title = {After a BOM}}\n';
    for (const marks of [1, 2, 3, 4]) {
      const bytes = Buffer.concat([Buffer.from('\ufeff'.repeat(marks)), Buffer.from(body)]);
      for (const size of [4, 5, 40, 100]) {
        const { whole, pieces } = both(bytes, size);
        expect(pieces).toEqual(whole);
      }
    }
  });
});
