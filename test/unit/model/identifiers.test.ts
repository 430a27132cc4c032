import { describe, expect, it } from 'vitest';
import {
  arxivFields,
  identifierLabel,
  MAX_IDENTIFIER_LENGTH,
  parseArxivId,
  parseIdentifier,
  parseIsbn,
  splitIdentifiers,
  type Identifier,
} from '../../../shared/model/identifiers';

const kind = (input: string): string => parseIdentifier(input).kind;
const reason = (input: string): string => {
  const id = parseIdentifier(input);
  return id.kind === 'invalid' ? id.reason : `(valid ${id.kind})`;
};

describe('arXiv ids', () => {
  it('reads new-style ids with and without a version, and their DOI (derived offline)', () => {
    expect(parseIdentifier('2101.00001v2')).toEqual({
      kind: 'arxiv',
      input: '2101.00001v2',
      id: '2101.00001',
      version: 2,
      doi: '10.48550/arxiv.2101.00001',
      written: '10.48550/arXiv.2101.00001',
    });
    for (const written of [
      'arXiv:2101.00001',
      'arxiv: 2101.00001',
      'https://arxiv.org/abs/2101.00001',
      'arxiv.org/pdf/2101.00001v3.pdf',
      'http://export.arxiv.org/abs/2101.00001v1/',
      '10.48550/arXiv.2101.00001',
      'https://doi.org/10.48550/arXiv.2101.00001',
    ])
      expect(parseIdentifier(written)).toMatchObject({ kind: 'arxiv', id: '2101.00001' });
  });

  it('reads old-style ids, dropping the subject class as arXiv does', () => {
    expect(parseIdentifier('hep-th/9901001')).toMatchObject({
      kind: 'arxiv',
      id: 'hep-th/9901001',
      version: null,
      written: '10.48550/arXiv.hep-th/9901001',
    });
    expect(parseIdentifier('arXiv:math.GT/0309136v2')).toMatchObject({ id: 'math/0309136', version: 2 });
    expect(reason('foo-bar/9901001')).toContain('not an arXiv archive');
  });

  it('knows when each scheme was in use: both sides of every boundary', () => {
    // New scheme from April 2007; four digits after the dot until December 2014, five from January 2015.
    expect(parseArxivId('0703.1234').ok).toBe(false);
    expect(parseArxivId('0704.0001').ok).toBe(true);
    expect(parseArxivId('0705.0001').ok).toBe(true);
    expect(parseArxivId('1412.1234').ok).toBe(true);
    expect(parseArxivId('1412.12345')).toMatchObject({ ok: false, reason: expect.stringContaining('4 digits') });
    expect(parseArxivId('1501.1234')).toMatchObject({ ok: false, reason: expect.stringContaining('5 digits') });
    expect(parseArxivId('1501.00001').ok).toBe(true);
    expect(parseArxivId('2100.00001')).toMatchObject({ ok: false, reason: expect.stringContaining('not a month') });
    expect(parseArxivId('2113.00001').ok).toBe(false);
    expect(parseArxivId('2112.00001').ok).toBe(true);
    // Old scheme from August 1991 to March 2007.
    expect(parseArxivId('hep-th/9107001').ok).toBe(false);
    expect(parseArxivId('hep-th/9108001').ok).toBe(true);
    expect(parseArxivId('hep-th/0703001').ok).toBe(true);
    expect(parseArxivId('hep-th/0704001').ok).toBe(false);
  });

  it('gives an item its arXiv number, link and version', () => {
    const id = parseIdentifier('2101.00001v2') as Extract<Identifier, { kind: 'arxiv' }>;
    expect(arxivFields(id)).toEqual({
      number: 'arXiv:2101.00001',
      URL: 'https://arxiv.org/abs/2101.00001v2',
      version: '2',
    });
    expect(identifierLabel(id)).toBe('arXiv:2101.00001v2');
  });
});

