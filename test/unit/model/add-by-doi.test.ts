import { describe, expect, it } from 'vitest';
import { addByDoiSummary, splitDoiInput } from '../../../shared/model/add-by-doi';

describe('Add by DOI', () => {
  it('splits pasted text on whitespace and commas only, keeping the semicolons of old Wiley DOIs', () => {
    const wiley = '10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F';
    expect(
      splitDoiInput(` ${wiley}\n10.1038/nature12373, https://doi.org/10.1126/science.1259855,,10.1038/nature12373\t`),
    ).toEqual([wiley, '10.1038/nature12373', 'https://doi.org/10.1126/science.1259855']);
  });

  // Issue 32: pasted prose was split into words, each reported as "not a DOI".
  it('takes the DOIs out of a line of prose, and reports a line without one once, not word by word', () => {
    expect(
      splitDoiInput('See Smith et al. (2013), doi:10.1038/nature12373. And https://doi.org/10.1126/science.1259855)'),
    ).toEqual(['doi:10.1038/nature12373', 'https://doi.org/10.1126/science.1259855']);
    expect(splitDoiInput('the paper by Smith on soil\n10.1038/nature12373')).toEqual([
      'the paper by Smith on soil',
      '10.1038/nature12373',
    ]);
    // A DOI list as such keeps every token, a Wiley DOI's closing bracket too.
    const wiley = '10.1002/(SICI)1097-4636(199706)35:4<479::AID-JBM8>3.0.CO;2-F';
    expect(splitDoiInput(`${wiley} not-a-doi`)).toEqual([wiley]);
    expect(splitDoiInput('10.1000/x(1) and more')).toEqual(['10.1000/x(1)']);
    expect(splitDoiInput('nonsense')).toEqual(['nonsense']);
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
