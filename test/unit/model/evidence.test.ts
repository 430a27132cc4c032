import { describe, expect, it } from 'vitest';
import { evidenceCountsFromApi, evidenceTallyFromApi, evidenceTypeFromApi, evidenceTypeToApi, sumEvidenceCounts, withEvidenceType } from '../../../shared/model/evidence';

describe('evidence vocabulary', () => {
  it('says contrasting where the API says contradicting, and back', () => {
    expect(evidenceTypeFromApi('contradicting')).toBe('contrasting');
    expect(evidenceTypeFromApi('supporting')).toBe('supporting');
    expect(evidenceTypeFromApi('mentioning')).toBe('mentioning');
    expect(evidenceTypeToApi('contrasting')).toBe('contradicting');
    expect(withEvidenceType({ type: 'contradicting', source: 'a' })).toEqual({ type: 'contrasting', source: 'a' });
  });

  it('converts tallies without losing zeros or the citing-publication count', () => {
    const t = evidenceTallyFromApi({ doi: '10.1/a', total: 0, supporting: 0, contradicting: 0, mentioning: 0, unclassified: 0, citingPublications: 0 });
    expect(t).toEqual({ doi: '10.1/a', total: 0, supporting: 0, contrasting: 0, mentioning: 0, unclassified: 0, citingPublications: 0 });
    expect(evidenceCountsFromApi({ total: 3, supporting: 1, contradicting: 1, mentioning: 1, unclassified: 0 })).not.toHaveProperty('contradicting');
  });

  it('sums counts', () => {
    const a = { total: 3, supporting: 1, contrasting: 1, mentioning: 1, unclassified: 0 };
    expect(sumEvidenceCounts([a, a])).toEqual({ total: 6, supporting: 2, contrasting: 2, mentioning: 2, unclassified: 0 });
    expect(sumEvidenceCounts([])).toEqual({ total: 0, supporting: 0, contrasting: 0, mentioning: 0, unclassified: 0 });
  });
});
