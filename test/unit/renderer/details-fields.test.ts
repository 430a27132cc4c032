// The details column's pure logic: field lists per type, reading and writing fields as text (dates
// above all), creators as rows kept in order with their particles, the tally's distinct empty states,
// the notice banner's precedence, links only to doi.org or http(s), and safe download names.
import { describe, expect, it } from 'vitest';
import { fileName, isBibliography } from '../../../renderer/src/panes/library/export/choices';
import {
  showsMarkup,
  ageText,
  applyCreators,
  applyField,
  MULTILINE_FIELDS,
  creatorsFromCsl,
  doiUrl,
  fieldsFor,
  moveItem,
  noticeBanner,
  noticeDate,
  parseDate,
  readField,
  safeUrl,
  tallyView,
} from '../../../renderer/src/panes/library/details/fields';
import type { CslItem } from '../../../shared/model/csl';

const article: CslItem = {
  id: 'a',
  type: 'article-journal',
  title: 'On <i>E. coli</i>',
  'container-title': 'Journal',
  issued: { 'date-parts': [[2021, 3, 9]] },
  author: [{ family: 'Beethoven', given: 'Ludwig', 'non-dropping-particle': 'van' }, { literal: 'WHO Consortium' }],
  editor: [{ family: 'Doe', given: 'Jane' }],
  translator: [{ family: 'Kept', given: 'As is' }],
  'original-publisher': 'Odd field',
  custom: { x: 1 },
};

