import { describe, expect, it } from 'vitest';
import {
  evidenceCountsFromApi,
  evidenceTallyFromApi,
  evidenceTypeFromApi,
  evidenceTypeToApi,
  sumEvidenceCounts,
} from '../../../shared/model/evidence';

describe('evidence vocabulary', () => {
  it('says contrasting where the API says contradicting, and back', () => {
    expect(evidenceTypeFromApi('contradicting')).toBe('contrasting');
    expect(evidenceTypeFromApi('supporting')).toBe('supporting');
    expect(evidenceTypeFromApi('mentioning')).toBe('mentioning');
    expect(evidenceTypeToApi('contrasting')).toBe('contradicting');
  });

  it('converts tallies without losing zeros or the citing-publication count', () => {
    const t = evidenceTallyFromApi({
      doi: '10.1/a',
      total: 0,
      supporting: 0,
      contradicting: 0,
      mentioning: 0,
      unclassified: 0,
      citingPublications: 0,
    });
    expect(t).toEqual({
      doi: '10.1/a',
      total: 0,
      supporting: 0,
      contrasting: 0,
      mentioning: 0,
      unclassified: 0,
      citingPublications: 0,
    });
    expect(
      evidenceCountsFromApi({ total: 3, supporting: 1, contradicting: 1, mentioning: 1, unclassified: 0 }),
    ).not.toHaveProperty('contradicting');
  });

  it('sums counts', () => {
    const a = { total: 3, supporting: 1, contrasting: 1, mentioning: 1, unclassified: 0 };
    expect(sumEvidenceCounts([a, a])).toEqual({
      total: 6,
      supporting: 2,
      contrasting: 2,
      mentioning: 2,
      unclassified: 0,
    });
    expect(sumEvidenceCounts([])).toEqual({ total: 0, supporting: 0, contrasting: 0, mentioning: 0, unclassified: 0 });
  });
});

describe('inUiWords', () => {
  it('renames the API word everywhere in an answer and is idempotent', async () => {
    const { inUiWords } = await import('../../../shared/model/evidence');
    const answer = {
      papers: { '10.1/a': { title: 'contradicting evidence', tally: { total: 2, contradicting: 1, supporting: 1 } } },
      citations: [{ type: 'contradicting', source: 'x' }, { type: 'supporting' }],
      metadata: { dateHistogram: { 2020: { contradicting: 3, total: 3 } } },
    };
    const ui = inUiWords(answer);
    expect(ui).toEqual({
      papers: { '10.1/a': { title: 'contradicting evidence', tally: { total: 2, contrasting: 1, supporting: 1 } } },
      citations: [{ type: 'contrasting', source: 'x' }, { type: 'supporting' }],
      metadata: { dateHistogram: { 2020: { contrasting: 3, total: 3 } } },
    });
    expect(inUiWords(ui)).toEqual(ui);
    expect(JSON.stringify(ui)).not.toMatch(/"contradicting"/);
  });
});
