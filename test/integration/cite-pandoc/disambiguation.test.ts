// Names added to tell cites apart, against pandoc --citeproc (jgm/citeproc) given the app's own style
// files. Works that share a first author and have three or more authors are cut to "Laurent et al.";
// CSL 1.0.2 tries given names first (by cite) and adds names only to the cites still alike, and the
// bibliography shows what its cite needed (docs/formats.md). The fixture is CSL-JSON as Zotero and
// pandoc write it: four works of three Laurents (two by Maria), five of four Procházkas (two by John),
// four of three Okafors in one year (two by Chidi), for the author-date styles.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../shared/model/csl';
import {
  BUILT_IN_CSL_STYLES,
  createCiteFormatter,
  directoryAssets,
  type CiteFormatter,
} from '../../../electron/core/formats/cite';
import { buildCslDir, ROOT } from '../../unit/formats/cite/helpers';
import { generateItems } from '../../unit/library/helpers/generate-items';
import { compare, normalise, pandocCitations, pandocEntries, pandocVersion } from './compare';

const version = pandocVersion();
const items = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/cite/shared-first-authors.json'), 'utf8')) as CslItem[];

describe.skipIf(!version)('added names agree with pandoc --citeproc (the app’s style files)', () => {
  const work = mkdtempSync(join(tmpdir(), 'citewise-pandoc-names-'));
  let dir: string;
  let f: CiteFormatter;
  beforeAll(() => {
    dir = buildCslDir();
    f = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
  });
  afterAll(() => f.close());
  const styleFile = (style: keyof typeof BUILT_IN_CSL_STYLES): string =>
    join(dir, `styles/${BUILT_IN_CSL_STYLES[style]}.csl`);

  it.each(['mla', 'apa', 'chicago', 'harvard'] as const)('%s: citations and bibliography', async (style) => {
    const ours = await f.formatCitations(
      items,
      items.map((item) => [{ id: item.id }]),
      { style, format: 'text' },
    );
    expect(ours.map((c) => normalise(c.value))).toEqual(pandocCitations(work, items, styleFile(style)));
    const c = await compare(f, style, items, pandocEntries(work, items, styleFile(style)));
    expect(c.differences).toEqual([]);
  });

  it('mla: the Works Cited shows a second name only for the two works of Maria Laurent', async () => {
    const bib = await f.formatBibliography(items, { style: 'mla', format: 'text' });
    const byId = new Map(bib.entries.map((e) => [e.id, e.value]));
    expect(byId.get('laurent2017')).toMatch(/^Laurent, Maria, Zoë Smith, et al\. /);
    expect(byId.get('laurent1995')).toMatch(/^Laurent, Maria, Amir Maier, et al\. /);
    expect(byId.get('laurent1969')).toMatch(/^Laurent, José, et al\. /);
    expect(byId.get('laurent2015')).toMatch(/^Laurent, Hiroshi, et al\. /);
    expect(byId.get('prochazka1990')).toMatch(/^Procházka, Ana, et al\. /);
    expect(byId.get('prochazka1998')).toMatch(/^Procházka, Tomás, et al\. /);
  });

  it('mla, 200 generated items: every entry that differs from pandoc differs only in a page range', async () => {
    // pandoc 2.17 shortens a range whose second number is longer than the first ("112-1013" to
    // "112–013"), which MLA's minimal-two does not ask for; nothing else may differ.
    const generated = generateItems(200, 1);
    const c = await compare(f, 'mla', generated, pandocEntries(work, generated, styleFile('mla')));
    const withoutPages = (text: string): string => text.replace(/pp\. (\d+)–\d+/, 'pp. $1–');
    const other = c.differences.filter((d) => withoutPages(d.ours) !== withoutPages(d.pandoc));
    expect(other).toEqual([]);
    expect(c.total).toBe(200);
  });
});
