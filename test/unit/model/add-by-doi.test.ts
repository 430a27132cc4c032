import { describe, expect, it } from 'vitest';
import { addByDoiSummary, splitDoiInput } from '../../../shared/model/add-by-doi';

describe('Add by DOI', () => {
  it('splits pasted text on whitespace and commas only, keeping the semicolons of old Wiley DOIs', () => {
    const wiley = '10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F';
    expect(
      splitDoiInput(` ${wiley}\n10.1038/nature12373, https://doi.org/10.1126/science.1259855,,10.1038/nature12373\t`),
    ).toEqual([wiley, '10.1038/nature12373', 'https://doi.org/10.1126/science.1259855']);
  });

  it('says a DOI kept offline is a placeholder, not "Added 0 items"', () => {
    const one = [{}];
    expect(addByDoiSummary({ added: [], queued: one, duplicates: [], notAdded: [] })).toBe(
      '1 placeholder kept, completed when the service is reachable.',
    );
    expect(addByDoiSummary({ added: [{}, {}], queued: [{}, {}], duplicates: one, notAdded: one })).toBe(
      'Added 2 items, 2 placeholders kept, completed when the service is reachable, 1 DOI already in your library, 1 DOI not added.',
    );
    expect(addByDoiSummary({ added: one, queued: [], duplicates: [], notAdded: [] })).toBe('Added 1 item.');
    expect(addByDoiSummary({ added: [], queued: [], duplicates: [], notAdded: [] })).toBe('Nothing was added.');
  });
});
