import { describe, expect, it } from 'vitest';
import type { PdfFacts } from '../../../electron/core/pdf/extract';
import { findIds } from '../../../electron/core/pdf/identifiers';
import { identifyById, judgeTitleHits, titleMatchScore } from '../../../electron/core/pdf/identify';

const facts = (over: Partial<PdfFacts>): PdfFacts => ({
  pageCount: 1,
  info: {},
  xmp: null,
  pages: [],
  title: null,
  byline: null,
  ...over,
});

describe('identifiers in text', () => {
  it('finds DOIs (trailing punctuation trimmed) and arXiv ids as arXiv DOIs, each once', () => {
    expect(
      findIds('See https://doi.org/10.1038/Nature12373. Also arXiv:2101.00001v2 and (doi:10.1038/nature12373)'),
    ).toEqual([
      { doi: '10.1038/nature12373', written: '10.1038/Nature12373', kind: 'doi' },
      { doi: '10.48550/arxiv.2101.00001', written: 'arXiv:2101.00001', kind: 'arxiv' },
    ]);
    expect(findIds('arxiv.org/abs/hep-th/9901001')).toMatchObject([{ doi: '10.48550/arxiv.hep-th/9901001' }]);
    // A bare number is not an arXiv id, and 10.12/x has too short a registrant code.
    expect(findIds('Table 2101.00001 and 10.12/x')).toEqual([]);
  });
});

describe('identification by identifier', () => {
  it('takes XMP before the document info, and both before the text', () => {
    const step = identifyById(
      facts({
        xmp: '<prism:doi>10.1234/a.1</prism:doi>',
        info: { Subject: 'doi:10.1234/a.1' },
        pages: [{ page: 1, text: 'doi 10.9999/other' }],
      }),
    );
    expect(step).toMatchObject({
      kind: 'doi',
      method: 'xmp',
      doi: '10.1234/a.1',
      evidence: { method: 'xmp', matched: '10.1234/a.1' },
    });
    expect(identifyById(facts({ info: { doi: '10.1234/b.2' } }))).toMatchObject({
      kind: 'doi',
      method: 'info',
      doi: '10.1234/b.2',
    });
  });

  it('two different DOIs in the metadata, or on the deciding page, are candidates for a person', () => {
    expect(identifyById(facts({ xmp: '10.1234/a.1', info: { Subject: '10.1234/b.2' } }))).toMatchObject({
      kind: 'ambiguous',
      candidates: [
        { doi: '10.1234/a.1', evidence: { method: 'xmp' } },
        { doi: '10.1234/b.2', evidence: { method: 'info' } },
      ],
    });
    expect(identifyById(facts({ pages: [{ page: 1, text: '10.1234/a.1 and 10.1234/b.2' }] }))).toMatchObject({
      kind: 'ambiguous',
      method: 'text',
    });
  });

  it('the first page with an identifier decides, and a later page is less sure', () => {
    const first = identifyById(
      facts({
        pages: [
          { page: 1, text: 'doi:10.1234/p1' },
          { page: 2, text: 'doi:10.1234/p2' },
        ],
      }),
    );
    expect(first).toMatchObject({ kind: 'doi', doi: '10.1234/p1', confidence: 0.9, evidence: { page: 1 } });
    const second = identifyById(
      facts({
        pages: [
          { page: 1, text: 'no identifier' },
          { page: 2, text: 'doi:10.1234/p2' },
        ],
      }),
    );
    expect(second).toMatchObject({ kind: 'doi', doi: '10.1234/p2', confidence: 0.8, evidence: { page: 2 } });
    expect(identifyById(facts({ pages: [{ page: 1, text: 'nothing' }] }))).toEqual({ kind: 'none' });
  });
});

describe('title matching', () => {
  const hit = {
    doi: '10.1/x',
    title: 'Protein folding kinetics on a lattice',
    authors: ['Ada Lovelace', 'Alan Turing'],
  };

  it('scores the same title with an author on the byline 1, and without the author lower', () => {
    expect(titleMatchScore(hit, 'Protein Folding Kinetics on a Lattice', 'A. Lovelace and B. Smith')).toBe(1);
    expect(titleMatchScore(hit, 'Protein Folding Kinetics on a Lattice', 'B. Smith')).toBeCloseTo(0.8);
    expect(titleMatchScore(hit, 'Protein Folding Kinetics on a Lattice', null)).toBe(1);
  });

  it('accepts at 0.85 and above, offers candidates from 0.5, and nothing below', () => {
    // 6 words vs 6 with 5 in common: Dice 10/12 = 0.833, + author 0.2 * 1 → 0.8 * 0.833 + 0.2 = 0.867.
    expect(judgeTitleHits([hit], 'Protein folding kinetics on a cube', 'A. Lovelace')).toMatchObject({
      kind: 'match',
      doi: '10.1/x',
      confidence: 0.867,
    });
    // Without the author: 0.833 < 0.85 → a candidate for review.
    expect(judgeTitleHits([hit], 'Protein folding kinetics on a cube', null)).toMatchObject({
      kind: 'unsure',
      candidates: [{ doi: '10.1/x', score: 0.833 }],
    });
    // 2 of 6 words: 0.333 → not offered.
    expect(judgeTitleHits([hit], 'Protein folding in oceans and climate', null)).toMatchObject({ kind: 'none' });
    // 3 of 6: Dice 0.5 exactly → offered.
    expect(judgeTitleHits([hit], 'Protein folding kinetics in warm oceans', null)).toMatchObject({
      kind: 'unsure',
      candidates: [{ score: 0.5 }],
    });
    expect(judgeTitleHits([], 'Anything', null)).toMatchObject({
      kind: 'none',
      evidence: { detail: 'the paper search found nothing' },
    });
  });

  it('two equally good hits are not a match', () => {
    const twin = { ...hit, doi: '10.1/y' };
    expect(judgeTitleHits([hit, twin], hit.title, null)).toMatchObject({
      kind: 'unsure',
      candidates: [{ doi: '10.1/x' }, { doi: '10.1/y' }],
    });
  });
});
