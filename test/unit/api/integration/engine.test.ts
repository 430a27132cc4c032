// Citation clusters formatted as citeproc-js's cluster mode does for Zotero: positions (ibid,
// subsequent), disambiguation, and one cluster inserted into a formatted document answering with
// just the citations whose text changed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import { directoryAssets } from '../../../../electron/core/formats/cite/assets';
import { ClusterFormatter, styleFacts, type Cluster } from '../../../../electron/api/integration/engine';
import { assetStyles } from '../../../../electron/api/integration';
import { StyleMissing, type StyleSource } from '../../../../electron/api/integration/session';
import { buildCslDir } from '../../formats/cite/helpers';

/** A small note style whose output shows the position citeproc-js gives each cite. */
const NOTE_STYLE = `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="note" version="1.0">
  <info><title>Positions</title><id>positions</id><updated>2024-01-01T00:00:00+00:00</updated></info>
  <citation>
    <layout delimiter="; " suffix=".">
      <choose>
        <if position="ibid-with-locator"><text value="Ibid."/><text variable="locator" prefix=", "/></if>
        <else-if position="ibid"><text value="Ibid"/></else-if>
        <else-if position="subsequent"><names variable="author"><name form="short"/></names><text variable="first-reference-note-number" prefix=", n. "/></else-if>
        <else><names variable="author"><name/></names><text variable="title" prefix=", "/><text variable="locator" prefix=", "/></else>
      </choose>
    </layout>
  </citation>
</style>`;

const ITEMS: Record<string, CslItem> = {
  a: {
    id: 'a',
    type: 'book',
    title: 'Alpha',
    author: [{ family: 'Smith', given: 'John' }],
    issued: { 'date-parts': [[2020]] },
  },
  b: {
    id: 'b',
    type: 'book',
    title: 'Beta',
    author: [{ family: 'Smith', given: 'John' }],
    issued: { 'date-parts': [[2020]] },
  },
  c: {
    id: 'c',
    type: 'book',
    title: 'Gamma',
    author: [{ family: 'Jones', given: 'Mary' }],
    issued: { 'date-parts': [[2019]] },
  },
};

const cluster = (id: string, note: number, ...cites: Array<[string, string?]>): Cluster => ({
  citationID: id,
  citationItems: cites.map(([item, locator]) => ({ id: item, ...(locator ? { locator, label: 'page' } : {}) })),
  properties: { noteIndex: note },
});

let styles: StyleSource;
beforeAll(() => {
  styles = assetStyles(directoryAssets(buildCslDir()));
}, 60_000);

const formatter = (xml: string) =>
  new ClusterFormatter({
    styleXml: xml,
    lang: 'en-US',
    locales: styles.locales,
    item: (id) => ITEMS[id],
    format: 'text',
  });

describe('ClusterFormatter', () => {
  it('gives note citations their positions: first, ibid, ibid with locator, subsequent', () => {
    const out = formatter(NOTE_STYLE).rebuild([
      cluster('c1', 1, ['a']),
      cluster('c2', 2, ['a']),
      cluster('c3', 3, ['a', '9']),
      cluster('c4', 4, ['c']),
      cluster('c5', 5, ['a']),
    ]);
    expect([...out.values()]).toEqual([
      'John Smith, Alpha.',
      'Ibid.',
      'Ibid., 9.',
      'Mary Jones, Gamma.',
      'Smith, n. 1.',
    ]);
    expect(styleFacts(NOTE_STYLE)).toEqual({ note: true, hasBibliography: false });
  });

  it('an inserted citation changes the ones after it (ibid no more) and is the only work done', () => {
    const f = formatter(NOTE_STYLE);
    f.rebuild([cluster('c1', 1, ['a']), cluster('c2', 2, ['a'])]);
    const { changed, bibchange } = f.upsert(cluster('new', 2, ['c']), 1);
    expect(bibchange).toBe(true);
    // The new citation, and c2, which is no longer ibid (another work came between).
    expect([...changed.entries()].sort()).toEqual([
      ['c2', 'Smith, n. 1.'],
      ['new', 'Mary Jones, Gamma.'],
    ]);
    // Editing a citation in place: only that one changes when nothing else depends on it.
    const edited = f.upsert(cluster('new', 2, ['c', '5']), 1);
    expect([...edited.changed.entries()]).toEqual([['new', 'Mary Jones, Gamma, 5.']]);
    expect(edited.bibchange).toBe(false);
  });

  it('disambiguates same author and year in an author-date style, and the bibliography follows', async () => {
    const apa = await styles.resolve('http://www.zotero.org/styles/apa');
    expect(apa.styleID).toBe('http://www.zotero.org/styles/apa');
    const f = formatter(apa.xml);
    const out = f.rebuild([cluster('c1', 0, ['a']), cluster('c2', 0, ['b']), cluster('c3', 0, ['c'])]);
    expect([...out.values()]).toEqual(['(Smith, 2020a)', '(Smith, 2020b)', '(Jones, 2019)']);
    const bib = f.bibliography()!;
    expect(bib.ids).toEqual(['c', 'a', 'b']);
    expect(bib.entries[1]).toContain('Smith, J. (2020a). Alpha.');
    expect(bib.layout).toMatchObject({ firstLineIndent: -720, indent: 720 });
  });

  it('knows Citewise and Zotero ids of the built-in styles, and says which one it lacks', async () => {
    expect((await styles.resolve('ieee')).styleID).toBe('http://www.zotero.org/styles/ieee');
    expect((await styles.resolve('http://www.zotero.org/styles/modern-language-association')).styleID).toBe(
      'http://www.zotero.org/styles/modern-language-association',
    );
    // Not built in and not installed: missing, even though the shipped styles repository has it.
    await expect(styles.resolve('http://www.zotero.org/styles/no-such-style-here')).rejects.toThrow(StyleMissing);
    await expect(styles.resolve('http://www.zotero.org/styles/nature')).rejects.toThrow(
      /no citation style “http:\/\/www\.zotero\.org\/styles\/nature” \(neither built in nor installed\)/,
    );
  });

  it('finds a style the user installed under the id its file was saved with, writing the style’s own id', async () => {
    const xml =
      '<style xmlns="http://purl.org/net/xbiblio/csl"><info><id>http://www.zotero.org/styles/lab-style</id></info></style>';
    const own = assetStyles(undefined, {
      xml: (id) => Promise.resolve(id === 'lab-style' ? xml : null),
      install: () => Promise.reject(new Error('not here')),
    });
    expect(await own.resolve('http://www.zotero.org/styles/lab-style')).toEqual({
      styleID: 'http://www.zotero.org/styles/lab-style',
      xml,
    });
    expect((await own.resolve('lab-style')).xml).toBe(xml);
    await expect(own.resolve('http://www.zotero.org/styles/lab-style-2')).rejects.toThrow(StyleMissing);
    await expect(own.install!('http://www.zotero.org/styles/nature')).rejects.toThrow();
  });
});
