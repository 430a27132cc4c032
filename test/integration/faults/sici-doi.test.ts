// Issue 41, point 7: a SICI DOI (old Wiley and Elsevier articles) read from a PDF's page text or a
// pasted reference list was cut at its first "<": 10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F
// became 10.1002/(SICI)1097-4636(199706)35:4, a DOI that resolves to nothing (or to another article).
import { describe, expect, it } from 'vitest';
import { importDoiList } from '../../../electron/core/formats/doi-list/import';
import { DEFAULT_LIMITS } from '../../../electron/core/formats/limits';
import { findIds } from '../../../electron/core/pdf/identifiers';

const SICI = '10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F';
const SICI2 = '10.1016/S0006-3495(98)77504-2';
const SICI3 = '10.1002/(SICI)1521-4095(199802)10:3<255::AID-ADMA255>3.0.CO;2-S';

describe('SICI DOIs in text', () => {
  it('page text of a PDF: the whole SICI, with its angle brackets', () => {
    // As pdf.js gives a 1998 Wiley article's first page: running header, then the DOI line.
    const page = `J Biomed Mater Res, 35, 479–486 (1997)\nCCC 0021-9304/97/040479-08\ndoi: ${SICI}.\nReceived 12 March 1996`;
    expect(findIds(page).map((f) => f.written)).toEqual([SICI]);
    expect(findIds(`See ${SICI3}, and ${SICI2}.`).map((f) => f.written)).toEqual([SICI3, SICI2]);
  });

  it('a pasted reference list: the whole SICI; an HTML tag after an ordinary DOI is still not part of it', () => {
    const text = `Smith J. Biomaterials. J Biomed Mater Res. 1997;35:479. doi:${SICI}\nJones K. <a href="x">10.1000/abc123</a><br>\n`;
    const r = importDoiList(text, DEFAULT_LIMITS);
    expect(r.dois?.map((d) => d.doi)).toEqual([SICI.toLowerCase(), '10.1000/abc123']);
  });

  it('angle brackets without "::" end a DOI as before', () => {
    expect(findIds('10.1000/xyz<b>bold</b>').map((f) => f.written)).toEqual(['10.1000/xyz']);
    expect(findIds('<10.1000/xyz>').map((f) => f.written)).toEqual(['10.1000/xyz']);
  });
});
