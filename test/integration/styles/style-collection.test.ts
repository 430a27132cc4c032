// The Styles browser's collection (docs/styles.md): built from Debian's citation-style-language-styles
// as the app's build does it, searched, previewed and installed through the core's requests, and the
// installed style formats as pandoc --citeproc formats the very same file.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { createCiteFormatter, type CiteFormatter } from '../../../electron/core/formats/cite';
import { StyleCollection } from '../../../electron/core/formats/cite/style-collection';
import { UserStyles } from '../../../electron/core/formats/cite/user-styles';
import type { CslItem } from '../../../shared/model/csl';
import type { StyleCollectionPage } from '../../../shared/ipc';
import { tempDir } from '../../helpers/tmp';
import { compare, DEBIAN_STYLES, pandocEntries, pandocVersion } from '../cite-pandoc/compare';
// @ts-expect-error: a build script in plain JavaScript, without types
import { buildStyleCollection } from '../../../scripts/build-style-collection.mjs';

const build = buildStyleCollection as (o: { out: string; source: string; quiet?: boolean }) => {
  available: boolean;
  styles?: { name: string; parent?: string }[];
};
const haveDebian = existsSync(DEBIAN_STYLES);
if (!haveDebian) console.warn('style-collection: SKIPPED — apt-get install citation-style-language-styles (CI has it)');

const ITEMS: CslItem[] = [
  {
    id: 'a1',
    type: 'article-journal',
    title: 'A structure for deoxyribose nucleic acid',
    author: [
      { family: 'Watson', given: 'James D.' },
      { family: 'Crick', given: 'Francis' },
    ],
    'container-title': 'Nature',
    volume: '171',
    issue: '4356',
    page: '737-738',
    issued: { 'date-parts': [[1953]] },
  },
  {
    id: 'b1',
    type: 'book',
    title: 'The logic of scientific discovery',
    author: [{ family: 'Popper', given: 'Karl' }],
    publisher: 'Hutchinson',
    'publisher-place': 'London',
    issued: { 'date-parts': [[1959]] },
  },
];

