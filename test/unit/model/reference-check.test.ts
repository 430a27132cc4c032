import { describe, expect, it } from 'vitest';
import {
  referenceCheckRows,
  referenceCheckSummary,
  type ReferenceCheckTaskUi,
} from '../../../shared/model/reference-check';

const paper = (doi: string, title: string, statuses: string[]) => ({
  doi,
  title,
  year: 2001,
  journal: 'J',
  authors: [{ authorName: 'A One' }, { authorName: 'B Two' }, { authorName: 'C Three' }, { authorName: 'D Four' }],
  editorialNotices: statuses.map((status) => ({
    doi,
    status,
    date: '2010-01-02',
    noticeDoi: `${doi}.notice`,
    urls: [],
  })),
});

describe('reference check rows', () => {
  it('lists the matched citations once each, with tally, notices and a flag for retracted papers', () => {
    const task = {
      status: 'SUCCESS',
      result: {
        metadata: { title: 'M' },
        filetype: 'pdf',
        citations: [
          { target: '10.1/A', snippet: 'x' },
          { target: '10.1/b', snippet: 'y' },
          { target: '10.1/a', snippet: 'z' },
        ],
      },
      papers: {
        '10.1/a': paper('10.1/a', 'Retracted one', ['Retracted', 'Retracted']),
        '10.1/b': paper('10.1/b', 'Fine', ['Has erratum']),
      },
      tallies: { '10.1/a': { doi: '10.1/a', total: 5, supporting: 1, contrasting: 1, mentioning: 3, unclassified: 0 } },
    } as unknown as ReferenceCheckTaskUi;
    const rows = referenceCheckRows(task);
    expect(rows.map((r) => [r.index, r.doi, r.severity])).toEqual([
      [1, '10.1/a', 'retracted'],
      [2, '10.1/b', 'notice'],
    ]);
    expect(rows[0]!.notices).toHaveLength(1);
    expect(rows[0]!.authors).toBe('A One, B Two, C Three et al.');
    expect(rows[0]!.tally).toEqual({ supporting: 1, contrasting: 1, mentioning: 3, total: 5 });
    expect(rows[1]!.tally).toBeNull();
    expect(referenceCheckSummary(rows)).toEqual({ total: 2, matched: 2, retracted: 1, concern: 0 });
  });

  it('uses the service’s list of every reference when it gives one, unmatched ones included', () => {
    const task = {
      status: 'SUCCESS',
      result: {
        metadata: {},
        filetype: 'bib',
        citations: [],
        references: [
          { index: 1, text: '@article{a, ...}', matchedDoi: '10.1/a', matchedBy: 'doi' },
          { index: 2, text: 'Nowhere', matchedDoi: null, matchedBy: null },
        ],
      },
      papers: { '10.1/a': paper('10.1/a', 'Concerning', ['Has expression of concern']) },
    } as unknown as ReferenceCheckTaskUi;
    const rows = referenceCheckRows(task);
    expect(rows.map((r) => [r.index, r.doi, r.matchedBy, r.severity, r.text])).toEqual([
      [1, '10.1/a', 'doi', 'concern', '@article{a, ...}'],
      [2, null, null, null, 'Nowhere'],
    ]);
    expect(referenceCheckSummary(rows)).toEqual({ total: 2, matched: 1, retracted: 0, concern: 1 });
  });
});
