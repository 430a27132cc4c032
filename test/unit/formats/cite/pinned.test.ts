// The bytes of a realistic 160-entry bibliography, pinned: every speed change to the formatting path
// (citeproc patches, engine set-up, worker split) must leave them as they are. The items
// (test/fixtures/cite/pinned-160.json) are the corpus (every item type and its edge cases), sixteen
// tricky entries (year suffixes a/b/c, given names added to tell authors apart, a 21-author list
// then the same first author alone, compound given names, straight/curly/nested quotes and
// apostrophes, inline markup and nocase, CJK and Cyrillic, an organisation, editors and a translator,
// roman page ranges, a URL with & and <>) and 92 generated references with shared family names.
// Expected output: test/fixtures/cite/pinned/<style>.<ext>, written by this code path at commit time;
// a difference is a change in what users get, to be explained, never regenerated blindly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import {
  createCiteFormatter,
  directoryAssets,
  type CiteFormatter,
  type CslAssets,
} from '../../../../electron/core/formats/cite';
import type { OutputFormat } from '../../../../electron/core/formats/cite/types';
import { buildCslDir, ROOT } from './helpers';

const FIXTURES = join(ROOT, 'test/fixtures/cite');
const items = JSON.parse(readFileSync(join(FIXTURES, 'pinned-160.json'), 'utf8')) as CslItem[];
const CASES: Array<[style: string, format: OutputFormat, file: string]> = [
  ['apa', 'text', 'apa.txt'],
  ['apa', 'html', 'apa.html'],
  ['ieee', 'text', 'ieee.txt'],
  ['chicago', 'text', 'chicago.txt'],
  ['mla', 'text', 'mla.txt'],
  ['vancouver', 'text', 'vancouver.txt'],
  ['ama', 'rtf', 'ama.rtf'],
];

let assets: CslAssets;
let local: CiteFormatter;
let pooled: CiteFormatter;

// Seven styles, 160 entries each, twice: well over the default 30 s on a loaded 2-core machine.
beforeAll(() => {
  assets = directoryAssets(buildCslDir());
  local = createCiteFormatter({ assets, workers: 0 });
  pooled = createCiteFormatter({ assets, workers: 2, workerThreshold: 100 });
});
afterAll(async () => {
  await local.close();
  await pooled.close();
});

describe('a pinned 160-entry bibliography', () => {
  it('has 160 distinct items', () => {
    expect(items).toHaveLength(160);
    expect(new Set(items.map((i) => i.id)).size).toBe(160);
  });

  for (const [style, format, file] of CASES) {
    it(`${style} ${format}: byte for byte, in this thread and in the worker pool`, async () => {
      const expected = readFileSync(join(FIXTURES, 'pinned', file), 'utf8');
      const here = await local.formatBibliography(items, { style, format });
      expect(here.entries).toHaveLength(160);
      expect(here.document).toBe(expected);
      const there = await pooled.formatBibliography(items, { style, format });
      expect(there.document).toBe(expected);
    }, 180_000);
  }

  it('is the same when the items come in another order (the style sorts or numbers them, not the caller)', async () => {
    const reversed = [...items].reverse();
    const a = await local.formatBibliography(items, { style: 'apa', format: 'text' });
    const b = await local.formatBibliography(reversed, { style: 'apa', format: 'text' });
    expect(b.document).toBe(a.document);
  }, 180_000);
});