describe.skipIf(!haveDebian)('the CSL styles collection, from Debian’s folder', () => {
  const dir = tempDir('citewise-styles-');
  const out = join(dir.path, 'csl-collection');
  let core: Core;

  beforeAll(async () => {
    build({ out, source: DEBIAN_STYLES, quiet: true });
    core = await createCore({
      dataDir: join(dir.path, 'data'),
      mode: 'test',
      logger: silentLogger,
      styleCollectionDir: out,
    });
  }, 120_000);
  afterAll(async () => {
    await core?.close();
    dir.remove();
  });
  const styleIds = async () => {
    const list = await core.invoke('library.styles.list', {});
    return list.ok ? (list.value as { id: string }[]).map((s) => s.id) : [];
  };

  it('indexes every style of the folder, independent and dependent, each dependent with its parent', () => {
    const independent = readdirSync(DEBIAN_STYLES).filter((f) => f.endsWith('.csl')).length;
    const dependent = readdirSync(join(DEBIAN_STYLES, 'dependent')).filter((f) => f.endsWith('.csl')).length;
    const c = new StyleCollection(out);
    expect(c.available).toBe(true);
    expect(c.size).toBe(independent + dependent);
    expect(independent).toBeGreaterThan(2000);
    expect(readdirSync(join(out, 'styles'))).toHaveLength(independent);
    expect(c.get('nature-genetics')).toMatchObject({
      title: 'Nature Genetics',
      parent: 'nature',
      parentTitle: 'Nature',
      format: 'numeric',
      fields: ['biology', 'medicine'],
    });
    expect(c.get('apa')).toMatchObject({ short: 'APA', format: 'author-date', builtIn: 'apa' });
    expect(readFileSync(join(out, 'COPYRIGHT'), 'utf8')).toMatch(/CC-BY-SA-3\.0|Creative Commons/i);
  });

  it('searches by name, field and format, ranks the exact title first and caps the page', async () => {
    const page = async (input: Record<string, unknown>) => {
      const r = await core.invoke('styles.collection.search', input as never);
      if (!r.ok) throw new Error(r.error.message);
      return r.value as StyleCollectionPage;
    };
    const nature = await page({ text: 'nature genetics' });
    expect(nature.styles[0]).toMatchObject({ name: 'nature-genetics', installed: false });
    expect(nature.total).toBeGreaterThan(10_000);
    // Accents and case do not matter.
    expect((await page({ text: 'ARCHIV FUR DIE CIVILISTISCHE' })).styles.map((s) => s.name)).toContain(
      'archiv-fur-die-civilistische-praxis',
    );
    const law = await page({ field: 'law', format: 'note', limit: 500 });
    expect(law.matched).toBeGreaterThan(10);
    expect(law.styles.every((s) => s.fields?.includes('law') && s.format === 'note')).toBe(true);
    expect(law.fields.find((f) => f.name === 'biology')!.count).toBeGreaterThan(100);
    expect(law.formats.map((f) => f.name)).toEqual(expect.arrayContaining(['author-date', 'numeric', 'note']));
    // The page holds at most `limit` (below, at and above the number matched).
    const all = (await page({ text: 'genetics', limit: 500 })).matched;
    expect((await page({ text: 'genetics', limit: all - 1 })).styles).toHaveLength(all - 1);
    expect((await page({ text: 'genetics', limit: all })).styles).toHaveLength(all);
    expect((await page({ text: 'genetics', limit: all + 1 })).styles).toHaveLength(all);
    expect((await page({ text: 'no such style anywhere' })).matched).toBe(0);
  });

  it('previews a style it has not installed on sample items, leaving nothing registered', async () => {
    const r = await core.invoke('styles.collection.preview', { name: 'nature-genetics' });
    if (!r.ok) throw new Error(r.error.message);
    const sample = r.value as { sample: boolean; bibliography: { text: string }; citation: { text: string } };
    expect(sample.sample).toBe(true);
    expect(sample.bibliography.text).toContain('Watson');
    expect(sample.citation.text).toMatch(/1/);
    // Nothing stays registered.
    expect(await styleIds()).not.toContain('collection-preview');
    const bad = await core.invoke('styles.collection.preview', { name: 'no-such-style' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('installs a dependent style as its parent under its own name, and refuses a built-in one', async () => {
    const r = await core.invoke('styles.collection.install', { name: 'nature-genetics' });
    expect(r).toMatchObject({ ok: true, value: { id: 'nature-genetics', title: 'Nature Genetics', builtIn: false } });
    const list = await core.invoke('library.styles.list', {});
    expect(
      list.ok && (list.value as { id: string; title: string }[]).find((s) => s.id === 'nature-genetics'),
    ).toMatchObject({
      title: 'Nature Genetics',
    });
    const saved = readFileSync(join(dir.path, 'data', 'styles', 'nature-genetics.csl'), 'utf8');
    expect(saved).toContain('<title>Nature Genetics</title>');
    expect(saved).toContain('default-locale="en-GB"');
    const again = await core.invoke('styles.collection.search', { text: 'nature genetics' });
    expect(again.ok && (again.value as StyleCollectionPage).styles[0]!.installed).toBe(true);
    expect(await core.invoke('styles.collection.install', { name: 'apa' })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT' },
    });
  });

  describe.skipIf(!pandocVersion())('installed styles format as pandoc --citeproc formats the same file', () => {
    let f: CiteFormatter;
    const work = join(dir.path, 'pandoc');
    beforeAll(async () => {
      for (const name of ['elsevier-harvard', 'american-sociological-association'])
        expect((await core.invoke('styles.collection.install', { name })).ok).toBe(true);
      mkdirSync(work, { recursive: true });
      f = createCiteFormatter({ workers: 0 });
      new UserStyles(join(dir.path, 'data', 'styles')).loadInto(f);
    });
    afterAll(() => f?.close());

    for (const name of ['nature-genetics', 'elsevier-harvard', 'american-sociological-association'])
      it(name, async () => {
        const file = join(dir.path, 'data', 'styles', `${name}.csl`);
        const c = await compare(f, name, ITEMS, pandocEntries(work, ITEMS, file));
        expect(c.differences).toEqual([]);
        expect(c.identical).toBe(ITEMS.length);
      });
  });
});

describe('without a style collection on the machine', () => {
  const dir = tempDir('citewise-nostyles-');
  afterAll(() => dir.remove());

  it('builds an index that says so, and the browser says there is none', async () => {
    const out = join(dir.path, 'csl-collection');
    expect(build({ out, source: join(dir.path, 'nowhere'), quiet: true })).toMatchObject({ available: false });
    const core = await createCore({
      dataDir: join(dir.path, 'data'),
      mode: 'test',
      logger: silentLogger,
      styleCollectionDir: out,
    });
    try {
      const r = await core.invoke('styles.collection.search', { text: 'nature' });
      expect(r).toMatchObject({ ok: true, value: { available: false, total: 0, styles: [] } });
      expect(r.ok && (r.value as StyleCollectionPage).reason).toContain('no CSL styles folder');
      expect(await core.invoke('styles.collection.install', { name: 'nature' })).toMatchObject({
        ok: false,
        error: { code: 'NOT_FOUND', message: expect.stringContaining('no style collection on this machine') },
      });
    } finally {
      await core.close();
    }
  });

  it('skips a file that is not a style and a dependent whose parent is missing, and says so', () => {
    const src = join(dir.path, 'src');
    mkdirSync(join(src, 'dependent'), { recursive: true });
    const style = (id: string, extra = '') =>
      `<?xml version="1.0" encoding="utf-8"?>\n<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"><info><title>${id} &amp; co</title><id>http://www.zotero.org/styles/${id}</id>${extra}<category citation-format="numeric"/><category field="biology"/></info></style>\n`;
    writeFileSync(join(src, 'good.csl'), style('good'));
    writeFileSync(join(src, 'broken.csl'), '<nothing/>');
    writeFileSync(
      join(src, 'dependent', 'child.csl'),
      style('child', '<link href="http://www.zotero.org/styles/good" rel="independent-parent"/>'),
    );
    writeFileSync(
      join(src, 'dependent', 'orphan.csl'),
      style('orphan', '<link href="http://www.zotero.org/styles/gone" rel="independent-parent"/>'),
    );
    const index = build({ out: join(dir.path, 'small'), source: src, quiet: true }) as unknown as {
      styles: { name: string; title: string }[];
      skipped: string[];
    };
    // In title order.
    expect(index.styles.map((s) => s.name)).toEqual(['child', 'good']);
    expect(index.styles[1]!.title).toBe('good & co');
    expect(index.skipped).toEqual(['broken.csl: no <style> with <info>', 'orphan: its parent gone is missing']);
  });
});
