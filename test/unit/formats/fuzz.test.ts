// Property tests: thousands of mutated inputs through every importer. An importer may reject an input
// as a whole (FormatError) or report entries; it never throws anything else, never takes 2 s, and
// every problem it reports has a line inside the input.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FormatError,
  importBytes,
  importText,
  type ImportFormat,
  type ParseResult,
} from '../../../electron/core/formats';

const FIXTURES = join(import.meta.dirname, '../../fixtures/formats');
const SEEDS: Record<ImportFormat, string> = {
  bibtex: readFileSync(join(FIXTURES, 'library.bib'), 'utf8') + readFileSync(join(FIXTURES, 'biblatex.bib'), 'utf8'),
  ris: readFileSync(join(FIXTURES, 'sample.ris'), 'utf8'),
  csljson: readFileSync(join(FIXTURES, 'sample.json'), 'utf8'),
  'doi-list':
    readFileSync(join(FIXTURES, 'dois.txt'), 'utf8') + 'See https://doi.org/10.1126/science.169.3946.635 (1970).\n',
};
const RUNS = 2000;

// The characters that matter to the parsers, plus some that should not.
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
  '\r\n',
  '%',
  '$',
  '~',
  '(',
  ')',
  '[',
  ']',
  ':',
  'TY  - ',
  'ER  - ',
  'AU  - ',
  '10.',
  '/',
  ' and ',
  'é',
  '\u0301',
  '\ufeff',
  '\t',
  '\u2028',
  'others',
  '@string{',
  '@comment{',
  'crossref = {',
  '\\"',
  "\\'",
  '--',
  '``',
);
type Mutation = {
  kind: 'insert' | 'delete' | 'duplicate' | 'truncate' | 'replace';
  at: number;
  len: number;
  text: string;
};
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('insert', 'delete', 'duplicate', 'truncate', 'replace'),
  at: fc.nat(),
  len: fc.nat({ max: 200 }),
  text: fc.oneof(
    SYNTAX,
    fc.string({ maxLength: 8 }),
    fc.array(SYNTAX, { maxLength: 6 }).map((a) => a.join('')),
  ),
});

function mutate(seed: string, mutations: Mutation[]): string {
  let s = seed;
  for (const m of mutations) {
    const at = s.length === 0 ? 0 : m.at % (s.length + 1);
    switch (m.kind) {
      case 'insert':
        s = s.slice(0, at) + m.text + s.slice(at);
        break;
      case 'delete':
        s = s.slice(0, at) + s.slice(at + m.len);
        break;
      case 'duplicate':
        s = s.slice(0, at + m.len) + s.slice(at, at + m.len) + s.slice(at + m.len);
        break;
      case 'truncate':
        s = s.slice(0, at);
        break;
      case 'replace':
        s = s.slice(0, at) + m.text + s.slice(at + m.text.length);
        break;
    }
  }
  return s;
}

/** Runs one import and checks the contract; returns whether it was refused as a whole. */
function checkImport(run: () => ParseResult, text: string): void {
  const lines = text.split('\n').length;
  const started = performance.now();
  let result: ParseResult;
  try {
    result = run();
  } catch (err) {
    expect(err).toBeInstanceOf(FormatError);
    const e = err as FormatError;
    expect(e.message.length).toBeGreaterThan(10);
    expect(e.line).toBeGreaterThanOrEqual(0);
    expect(e.line).toBeLessThanOrEqual(lines);
    return;
  } finally {
    expect(performance.now() - started).toBeLessThan(2000);
  }
  for (const issue of result.errors) {
    expect(
      Number.isInteger(issue.line) && issue.line >= 1 && issue.line <= lines,
      `error line ${issue.line}: ${issue.reason}`,
    ).toBe(true);
    expect(issue.reason).not.toBe('');
  }
  for (const issue of result.warnings)
    expect(issue.line >= 0 && issue.line <= lines, `warning line ${issue.line}`).toBe(true);
  for (const { item, line } of result.items) {
    expect(line >= 1 && line <= lines).toBe(true);
    expect(typeof item.id).toBe('string');
    expect(typeof item.type).toBe('string');
    expect(() => JSON.stringify(item)).not.toThrow();
  }
  expect(result.count).toBe(result.items.length);
}

describe('fuzz: mutated inputs through every importer', () => {
  for (const format of Object.keys(SEEDS) as ImportFormat[]) {
    it(`${format}: ${RUNS} mutated files`, () => {
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (mutations) => {
          const text = mutate(SEEDS[format], mutations);
          checkImport(() => importText(text, { format }), text);
        }),
        { numRuns: RUNS },
      );
    });
  }

  it(`auto-detection and decoding: ${RUNS} mutated byte streams`, () => {
    const seeds = Object.values(SEEDS).map((s) => Buffer.from(s, 'utf8'));
    fc.assert(
      fc.property(
        fc.nat({ max: seeds.length - 1 }),
        fc.array(fc.record({ at: fc.nat(), byte: fc.nat({ max: 255 }) }), { maxLength: 20 }),
        fc.nat(),
        (which, flips, cut) => {
          const bytes = Buffer.from(seeds[which]!);
          for (const f of flips) bytes[f.at % bytes.length] = f.byte;
          const slice = bytes.subarray(0, cut % (bytes.length + 1));
          checkImport(() => importBytes(slice), slice.toString('latin1'));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('arbitrary strings never break any importer', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.constantFrom<ImportFormat>('bibtex', 'ris', 'csljson', 'doi-list'),
        (text, format) => {
          checkImport(() => importText(text, { format }), text);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
