// A bibliography served from the library's cache (persist.ts) needs no citation processor: a cold
// process (a `citewise export`, the first export of an app session) must not load citeproc-js for it,
// and must print exactly what a fresh render prints. The built-in styles are described without
// parsing them (styles.ts builtInFacts), which must agree with the full parse.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import { createCiteFormatter, directoryAssets, type CslAssets } from '../../../../electron/core/formats/cite';
import { builtInFacts, inspectStyle } from '../../../../electron/core/formats/cite/styles';
import { libraryBibliographyStore } from '../../../../electron/core/library/cite-cache';
import { testLibrary, type TestLibrary } from '../../library/helpers/lib';
import { buildCslDir } from './helpers';

const ROOT = resolve(import.meta.dirname, '../../../..');

/** 160 items: pairs by the same author in the same year (2020a/2020b), and families with two given names. */
function ambiguousSet(): CslItem[] {
  const families = ['Smith', 'Lee', 'García', 'Müller', 'Okafor', 'Nguyen', 'Kowalski', 'Rossi'];
  const givens = ['John', 'Jane', 'Ana', 'Min'];
  return Array.from({ length: 160 }, (_, i) => ({
    id: `item${i}`,
    type: 'article-journal',
    title: `Finding ${i} on ${['reliability', 'citations', 'retractions'][i % 3]}`,
    author: [{ family: families[i % families.length]!, given: givens[Math.floor(i / 8) % givens.length]! }],
    issued: { 'date-parts': [[2018 + (Math.floor(i / 32) % 4)]] },
    'container-title': 'Journal of Tests',
    volume: String(1 + (i % 7)),
    page: `${i + 1}-${i + 9}`,
  }));
}

/** Formats `items` in a new Node process through the library at `file`; what it printed and whether it loaded citeproc-js. */
function inNewProcess(
  cslDir: string,
  file: string,
  items: CslItem[],
  style: string,
): { text: string; citeprocLoaded: boolean; hits: number; rendered: number } {
  const at = (p: string): string => JSON.stringify(join(ROOT, p));
  const code = `import { readFileSync } from 'node:fs';
import { createCiteFormatter, directoryAssets } from ${at('electron/core/formats/cite/index.ts')};
import { citeprocLoaded } from ${at('electron/core/formats/cite/citeproc.ts')};
import { libraryBibliographyStore } from ${at('electron/core/library/cite-cache.ts')};
import { openLibrary } from ${at('electron/core/library/open.ts')};
const o = openLibrary(process.argv[1], { rankExtension: null });
const f = createCiteFormatter({ assets: directoryAssets(process.argv[2]), workers: 0 });
const items = JSON.parse(readFileSync(0, 'utf8'));
const bib = await f.formatBibliography(items, { style: process.argv[3], format: 'text', store: libraryBibliographyStore(o.library.citeCache) });
process.stdout.write(JSON.stringify({ text: bib.document, citeprocLoaded: citeprocLoaded(), hits: f.persistedStats().hits, rendered: f.stats().rendered }));
await f.close();
o.close();`;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', code, file, cslDir, style],
    { cwd: ROOT, input: JSON.stringify(items), encoding: 'utf8' },
  );
  return JSON.parse(out) as { text: string; citeprocLoaded: boolean; hits: number; rendered: number };
}

let dir: string;
let assets: CslAssets;
let lib: TestLibrary;

beforeAll(() => {
  dir = buildCslDir();
  assets = directoryAssets(dir);
  lib = testLibrary();
});
afterAll(() => lib.dispose());

describe('a cold process and the library cache', { timeout: 120_000 }, () => {
  it('a cached bibliography of 160 ambiguous entries: the fresh render, without loading citeproc-js', async () => {
    const items = ambiguousSet();
    const fresh = createCiteFormatter({ assets, workers: 0 });
    const expected = (await fresh.formatBibliography(items, { style: 'apa', format: 'text' })).document;
    await fresh.close();
    expect(expected).toMatch(/2020a\)/);
    expect(expected).toMatch(/2020b\)/);

    // Not in the library yet: the new process renders, so it loads the processor.
    const first = inNewProcess(dir, lib.file, items, 'apa');
    expect(first).toMatchObject({ text: expected, citeprocLoaded: true, hits: 0, rendered: 160 });
    // Kept by that process: the next one reads it, byte for byte, and never loads citeproc-js.
    const second = inNewProcess(dir, lib.file, items, 'apa');
    expect(second).toMatchObject({ text: expected, citeprocLoaded: false, hits: 1, rendered: 0 });
    expect(lib.library.citeCache.stats().rows).toBe(1);

    // One item changed: a miss, so the processor is loaded and the set rendered again.
    const edited = items.map((x, i) => (i === 5 ? { ...x, title: `${x.title} (revised)` } : x));
    const again = inNewProcess(dir, lib.file, edited, 'apa');
    expect(again).toMatchObject({ citeprocLoaded: true, hits: 0, rendered: 160 });
    expect(again.text).toContain('(revised)');
  });

  it('the same store through an in-process formatter gives the same bibliography', async () => {
    const items = ambiguousSet();
    const f = createCiteFormatter({ assets, workers: 0 });
    try {
      const bib = await f.formatBibliography(items, {
        style: 'apa',
        format: 'text',
        store: libraryBibliographyStore(lib.library.citeCache),
      });
      expect(f.persistedStats().hits).toBe(1);
      const fresh = createCiteFormatter({ assets, workers: 0 });
      expect(bib.document).toBe((await fresh.formatBibliography(items, { style: 'apa', format: 'text' })).document);
      await fresh.close();
    } finally {
      await f.close();
    }
  });
});

describe('built-in styles without parsing them', () => {
  it('builtInFacts agrees with the full parse for every shipped style', () => {
    const ids = Object.keys(assets.manifest.styles);
    expect(ids.length).toBe(7);
    for (const id of ids) {
      const xml = assets.styleXml(id);
      const full = inspectStyle(xml);
      const bibliography = full.tree.children.find((c) => typeof c !== 'string' && c.name === 'bibliography');
      const expected = {
        ...(full.defaultLocale ? { defaultLocale: full.defaultLocale } : {}),
        substitutesAuthor:
          typeof bibliography !== 'string' && bibliography?.attrs['subsequent-author-substitute'] !== undefined,
      };
      expect(builtInFacts(xml), id).toEqual(expected);
    }
    // Both answers occur among them, so the comparison covers both.
    expect(ids.some((id) => builtInFacts(assets.styleXml(id))!.substitutesAuthor)).toBe(true);
    expect(ids.some((id) => !builtInFacts(assets.styleXml(id))!.substitutesAuthor)).toBe(true);
  });

  it('reads attributes of the start tags only, in either quote, and refuses what is not CSL 1.0', () => {
    const csl = (style: string, bib = '<bibliography>'): string =>
      `<?xml version="1.0"?>\n<style ${style}><info/><citation><layout/></citation>${bib}</bibliography></style>`;
    const ns = 'xmlns="http://purl.org/net/xbiblio/csl"';
    expect(builtInFacts(csl(`${ns} version='1.0' default-locale="de-DE"`))).toEqual({
      defaultLocale: 'de-DE',
      substitutesAuthor: false,
    });
    expect(builtInFacts(csl(`${ns} version="1.0"`, '<bibliography subsequent-author-substitute="---">'))).toEqual({
      substitutesAuthor: true,
    });
    expect(builtInFacts(csl(`${ns} version="0.8"`))).toBeUndefined();
    expect(builtInFacts(csl('version="1.0"'))).toBeUndefined();
  });
});