describe('details fields', () => {
  it('lists the fields of a type, then any other scalar field the item has', () => {
    const keys = fieldsFor('article-journal', article).map((f) => f.key);
    expect(keys.slice(0, 4)).toEqual(['title', 'title-short', 'container-title', 'container-title-short']);
    expect(keys).toContain('DOI');
    expect(keys).toContain('original-publisher');
    expect(keys).not.toContain('custom');
    expect(keys).not.toContain('abstract');
    expect(fieldsFor('book').map((f) => f.key)).toContain('ISBN');
    expect(fieldsFor('dataset').length).toBeGreaterThan(5);
  });

  it('reads and writes dates as text, keeping what it cannot parse as a literal', () => {
    expect(readField(article, 'issued')).toBe('2021-03-09');
    expect(parseDate('2020')).toEqual({ 'date-parts': [[2020]] });
    expect(parseDate('2020-5')).toEqual({ 'date-parts': [[2020, 5]] });
    expect(parseDate('2020-13-01')).toEqual({ literal: '2020-13-01' });
    expect(parseDate('Spring 2020')).toEqual({ literal: 'Spring 2020' });
    expect(readField({ id: 'x', type: 'book', issued: { literal: 'n.d.' } }, 'issued')).toBe('n.d.');
    expect(applyField(article, 'issued', '1999-12').issued).toEqual({ 'date-parts': [[1999, 12]] });
  });

  it('sets a field from trimmed text and removes it when emptied, leaving the input untouched', () => {
    const next = applyField(article, 'volume', ' 12 ');
    expect(next.volume).toBe('12');
    expect(article.volume).toBeUndefined();
    expect('container-title' in applyField(article, 'container-title', '   ')).toBe(false);
  });

  // Issue 32: Enter in the Title field inserted a newline that was saved into the title.
  it('saves a title (any one-line field) without line breaks; the abstract and Extra keep theirs', () => {
    expect(applyField(article, 'title', 'Deep learning\nfor proteins\n').title).toBe('Deep learning for proteins');
    expect(applyField(article, 'title', 'A study of  \r\n  folding').title).toBe('A study of folding');
    expect(applyField(article, 'container-title', 'Nature\nMethods').title).toBe(article.title);
    expect(applyField(article, 'container-title', 'Nature\nMethods')['container-title']).toBe('Nature Methods');
    expect(applyField(article, 'abstract', 'One.\n\nTwo.').abstract).toBe('One.\n\nTwo.');
    expect(applyField(article, 'note', 'tex.x: 1\ntex.y: 2').note).toBe('tex.x: 1\ntex.y: 2');
    expect(MULTILINE_FIELDS.has('title')).toBe(false);
  });

  it('edits creators as ordered rows, keeping particles and roles it does not edit', () => {
    const rows = creatorsFromCsl(article);
    expect(rows.map((r) => [r.role, r.single, r.family || r.literal])).toEqual([
      ['author', false, 'Beethoven'],
      ['author', true, 'WHO Consortium'],
      ['editor', false, 'Doe'],
      ['translator', false, 'Kept'],
    ]);
    const reordered = moveItem(rows, 1, 0);
    reordered[2] = { ...reordered[2]!, role: 'author' };
    const next = applyCreators(article, [
      ...reordered,
      { role: 'author', single: false, family: ' ', given: '', literal: '', rest: {} },
    ]);
    expect(next.author).toEqual([
      { literal: 'WHO Consortium' },
      { 'non-dropping-particle': 'van', family: 'Beethoven', given: 'Ludwig' },
      { family: 'Doe', given: 'Jane' },
    ]);
    expect(next.editor).toBeUndefined();
    expect(next.translator).toEqual([{ family: 'Kept', given: 'As is' }]);
    expect(moveItem([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
  });

  it('tells apart no DOI, not fetched, unknown and a real zero, with the age', () => {
    const now = Date.UTC(2026, 0, 10);
    expect(tallyView(null, { state: 'not-fetched' }, now).kind).toBe('no-doi');
    expect(tallyView('10.1/x', { state: 'not-fetched' }, now)).toEqual({
      kind: 'not-fetched',
      message: 'Citation evidence not fetched yet.',
    });
    expect(tallyView('10.1/x', { state: 'unknown', fetchedAt: now - 3 * 86400_000 }, now)).toMatchObject({
      kind: 'unknown',
      age: '3 days ago',
    });
    const zero = tallyView(
      '10.1/x',
      {
        state: 'found',
        fetchedAt: now - 90_000,
        total: 0,
        supporting: 0,
        contrasting: 0,
        mentioning: 0,
        unclassified: 0,
        citingPublications: null,
      },
      now,
    );
    expect(zero).toMatchObject({
      kind: 'found',
      total: 0,
      message: 'No citation statements yet.',
      age: '1 minute ago',
    });
    expect(ageText(now - 2 * 3600_000, now)).toBe('2 hours ago');
    expect(ageText(now + 5000, now)).toBe('just now');
  });

  it('puts a retraction above a withdrawal above an expression of concern, and ignores corrections', () => {
    expect(noticeBanner([{ status: 'Has erratum' }, { status: 'Has correction' }], false)).toBeNull();
    expect(noticeBanner([{ status: 'Has expression of concern', date: '2020-1-2' }], null)?.severity).toBe('concern');
    expect(noticeBanner([{ status: 'Has expression of concern' }, { status: 'Withdrawn' }], null)?.severity).toBe(
      'withdrawn',
    );
    expect(noticeBanner([{ status: 'Withdrawn' }, { status: 'Retracted', date: '2021-2-1' }], null)).toMatchObject({
      severity: 'retracted',
      text: expect.stringContaining('of 1 February 2021'),
    });
    expect([
      noticeDate('1986-9-8'),
      noticeDate('2001-04'),
      noticeDate('2003'),
      noticeDate('2021-2-30'),
      noticeDate('soon'),
    ]).toEqual(['8 September 1986', 'April 2001', '2003', '2021-2-30', 'soon']);
    expect(noticeBanner([], true)?.severity).toBe('retracted');
  });

  it('links only well-formed DOIs to doi.org and only http(s) URLs', () => {
    expect(doiUrl('10.1000/abc(1)<x>')).toBe('https://doi.org/10.1000/abc(1)%3Cx%3E');
    expect(doiUrl('javascript:alert(1)')).toBeNull();
    expect(doiUrl(null)).toBeNull();
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('https://example.org/a')).toBe('https://example.org/a');
  });

  it('names downloads safely and knows which formats are bibliographies', () => {
    expect(fileName('Collection: Thesis/Ch. 1 "draft"', 'bib')).toBe('Collection Thesis Ch. 1 draft.bib');
    expect(fileName('\u0000', '.ris')).toBe('bibliography.ris');
    expect(isBibliography('rtf')).toBe(true);
    expect(isBibliography('csl-json')).toBe(false);
  });
});

describe('rich-text fields', () => {
  it('show a title or journal with markup rendered, and every other value as text to edit', () => {
    expect(showsMarkup('title', 'Modelling <span class="nocase">soil</span> across Europe')).toBe(true);
    expect(showsMarkup('container-title', 'Journal of <i>pH</i>')).toBe(true);
    expect(showsMarkup('title', 'Modelling soil &amp; water')).toBe(true);
    // No markup: the plain field, edited in place.
    expect(showsMarkup('title', 'Modelling soil across Europe')).toBe(false);
    expect(showsMarkup('title', 'a < b and c > d')).toBe(false);
    // Not a rich-text field: the text as written, whatever it holds.
    expect(showsMarkup('note', 'See <i>Table 3</i>')).toBe(false);
    expect(showsMarkup('URL', 'https://example.org/?a=<b>')).toBe(false);
  });
});
