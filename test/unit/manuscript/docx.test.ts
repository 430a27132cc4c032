import { describe, expect, it } from 'vitest';
import { citationsOfField, DocxError, fieldInstructions, parseDocx } from '../../../electron/core/manuscript/docx';
import { ZipError, ZipReader } from '../../../electron/core/manuscript/zip';
import { docx, paragraph, zip, zoteroField } from './docx-fixture';

const walker = {
  type: 'article-journal',
  title: 'Why We Sleep: <i>a</i> review & more',
  DOI: '10.1000/WALKER.2017',
  author: [{ family: 'Walker', given: 'Matthew' }],
  issued: { 'date-parts': [['2017']] },
};
const rasch = {
  type: 'article-journal',
  title: 'About sleep’s role in memory',
  'citation-key': 'rasch2013',
  issued: { 'date-parts': [[2013]] },
};
const noDoi = { type: 'book', title: 'A Book Without Identifiers', note: 'Citation Key: booky2001\nother: x' };

describe('parseDocx (Zotero fields)', () => {
  it('reads fields split over many instrText runs, in the body and in footnotes, with the paragraph', () => {
    const file = docx(
      [
        paragraph('Introduction'),
        paragraph(
          'Sleep consolidates memory ',
          zoteroField(
            [{ itemData: walker }, { itemData: rasch, locator: '12' }],
            '(Walker, 2017; Rasch & Born, 2013)',
            40,
          ),
          '.',
        ),
        paragraph('See ', zoteroField([{ itemData: noDoi }], '(A Book, 2001)', 255, 'zz')),
        // Another field (a page reference) is not a citation.
        paragraph(
          '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGEREF _Toc1 \\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>',
        ),
        // Zotero's bibliography field is not a citation either.
        paragraph(
          '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ADDIN ZOTERO_BIBL {"uncited":[],"omitted":[],"custom":[]} CSL_BIBLIOGRAPHY </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>',
        ),
      ],
      [paragraph(zoteroField([{ itemData: walker }], 'Walker, 2017', 100))],
    );
    const r = parseDocx(file);
    expect(r.citations).toEqual([
      {
        key: undefined,
        doi: '10.1000/WALKER.2017',
        title: 'Why We Sleep: <i>a</i> review & more',
        line: 2,
        part: 'paragraph',
      },
      { key: 'rasch2013', doi: undefined, title: 'About sleep’s role in memory', line: 2, part: 'paragraph' },
      { key: 'booky2001', doi: undefined, title: 'A Book Without Identifiers', line: 3, part: 'paragraph' },
      {
        key: undefined,
        doi: '10.1000/WALKER.2017',
        title: 'Why We Sleep: <i>a</i> review & more',
        line: 1,
        part: 'footnotes paragraph',
      },
    ]);
  });

  it('decodes XML-escaped JSON (&quot;) and fldSimple fields', () => {
    const xml = `<w:p><w:fldSimple w:instr=" ADDIN ZOTERO_ITEM CSL_CITATION {&quot;citationItems&quot;:[{&quot;itemData&quot;:{&quot;title&quot;:&quot;T &amp; U&quot;}}]} "/></w:p>`;
    const [f] = fieldInstructions(xml);
    expect(citationsOfField(f!.instruction)).toEqual([{ key: undefined, doi: undefined, title: 'T & U' }]);
  });

  it('reads Mendeley-style ADDIN CSL_CITATION too, and says which paragraph has broken JSON', () => {
    expect(citationsOfField(' ADDIN CSL_CITATION {"citationItems":[{"itemData":{"DOI":"10.1/x"}}]} ')).toEqual([
      { key: undefined, doi: '10.1/x', title: undefined },
    ]);
    const broken = docx([
      paragraph('x'),
      paragraph(
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> ADDIN ZOTERO_ITEM CSL_CITATION {"citationItems":[ </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>',
      ),
    ]);
    expect(() => parseDocx(broken)).toThrow(/word\/document\.xml, paragraph 2: a citation field's JSON cannot be read/);
  });

  it('refuses what is not a Word package, saying why', () => {
    expect(() => parseDocx(Buffer.from('just text, not a zip at all.....'))).toThrow(DocxError);
    expect(() => parseDocx(Buffer.from('just text, not a zip at all.....'))).toThrow(/no end of central directory/);
    expect(() => parseDocx(zip({ 'a.txt': 'x' }))).toThrow(/not a Word document \(it has no word\/document\.xml\)/);
    const whole = docx([paragraph('x')]);
    // Truncated: the central directory points past what is left.
    const cut = Buffer.concat([whole.subarray(0, 40), whole.subarray(whole.length - 22)]);
    expect(() => parseDocx(cut)).toThrow(/truncated or damaged|damaged/);
  });
});

describe('ZipReader', () => {
  it('caps what an entry may unpack to', () => {
    const z = new ZipReader(zip({ 'big.xml': 'a'.repeat(10_000) }));
    expect(z.read('big.xml', 10_000)!.length).toBe(10_000);
    expect(() => z.read('big.xml', 9_999)).toThrow(ZipError);
    expect(z.read('missing.xml', 10)).toBeNull();
  });

  it('does not trust a declared size that is smaller than the data', () => {
    const buf = zip({ 'lie.xml': 'b'.repeat(5000) });
    // Patch both declared sizes down to 10 bytes.
    const cd = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    buf.writeUInt32LE(10, cd + 24);
    buf.writeUInt32LE(10, 22);
    expect(() => new ZipReader(buf).read('lie.xml', 1_000_000)).toThrow(/cannot be unpacked/);
  });
});
