// Item text comes from files and the service: HTML must be inert, RTF escaped. And user .csl styles.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CslItem } from '../../../../shared/model/csl';
import {
  createCiteFormatter,
  directoryAssets,
  isSafeHtml,
  type CiteFormatter,
} from '../../../../electron/core/formats/cite';
import { buildCslDir, corpus } from './helpers';

let dir: string;
let f: CiteFormatter;
beforeAll(() => {
  dir = buildCslDir();
  f = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
});
afterAll(async () => {
  await f.close();
});

const hostile: CslItem = {
  id: 'x',
  type: 'article-journal',
  title:
    '<img src=x onerror=alert(1)> <script>alert(2)</script> <i>Kept italics</i> <a href="javascript:alert(3)">link</a> {\\rtf} é',
  author: [{ family: '<b onclick=alert(4)>Evil', given: '"quoted" & <svg/onload=alert(5)>' }],
  'container-title': 'J <iframe src=//evil>',
  issued: { 'date-parts': [[2020]] },
  URL: 'javascript:alert(6)',
  DOI: '10.1/"><img src=y onerror=alert(7)>',
};

describe('HTML output', () => {
  for (const style of ['apa', 'ieee', 'mla', 'ama', 'chicago', 'harvard', 'vancouver', 'bibtex'] as const) {
    it(`${style}: hostile titles, names and URLs stay text`, async () => {
      const bib = await f.formatBibliography([hostile], { style, format: 'html' });
      const cite = await f.formatCitation([hostile], 'x', { style, format: 'html' });
      for (const html of [bib.document, cite.value]) {
        expect(html).not.toMatch(/<(img|script|svg|iframe|a)\b/i);
        expect(html).not.toMatch(/<[^>]*\bon\w+=/i);
        expect(isSafeHtml(html) || style === 'bibtex').toBe(true);
      }
      expect(bib.document).toMatch(/&(#60|lt);img src=x/i);
      if (style !== 'bibtex') expect(bib.document).toMatch(/<i>Kept italics<\/i>/i);
    });
  }

  it('recognises markup outside citeproc’s vocabulary', () => {
    expect(
      isSafeHtml('<div class="csl-entry">A &#38; B <i>t</i> <span style="font-variant:small-caps;">x</span></div>'),
    ).toBe(true);
    expect(isSafeHtml('<div class="csl-entry"><img src=x></div>')).toBe(false);
    expect(isSafeHtml('<span style="background:url(x)">x</span>')).toBe(false);
    expect(isSafeHtml('<div class="csl-entry" onclick="x">')).toBe(false);
    expect(isSafeHtml('a & b')).toBe(false);
  });
});

describe('RTF output', () => {
  it('escapes braces, backslashes and non-ASCII text', async () => {
    const bib = await f.formatBibliography([hostile], { style: 'apa', format: 'rtf' });
    expect(bib.document).toContain('\\{\\\\rtf\\}');
    expect(bib.document).toMatch(/\\u233/);
    expect(bib.document).not.toMatch(/[^\s!-~]/);
    const bibtex = await f.formatBibliography(corpus().slice(0, 3), { style: 'bibtex', format: 'rtf' });
    expect(bibtex.document).not.toMatch(/[^\s!-~]/);
  });
});

describe('user styles from a .csl file', () => {
  const custom = readFileSync(new URL('../../../fixtures/cite/tiny-lab.csl', import.meta.url), 'utf8');

  it('registers a valid style under the id of its <info><id>, and formats with it', async () => {
    const info = f.registerStyle(custom);
    expect(info).toMatchObject({ id: 'tiny-lab', title: 'Tiny Lab Style', builtIn: false, kind: 'csl' });
    expect(f.styles().map((s) => s.id)).toContain('tiny-lab');
    const items = corpus().filter((i) => i.id === 'book' || i.id === 'thesis');
    const bib = await f.formatBibliography(items, { style: 'tiny-lab' });
    expect(bib.document).toBe('CITATION CONTEXT ANALYSIS (2019)\nREADING THE SCIENTIFIC RECORD (2018)');
    expect((await f.formatCitation(items, [{ id: 'book' }, { id: 'thesis' }], { style: 'tiny-lab' })).value).toBe(
      '<Dubois 2018; Kowalski 2019>',
    );
  });

  it('re-registering an id replaces the style and never serves its old cached entries', async () => {
    f.registerStyle(custom.replace('text-case="uppercase"', 'text-case="lowercase"'), { id: 'mine' });
    const items = corpus().filter((i) => i.id === 'book');
    expect((await f.formatBibliography(items, { style: 'mine' })).document).toBe(
      'reading the scientific record (2018)',
    );
    f.registerStyle(custom, { id: 'mine' });
    expect((await f.formatBibliography(items, { style: 'mine' })).document).toBe(
      'READING THE SCIENTIFIC RECORD (2018)',
    );
    expect(f.unregisterStyle('mine')).toBe(true);
    await expect(f.formatBibliography(items, { style: 'mine' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('accepts an official style file (Debian’s or the build’s)', () => {
    const xml = readFileSync(join(dir, 'styles/apa.csl'), 'utf8');
    expect(f.registerStyle(xml, { id: 'apa-copy' }).title).toContain('American Psychological Association');
  });

  it('refuses what is not an independent CSL style, and built-in ids', () => {
    expect(() => f.registerStyle('<html><body>hi</body></html>')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => f.registerStyle('')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    const dependent = `<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0"><info><title>Dep</title><id>http://example.org/styles/dep</id><link href="http://www.zotero.org/styles/apa" rel="independent-parent"/></info></style>`;
    expect(() => f.registerStyle(dependent)).toThrow(/dependent style/);
    expect(() =>
      f.registerStyle(custom.replace('class="in-text" version="1.0"', 'class="in-text" version="0.8"')),
    ).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => f.registerStyle(custom, { id: 'apa' })).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => f.registerStyle(custom, { id: '../etc' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
