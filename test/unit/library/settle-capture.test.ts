// Library.settleCapture: a person's decision on an unsure PDF capture (the app's Needs review view).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaptureInput } from '../../../electron/core/library/capture-store';
import { testLibrary, type TestLibrary } from './helpers/lib';
import { capturesIn } from '../../helpers/captures';

const unsure = (sha256: string, title: string): CaptureInput => ({
  csl: { id: sha256, type: 'article-journal', title },
  attachment: { path: `/lib/${sha256}.pdf`, sha256, size: 3, stored: 'copied' },
  method: 'text',
  state: 'needs-review',
  confidence: 0.5,
  evidence: [
    { method: 'text', matched: '10.5555/first.1', page: 1 },
    { method: 'text', matched: '10.5555/second.2', page: 1 },
  ],
  candidates: [
    { doi: '10.5555/first.1', score: 0.5, evidence: { method: 'text', matched: '10.5555/first.1', page: 1 } },
    { doi: '10.5555/second.2', score: 0.5, evidence: { method: 'text', matched: '10.5555/second.2', page: 1 } },
  ],
});

describe('settling a captured PDF', () => {
  let t: TestLibrary;
  let itemId: number;
  let attachmentId: number;
  beforeEach(() => {
    t = testLibrary();
    ({ itemId, attachmentId } = t.library.capturePdf(unsure('aaa', 'A paper with two identifiers')) as {
      itemId: number;
      attachmentId: number;
    });
  });
  afterEach(() => t.dispose());

  it('takes a candidate: the item becomes that paper, keeps its key, and leaves the review list; one undo reverts both', () => {
    const key = t.library.getItem(itemId).citationKey;
    expect(t.library.unsettledCaptures().map((c) => c.attachmentId)).toEqual([attachmentId]);
    t.library.settleCapture(attachmentId, {
      doi: '10.5555/second.2',
      csl: { id: 'paper', type: 'article-journal', title: 'The second paper', DOI: '10.5555/second.2' },
    });
    const item = t.library.getItem(itemId);
    expect(item.csl).toMatchObject({ title: 'The second paper', DOI: '10.5555/second.2' });
    expect(item.citationKey).toBe(key);
    expect(capturesIn(t.db, itemId)).toMatchObject([{ state: 'identified', confidence: 1 }]);
    expect(t.library.unsettledCaptures()).toEqual([]);
    expect(t.library.undo()).toMatch(/^Identify the PDF of/);
    expect(t.library.getItem(itemId).csl.title).toBe('A paper with two identifiers');
    expect(t.library.unsettledCaptures().map((c) => c.state)).toEqual(['needs-review']);
  });

  it("without metadata from the service, takes the candidate's DOI alone (as stored, normalised)", () => {
    t.library.settleCapture(attachmentId, { doi: '10.5555/FIRST.1', csl: null });
    expect(t.library.getItem(itemId).csl).toMatchObject({
      title: 'A paper with two identifiers',
      DOI: '10.5555/first.1',
    });
  });

  it('keeps the item as it is', () => {
    t.library.settleCapture(attachmentId, null);
    expect(t.library.getItem(itemId).csl.title).toBe('A paper with two identifiers');
    expect(capturesIn(t.db, itemId)).toMatchObject([{ state: 'kept' }]);
    expect(t.library.unsettledCaptures()).toEqual([]);
  });

  it('refuses a DOI that is not a candidate, a capture settled already, and one that does not exist', () => {
    expect(() => t.library.settleCapture(attachmentId, { doi: '10.5555/other', csl: null })).toThrow(
      "10.5555/other is not one of this PDF's candidates.",
    );
    t.library.settleCapture(attachmentId, null);
    expect(() => t.library.settleCapture(attachmentId, null)).toThrow('This PDF has been settled already.');
    expect(() => t.library.settleCapture(attachmentId + 100, null)).toThrow('The captured PDF is not in the library');
  });
});