describe('ISBNs', () => {
  it('checks the check digit of ISBN-10 and ISBN-13 and keeps the ISBN-13', () => {
    expect(parseIsbn('0-306-40615-2')).toEqual({ ok: true, isbn13: '9780306406157', isbn10: '0306406152' });
    expect(parseIsbn('978-0-306-40615-7')).toEqual({ ok: true, isbn13: '9780306406157', isbn10: '0306406152' });
    expect(parseIsbn('ISBN 0-8044-2957-X')).toMatchObject({ ok: true, isbn10: '080442957X' });
    expect(parseIsbn('0-306-40615-3')).toMatchObject({ ok: false, reason: expect.stringContaining('should be 2') });
    expect(parseIsbn('978-0-306-40615-8')).toMatchObject({ ok: false, reason: expect.stringContaining('should be 7') });
    // 979 books have no ISBN-10; other prefixes are not ISBNs.
    expect(parseIsbn('979-10-90636-07-1')).toEqual({ ok: true, isbn13: '9791090636071', isbn10: null });
    expect(parseIsbn('977-0-306-40615-7')).toMatchObject({ ok: false, reason: 'An ISBN-13 starts with 978 or 979.' });
  });

  it('counts digits: 9 and 11 are refused, 10 and 13 read', () => {
    expect(parseIsbn('030640615').ok).toBe(false);
    expect(parseIsbn('0306406152').ok).toBe(true);
    expect(parseIsbn('03064061521')).toMatchObject({ ok: false, reason: expect.stringContaining('has 11') });
    expect(parseIsbn('9780306406157').ok).toBe(true);
  });

  it('reads an ISBN written with spaces or a label in the box', () => {
    expect(kind('ISBN-13: 978 0 306 40615 7')).toBe('isbn');
    expect(kind('0306406152')).toBe('isbn');
    expect(reason('0306406153')).toContain('check digit');
  });
});

describe('PubMed ids', () => {
  it('reads PMIDs and PMCIDs, bare, labelled or as links', () => {
    expect(parseIdentifier('PMID: 31452104')).toMatchObject({ kind: 'pmid', pmid: '31452104' });
    expect(parseIdentifier('https://pubmed.ncbi.nlm.nih.gov/31452104/')).toMatchObject({ pmid: '31452104' });
    expect(parseIdentifier('31452104')).toMatchObject({ kind: 'pmid' });
    expect(parseIdentifier('PMC6704497')).toMatchObject({ kind: 'pmcid', pmcid: 'PMC6704497' });
    expect(parseIdentifier('pmcid: pmc6704497')).toMatchObject({ pmcid: 'PMC6704497' });
    expect(parseIdentifier('https://www.ncbi.nlm.nih.gov/pmc/articles/PMC6704497/')).toMatchObject({
      pmcid: 'PMC6704497',
    });
    expect(parseIdentifier('https://pmc.ncbi.nlm.nih.gov/articles/PMC6704497/')).toMatchObject({ kind: 'pmcid' });
  });

  it('takes one to nine digits as a PMID; ten are an ISBN-10 and zero is nothing', () => {
    expect(kind('1')).toBe('pmid');
    expect(kind('123456789')).toBe('pmid');
    expect(kind('1234567890')).not.toBe('pmid');
    expect(reason('PMID: 0')).toContain('one to nine digits');
    expect(reason('PMID: 1234567890')).toContain('one to nine digits');
    expect(reason('PMC')).not.toBe('(valid pmcid)');
  });
});

describe('anything else', () => {
  it('keeps DOIs as DOIs, with their reasons when malformed', () => {
    expect(parseIdentifier('https://doi.org/10.1038/NATURE12373')).toMatchObject({
      kind: 'doi',
      doi: '10.1038/nature12373',
      written: '10.1038/NATURE12373',
    });
    expect(parseIdentifier('10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F')).toMatchObject({
      kind: 'doi',
    });
    expect(reason('10.12/x')).toContain('at least four digits');
  });

  it('says what it accepts for anything it does not recognise, and refuses long pastes', () => {
    expect(reason('nonsense')).toContain('not a DOI (10.1000/xyz), an arXiv id');
    expect(reason('')).toBe('It is empty.');
    expect(kind(`10.1000/${'x'.repeat(MAX_IDENTIFIER_LENGTH - 8)}`)).toBe('doi');
    expect(reason(`10.1000/${'x'.repeat(MAX_IDENTIFIER_LENGTH - 7)}`)).toContain('longer than');
  });

  it('splits a mixed paste: one per line, or spaces and commas, labels kept with their value, repeats once', () => {
    expect(
      splitIdentifiers(
        [
          '10.1038/nature12373, arXiv:2101.00001v2',
          'PMID: 31452104',
          'ISBN 978 0 306 40615 7',
          'hep-th/9901001 PMC6704497',
          'https://doi.org/10.1038/NATURE12373',
          '10.48550/arXiv.2101.00001',
          '',
          'pmid 31452104',
        ].join('\n'),
      ),
    ).toEqual([
      '10.1038/nature12373',
      'arXiv:2101.00001v2',
      'PMID: 31452104',
      'ISBN 978 0 306 40615 7',
      'hep-th/9901001',
      'PMC6704497',
    ]);
    expect(splitIdentifiers('  \n ,')).toEqual([]);
  });
});
