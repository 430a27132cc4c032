import { describe, expect, it } from 'vitest';
import { exportItems } from '../../../electron/core/formats';
import type { CslItem } from '../../../shared/model/csl';

const ITEM: CslItem = {
  id: 'franklin1953',
  'citation-key': 'franklin1953',
  type: 'article-journal',
  title: 'Molecular configuration in sodium thymonucleate',
  author: [{ family: 'Franklin', given: 'Rosalind' }],
  issued: { 'date-parts': [[1953]] },
};
const NOTES = [
  '<h1>Photo 51</h1><p>See <a href="https://example.org/51">the photo</a>, 50% &amp; more.</p>',
  '<ul><li>first</li><li>second</li></ul>',
];

describe('notes in exports', () => {
  it('RIS: an N1 line per note, HTML on one line, before ER', () => {
    const ris = exportItems([ITEM], 'ris', { notes: [NOTES] });
    expect(ris).toContain(`N1  - ${NOTES[0]}\nN1  - ${NOTES[1]}\nER  - `);
    expect(exportItems([ITEM], 'ris', { notes: [['<p>a</p>\n<p>b</p>']] })).toContain('N1  - <p>a</p> <p>b</p>\n');
  });

  it('BibTeX: the notes’ text in annote, after the item’s own annote; BibLaTeX: annote too (biber reads it as annotation)', () => {
    const bib = exportItems([{ ...ITEM, annote: 'Own annotation' }], 'bibtex', { notes: [NOTES] });
    expect(bib).toContain(
      'annote = {Own annotation\n\nPhoto 51\n\nSee the photo (https://example.org/51), 50\\% \\& more.\n\n- first\n- second}',
    );
    const biblatex = exportItems([ITEM], 'biblatex', { notes: [NOTES] });
    expect(biblatex).toMatch(/annote = \{Photo 51\n\nSee the photo/);
  });

  it('writes nothing for items without notes, or when notes are not asked for', () => {
    const plain = exportItems([ITEM], 'bibtex');
    expect(exportItems([ITEM], 'bibtex', { notes: [[]] })).toBe(plain);
    expect(exportItems([ITEM], 'bibtex', { notes: [['<p> </p>']] })).toBe(plain);
    expect(exportItems([ITEM], 'ris')).not.toContain('N1');
  });

  it('CSL-JSON carries no notes, as Zotero’s does not', () => {
    expect(exportItems([ITEM], 'csljson', { notes: [NOTES] })).not.toContain('Photo 51');
  });
});
