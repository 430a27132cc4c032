// Issue 32: Mendeley types (book section, web page, newspaper article, …) imported as "document".
// Mendeley names its types so in its API and in the CSL-JSON its tools write ("book_section",
// "web_page"), and its desktop app shows them as "Book Section", "Web Page".
import { describe, expect, it } from 'vitest';
import { importText, toBibtex } from '../../../electron/core/formats';

const TYPES: [string, string][] = [
  ['book_section', 'chapter'],
  ['web_page', 'webpage'],
  ['newspaper_article', 'article-newspaper'],
  ['magazine_article', 'article-magazine'],
  ['conference_proceedings', 'paper-conference'],
  ['working_paper', 'report'],
  ['computer_program', 'software'],
  ['encyclopedia_article', 'entry-encyclopedia'],
  ['television_broadcast', 'broadcast'],
  ['journal', 'article-journal'],
  ['generic', 'document'],
  ['Book Section', 'chapter'],
  ['Web Page', 'webpage'],
];

describe('Mendeley types', () => {
  it('map to their CSL types in CSL-JSON, without a warning', () => {
    const json = JSON.stringify(
      TYPES.map(([type], n) => ({ id: `m${n}`, type, title: `Item ${n}`, author: [{ family: 'Doe', given: 'Jane' }] })),
    );
    const r = importText(json, { format: 'csljson' });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.items.map((i) => i.item.type)).toEqual(TYPES.map(([, csl]) => csl));
  });

  it('map in BibTeX entry types too, and export as BibTeX types', () => {
    const r = importText('@book_section{c, title = {A chapter}, booktitle = {A book}, year = 2020}', {
      format: 'bibtex',
    });
    expect(r.warnings).toEqual([]);
    expect(r.items[0]!.item.type).toBe('chapter');
    expect(toBibtex([r.items[0]!.item])).toMatch(/^@incollection\{c,/);
  });

  it('still reports a type that is neither CSL nor Mendeley', () => {
    const r = importText(JSON.stringify([{ id: 'x', type: 'scroll', title: 'T' }]), { format: 'csljson' });
    expect(r.items[0]!.item.type).toBe('document');
    expect(r.warnings).toHaveLength(1);
  });
});
