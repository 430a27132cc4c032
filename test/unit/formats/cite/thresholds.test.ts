// Both sides of every size threshold of the citation code: the worker threshold (100 items, for
// bibliographies and citations), the most items per job (100,000), the largest style file
// (2,000,000 characters), and the engine and entry caches' bounds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import {
  createCiteFormatter,
  directoryAssets,
  inspectStyle,
  type CiteFormatter,
  type CslAssets,
} from '../../../../electron/core/formats/cite';
import { CiteCore, itemKey } from '../../../../electron/core/formats/cite/core';
import { StyleRegistry, type CslStyleDef } from '../../../../electron/core/formats/cite/styles';
import { bibliographyProblems, manyItems } from '../../../helpers/many-items';
import { buildCslDir, ROOT } from './helpers';

let assets: CslAssets;
let pooled: CiteFormatter;
let local: CiteFormatter;

beforeAll(() => {
  assets = directoryAssets(buildCslDir());
  // The default threshold (100); one worker.
  pooled = createCiteFormatter({ assets, workers: 1 });
  local = createCiteFormatter({ assets, workers: 0 });
});
afterAll(async () => {
  await pooled.close();
  await local.close();
});

describe('the worker threshold: from 100 items a job goes to the citation worker', () => {
  for (const [count, where] of [
    [99, 'this thread'],
    [100, 'the worker'],
    [101, 'the worker'],
  ] as const) {
    it(
      `formats a bibliography of ${count} items in ${where}, as the one-thread formatter does`,
      { timeout: 120_000 },
      async () => {
        const items = manyItems(count);
        for (const style of ['apa', 'vancouver'] as const) {
          const before = pooled.stats().rendered;
          const bib = await pooled.formatBibliography(items, { style });
          expect(pooled.stats().rendered - before).toBe(where === 'this thread' ? count : 0);
          expect(bibliographyProblems(bib.document, count, style)).toEqual([]);
          expect(bib.document).toBe((await local.formatBibliography(items, { style })).document);
        }
      },
    );

    it(`formats citations among ${count} items in ${where}`, { timeout: 120_000 }, async () => {
      const items = manyItems(count);
      const fresh = createCiteFormatter({ assets, workers: 1 });
      try {
        const cites = await fresh.formatCitations(items, [[{ id: 'item0' }], [{ id: `item${count - 1}` }]], {
          style: 'ieee',
        });
        expect(fresh.stats().engines).toBe(where === 'this thread' ? 1 : 0);
        expect(cites.map((c) => c.value)).toEqual(
          (
            await local.formatCitations(items, [[{ id: 'item0' }], [{ id: `item${count - 1}` }]], { style: 'ieee' })
          ).map((c) => c.value),
        );
      } finally {
        await fresh.close();
      }
    });
  }
});

describe('the most items per job: 100,000', () => {
  const items = (n: number): CslItem[] =>
    Array.from({ length: n }, (_, i) => ({ id: `i${i}`, type: 'book', title: `Book ${i}` }));
  it('takes 100,000 items', async () => {
    const [cite] = await local.formatCitations(items(100_000), [[{ id: 'i99999' }]], { style: 'bibtex' });
    expect(cite!.value).toMatch(/^\\cite\{.+\}$/);
  });
  it('refuses 100,001 with a message that says so', async () => {
    await expect(local.formatCitations(items(100_001), [[{ id: 'i0' }]], { style: 'bibtex' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'At most 100000 items can be formatted at once.',
    });
  });
});

describe('the largest style file: 2,000,000 characters', () => {
  const tiny = readFileSync(join(ROOT, 'test/fixtures/cite/tiny-lab.csl'), 'utf8');
  const padded = (length: number): string => {
    const at = tiny.indexOf('<style');
    const filler = length - tiny.length - '<!--  -->'.length;
    return `${tiny.slice(0, at)}<!-- ${'x'.repeat(filler)} -->${tiny.slice(at)}`;
  };
  it('reads a style of exactly 2,000,000 characters', () => {
    const xml = padded(2_000_000);
    expect(xml.length).toBe(2_000_000);
    expect(inspectStyle(xml).title).toBe('Tiny Lab Style');
  });
  it('refuses one of 2,000,001', () => {
    const xml = padded(2_000_001);
    expect(xml.length).toBe(2_000_001);
    expect(() => inspectStyle(xml)).toThrow('The style file is too large to be a CSL style.');
  });
});

describe('the caches of a thread: engines and entries', () => {
  const en = (lang: string) => assets.localeXml(lang === 'en-GB' ? 'en-GB' : 'en-US');
  const registry = () => new StyleRegistry(assets);
  const style = (id: string) => registry().get(id) as CslStyleDef;
  const items = manyItems(3);
  const keys = items.map((i) => itemKey(i));

  it('keeps up to maxEngines engines, and drops the least recently used beyond', () => {
    const core = new CiteCore(en, { maxEngines: 2 });
    core.bibliography({ style: style('apa'), locale: 'en-US', forceLocale: false, format: 'text' }, items, keys);
    core.bibliography({ style: style('ieee'), locale: 'en-US', forceLocale: false, format: 'text' }, items, keys);
    expect(core.stats().engines).toBe(2);
    core.bibliography({ style: style('mla'), locale: 'en-US', forceLocale: false, format: 'text' }, items, keys);
    expect(core.stats().engines).toBe(2);
  });

  it('keeps up to maxEntries entries, and drops the oldest beyond', () => {
    const core = new CiteCore(en, { maxEntries: 3 });
    core.bibliography({ style: style('apa'), locale: 'en-US', forceLocale: false, format: 'text' }, items, keys);
    expect(core.stats().cachedEntries).toBe(3);
    core.bibliography(
      { style: style('apa'), locale: 'en-US', forceLocale: false, format: 'html' },
      items.slice(0, 1),
      keys.slice(0, 1),
    );
    expect(core.stats().cachedEntries).toBe(3);
  });
});
