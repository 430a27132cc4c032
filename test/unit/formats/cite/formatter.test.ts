import { toBibtex } from '../../../../electron/core/formats/bibtex/export';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CITATION_STYLE_IDS, CSL_ITEM_TYPES, type CslItem } from '../../../../shared/model/csl';
import { createCiteFormatter, directoryAssets, type CiteFormatter } from '../../../../electron/core/formats/cite';
import { buildCslDir, corpus } from './helpers';

let dir: string;
let f: CiteFormatter;
const items = corpus();

beforeAll(() => {
  dir = buildCslDir();
  f = createCiteFormatter({ assets: directoryAssets(dir), workers: 0 });
});
afterAll(async () => {
  await f.close();
});

describe('the corpus', () => {
  it('covers every CSL item type', () => {
    const types = new Set(items.map((i) => i.type));
    expect(CSL_ITEM_TYPES.filter((t) => !types.has(t))).toEqual([]);
  });
});

describe('bibliographies', () => {
  it('lists the eight Citewise styles first, with their official CSL styles', () => {
    const styles = f.styles();
    expect(styles.map((s) => s.id)).toEqual([...CITATION_STYLE_IDS]);
    expect(Object.fromEntries(styles.map((s) => [s.id, s.name]))).toEqual({
      apa: 'apa',
      ieee: 'ieee',
      mla: 'modern-language-association',
      ama: 'american-medical-association',
      chicago: 'chicago-author-date',
      harvard: 'harvard-cite-them-right',
      vancouver: 'vancouver',
      bibtex: 'bibtex',
    });
    expect(f.locales()).toEqual(expect.arrayContaining(['en-US', 'en-GB']));
  });

  for (const style of CITATION_STYLE_IDS) {
    it(`${style}: one non-empty entry per item of every type, in text, HTML and RTF`, async () => {
      for (const format of ['text', 'html', 'rtf'] as const) {
        const bib = await f.formatBibliography(items, { style, format });
        expect(bib.entries.map((e) => e.id).sort()).toEqual(items.map((i) => i.id).sort());
        for (const e of bib.entries)
          expect(e.value.replace(/<[^>]+>/g, '').trim(), `${style} ${format} ${e.id}`).not.toBe('');
        if (format === 'html') expect(bib.document).toMatch(/^<div class="(csl-bib-body|bibtex)">/);
        // No entry fell back to escaped text: all of citeproc's markup is in the allowlist (html.ts).
        if (format === 'html' && style !== 'bibtex')
          for (const e of bib.entries) expect(e.value, e.id).toMatch(/^<div class="csl-entry">[^]*<\/div>$/);
        if (format === 'rtf') expect(bib.document).toMatch(/^\{\\rtf1\\ansi/);
        if (format === 'rtf') expect(bib.document.endsWith('}')).toBe(true);
      }
    });
  }

  it('formats known entries as the styles prescribe', async () => {
    const book = items.filter((i) => i.id === 'book' || i.id === 'article-journal');
    const apa = await f.formatBibliography(book, { style: 'apa' });
    expect(apa.document).toBe(
      'Dubois, C. (2018). Reading the scientific record (2nd ed.). Oxford University Press.\n' +
        'Nguyen, T. L., Okafor, C., & Müller, J. (2021). Citation evidence in practice. Journal of Informetrics, 15(2), 101–118. https://doi.org/10.1016/j.joi.2021.101118',
    );
    const ieee = await f.formatBibliography(book, { style: 'ieee' });
    expect(ieee.entries.map((e) => e.value.slice(0, 4))).toEqual(['[1] ', '[2] ']);
    const html = await f.formatBibliography(book, { style: 'apa', format: 'html' });
    expect(html.entries[0]!.value).toBe(
      '<div class="csl-entry">Dubois, C. (2018). <i>Reading the scientific record</i> (2nd ed.). Oxford University Press.</div>',
    );
  });

  it('disambiguates the same author and year with a suffix', async () => {
    const bib = await f.formatBibliography(
      items.filter((i) => i.id.startsWith('dis-')),
      { style: 'apa' },
    );
    expect(bib.entries.map((e) => e.value.slice(0, 18))).toEqual(['Smith, J. (2020a).', 'Smith, J. (2020b).']);
  });

  it('honours the locale: en-GB dates and quotes differ from en-US', async () => {
    const post = items.filter((i) => i.id === 'article-newspaper');
    const us = await f.formatBibliography(post, { style: 'chicago', locale: 'en-US' });
    const gb = await f.formatBibliography(post, { style: 'chicago', locale: 'en-GB' });
    expect(us.locale).toBe('en-US');
    expect(gb.locale).toBe('en-GB');
    expect(us.document).toContain('November 3');
    expect(gb.document).toContain('3 November');
    // A bare language resolves to its primary dialect; an unknown one is refused.
    expect((await f.formatBibliography(post, { style: 'apa', locale: 'de' })).locale).toBe('de-DE');
    await expect(f.formatBibliography(post, { style: 'apa', locale: 'xx-YY' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    // Harvard (Cite Them Right) is a British style: its default locale is en-GB.
    expect((await f.formatBibliography(post, { style: 'harvard' })).locale).toBe('en-GB');
  });

  it('refuses unknown styles, formats and malformed items with coded errors', async () => {
    await expect(f.formatBibliography(items, { style: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(f.formatBibliography(items, { style: 'apa', format: 'pdf' as never })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(f.formatBibliography([{ title: 'x' } as unknown as CslItem], { style: 'apa' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const dup = [items[0]!, { ...items[1]!, id: items[0]!.id }];
    await expect(f.formatBibliography(dup, { style: 'apa' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('writes BibTeX for the bibtex style, keyed by citation key', async () => {
    const bib = await f.formatBibliography([{ ...items.find((i) => i.id === 'book')!, 'citation-key': 'dubois2018' }], {
      style: 'bibtex',
    });
    expect(bib.document).toMatch(/^@book\{dubois2018,/);
    expect(bib.document).toContain('title = {Reading the scientific record}');
  });

  it('writes the bibtex style with Export’s writer: the same entry byte for byte, UTF-8 and month macros', async () => {
    const item: CslItem = {
      id: 'mueller2021',
      type: 'article-journal',
      'citation-key': 'mueller2021',
      title: 'Über {DNA} repair',
      author: [{ family: 'Müller', given: 'Jörg' }],
      'container-title': 'Nature',
      issued: { 'date-parts': [[2021, 3]] },
    };
    const bib = await f.formatBibliography([item], { style: 'bibtex' });
    expect(bib.document).toBe(toBibtex([item]).trim());
    expect(bib.document).toContain('Müller, Jörg');
    expect(bib.document).toMatch(/month = mar\b/);
    expect(bib.document).not.toContain('{\\"');
  });
});

describe('in-text citations', () => {
  it('formats a single citation with a locator and a grouped one', async () => {
    const context = items.filter((i) => ['book', 'chapter', 'dis-a', 'dis-b'].includes(i.id));
    expect(
      (await f.formatCitation(context, { id: 'book', locator: '12', label: 'page' }, { style: 'apa' })).value,
    ).toBe('(Dubois, 2018, p. 12)');
    expect((await f.formatCitation(context, 'book', { style: 'apa' })).value).toBe('(Dubois, 2018)');
    const grouped = await f.formatCitation(context, [{ id: 'dis-a' }, { id: 'dis-b' }, { id: 'book' }], {
      style: 'apa',
    });
    expect(grouped.value).toBe('(Dubois, 2018; Smith, 2020a, 2020b)');
    // The whole corpus is the context: Dubois directed a 2018 film too, so the book becomes 2018b.
    expect((await f.formatCitation(items, 'book', { style: 'apa' })).value).toBe('(Dubois, 2018b)');
  });

  it('numbers citations as the bibliography does, and collapses ranges in numeric styles', async () => {
    const three = items.slice(0, 4);
    const ieee = await f.formatCitations(
      three,
      [[{ id: three[0]!.id }], [{ id: three[1]!.id }, { id: three[2]!.id }, { id: three[3]!.id }]],
      { style: 'ieee' },
    );
    expect(ieee.map((c) => c.value)).toEqual(['[1]', '[2], [3], [4]']);
    const vancouver = await f.formatCitation(
      three,
      [{ id: three[1]!.id }, { id: three[2]!.id }, { id: three[3]!.id }],
      { style: 'vancouver' },
    );
    expect(vancouver.value).toBe('(2–4)');
  });

  it('formats citations in every style and format, and \\cite for bibtex', async () => {
    for (const style of CITATION_STYLE_IDS) {
      for (const format of ['text', 'html', 'rtf'] as const) {
        const c = await f.formatCitation(items, [{ id: 'book' }, { id: 'chapter' }], { style, format });
        expect(c.value.length, `${style} ${format}`).toBeGreaterThan(2);
      }
    }
    expect((await f.formatCitation(items, [{ id: 'book' }, { id: 'chapter' }], { style: 'bibtex' })).value).toBe(
      '\\cite{book,chapter}',
    );
  });

  it('refuses a citation of an item outside the context', async () => {
    await expect(f.formatCitation(items.slice(0, 2), 'book', { style: 'apa' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(f.formatCitation(items, [], { style: 'apa' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
