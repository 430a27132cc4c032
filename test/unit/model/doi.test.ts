import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidDoiError,
  normalizeDoi,
  normalizeDois,
  normalizeIssns,
  parseDoi,
  parseIssn,
  writtenDoi,
} from '../../../shared/model/doi';
import { importText } from '../../../electron/core/formats';

describe('normalizeDoi', () => {
  it.each([
    ['10.1000/ABC.def', '10.1000/abc.def'],
    ['  10.1000/xyz  ', '10.1000/xyz'],
    ['doi:10.1000/XYZ', '10.1000/xyz'],
    ['DOI: 10.1000/xyz', '10.1000/xyz'],
    ['https://doi.org/10.1000/xyz', '10.1000/xyz'],
    ['http://dx.doi.org/10.1000/xyz', '10.1000/xyz'],
    ['doi.org/10.1000/xyz', '10.1000/xyz'],
    ['https://doi.org/10.1000%2Fxyz', '10.1000/xyz'],
    [
      '10.5002/(SICI)2512-9163(198501)13:1<13::AID-CCI13>3.0.CO;2-M',
      '10.5002/(sici)2512-9163(198501)13:1<13::aid-cci13>3.0.co;2-m',
    ],
    ['10.1000.5/sub.registrant', '10.1000.5/sub.registrant'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizeDoi(input)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['11.1000/xyz', 'starts with "10."'],
    ['10.1000', 'no "/"'],
    ['10.12/xyz', 'at least four digits'],
    ['10.1000/has space', 'space'],
    ['https://example.org/10.1000/xyz', 'starts with "10."'],
  ])('rejects %j with a reason that explains it', (input, fragment) => {
    const parsed = parseDoi(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(fragment);
    expect(() => normalizeDoi(input)).toThrow(InvalidDoiError);
  });

  it('quotes the input in the error message', () => {
    expect(() => normalizeDoi('not a doi')).toThrow(/"not a doi" is not a valid DOI/);
  });

  it('is idempotent and lower-case for any valid DOI', () => {
    const suffix = fc.stringMatching(/^[A-Za-z0-9._;()\-:<>]{1,40}$/);
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 999999999 }), suffix, (registrant, s) => {
        const once = normalizeDoi(`https://doi.org/10.${registrant}/${s}`);
        expect(normalizeDoi(once)).toBe(once);
        expect(once).toBe(once.toLowerCase());
      }),
    );
  });

  it('de-duplicates lists after normalising and keeps every rejected input', () => {
    const { dois, invalid } = normalizeDois(['10.1000/A', 'doi:10.1000/a', 'bad', '10.1000/b']);
    expect(dois).toEqual(['10.1000/a', '10.1000/b']);
    expect(invalid).toEqual([{ input: 'bad', reason: expect.any(String) }]);
  });
});

describe('ISSNs', () => {
  it('accepts valid check digits in any common spelling', () => {
    expect(parseIssn('0028-0836')).toEqual({ ok: true, issn: '0028-0836' });
    expect(parseIssn('00280836')).toEqual({ ok: true, issn: '0028-0836' });
    expect(parseIssn('ISSN 1476-4687')).toEqual({ ok: true, issn: '1476-4687' });
    expect(parseIssn('2049-369x')).toEqual({ ok: true, issn: '2049-369X' });
  });

  it('rejects a wrong check digit and a wrong shape', () => {
    expect(parseIssn('0028-0837')).toMatchObject({ ok: false, reason: expect.stringContaining('check digit') });
    expect(parseIssn('123')).toMatchObject({ ok: false, reason: expect.stringContaining('eight characters') });
  });

  it('normalises lists', () => {
    expect(normalizeIssns(['0028-0836', '00280836', 'x'])).toEqual({
      issns: ['0028-0836'],
      invalid: [{ input: 'x', reason: expect.any(String) }],
    });
  });
});

describe('writtenDoi', () => {
  it('keeps the case the user wrote, without resolver prefixes or escapes, and refuses what parseDoi refuses', () => {
    expect(writtenDoi('10.1038/NATURE12373')).toBe('10.1038/NATURE12373');
    expect(writtenDoi(' https://doi.org/10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F ')).toBe(
      '10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F',
    );
    expect(writtenDoi('doi:10.1000%2FABC')).toBe('10.1000/ABC');
    expect(writtenDoi('10.1000')).toBeNull();
    expect(writtenDoi('doi:')).toBeNull();
  });

  it('is the normalised DOI once lower-cased, for any valid DOI', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^10\.\d{4,6}\/[A-Za-z0-9.;()<>:_-]{1,20}$/),
        fc.constantFrom('', 'doi:', 'https://doi.org/', 'http://dx.doi.org/'),
        (doi, prefix) => {
          const parsed = parseDoi(prefix + doi);
          expect(parsed.ok).toBe(true);
          expect(writtenDoi(prefix + doi)!.toLowerCase()).toBe(parsed.ok ? parsed.doi : '');
        },
      ),
    );
  });
});

describe('every importer keeps the DOI as written', () => {
  it('in BibTeX, RIS and CSL-JSON', () => {
    const doi = '10.1038/NATURE12373';
    const texts = [
      `@article{a, title = {T}, author = {Doe, Jane}, year = {2020}, doi = {https://doi.org/${doi}}}`,
      `TY  - JOUR\nTI  - T\nAU  - Doe, Jane\nPY  - 2020\nDO  - ${doi}\nER  - \n`,
      JSON.stringify([{ id: 'a', type: 'article-journal', title: 'T', DOI: `doi:${doi}` }]),
    ];
    for (const text of texts) {
      const result = importText(text);
      expect(
        result.items.map((i) => i.item.DOI),
        text.slice(0, 20),
      ).toEqual([doi]);
    }
  });
});
