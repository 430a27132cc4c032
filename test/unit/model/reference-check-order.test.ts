import { describe, expect, it } from 'vitest';
import { orderReferenceRows, referenceProblem, type ReferenceCheckRow } from '../../../shared/model/reference-check';

const row = (index: number, over: Partial<ReferenceCheckRow>): ReferenceCheckRow => ({
  index,
  text: `ref ${index}`,
  doi: `10.1/${index}`,
  matchedBy: 'doi',
  title: null,
  year: null,
  journal: null,
  authors: null,
  tally: { supporting: 1, contrasting: 0, mentioning: 2, total: 3 },
  notices: [],
  severity: null,
  ...over,
});

describe('reference check order', () => {
  const rows = [
    row(1, {}),
    row(2, { tally: { supporting: 0, contrasting: 1, mentioning: 0, total: 1 } }),
    row(3, { doi: null, tally: null }),
    row(4, { severity: 'concern' }),
    row(5, { severity: 'notice' }),
    row(6, { severity: 'retracted' }),
    row(7, { doi: null, tally: null }),
    row(8, { tally: null }),
  ];

  it('lists retracted, concern, not found, contrasting, then the rest, in document order within each', () => {
    expect(orderReferenceRows(rows).map((r) => r.index)).toEqual([6, 4, 3, 7, 2, 1, 5, 8]);
    expect(rows.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('keeps only the problems when asked; one contrasting statement is a problem, none is not', () => {
    expect(orderReferenceRows(rows, true).map((r) => r.index)).toEqual([6, 4, 3, 7, 2]);
    expect(referenceProblem(row(9, { tally: { supporting: 5, contrasting: 0, mentioning: 0, total: 5 } }))).toBeNull();
    expect(referenceProblem(row(9, { tally: { supporting: 5, contrasting: 1, mentioning: 0, total: 6 } }))).toBe(
      'contrasting',
    );
    // A mere notice (an erratum) is not one of the four problems.
    expect(referenceProblem(row(9, { severity: 'notice' }))).toBeNull();
  });
});
