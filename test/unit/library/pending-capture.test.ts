// Library.completePendingCapture: the title search of a PDF captured offline ran (pdf/pending-captures.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CaptureInput, TitleSearchOutcome } from '../../../electron/core/library/capture-store';
import { testLibrary, type TestLibrary } from './helpers/lib';
import { capturesIn } from '../../helpers/captures';

const pending = (sha256: string, title: string, byline?: string): CaptureInput => ({
  csl: { id: `pdf-${sha256}`, type: 'article-journal', title },
  attachment: { path: `/lib/${sha256}.pdf`, sha256, size: 3, stored: 'copied' },
  method: 'none',
  state: 'pending',
  confidence: 0,
  evidence: [
    {
      method: 'none',
      matched: title,
      detail: 'the citation service could not be asked; the title is looked up later',
      ...(byline ? { byline } : {}),
    },
  ],
  candidates: [],
});

const match = (doi: string): TitleSearchOutcome => ({
  method: 'title-search',
  state: 'identified',
  confidence: 0.96,
  evidence: [{ method: 'title-search', matched: 'Page title', detail: '"Service title" (score 0.96)' }],
  candidates: [],
  doi,
});

describe('completing a pending capture', () => {
  let t: TestLibrary;
  let itemId: number;
  let attachmentId: number;
  beforeEach(() => {
    t = testLibrary();
    ({ itemId, attachmentId } = t.library.capturePdf(pending('aaa', 'Page title', 'A. Author, B. Other')) as {
      itemId: number;
      attachmentId: number;
    });
  });
  afterEach(() => t.dispose());

  it('lists what the search needs: the title and the byline kept with the evidence', () => {
    expect(t.library.pendingTitleSearches()).toEqual([
      { attachmentId, itemId, title: 'Page title', byline: 'A. Author, B. Other' },
    ]);
  });

  it('identified: the item becomes a DOI placeholder with the page title provisional, and the capture takes the evidence; no undo step', () => {
    const undoBefore = t.library.undoTops();
    expect(t.library.completePendingCapture(attachmentId, match('10.5555/found.1'))).toEqual({
      itemId,
      state: 'identified',
      enrich: true,
    });
    const item = t.library.getItem(itemId);
    expect(item.doi).toBe('10.5555/found.1');
    expect(item.csl).toMatchObject({
      title: 'Page title',
      DOI: '10.5555/found.1',
      custom: { citewise: { pendingMetadata: true, provisional: ['title'] } },
    });
    expect(capturesIn(t.db, itemId)).toMatchObject([
      { state: 'identified', method: 'title-search', confidence: 0.96, evidence: match('x').evidence, candidates: [] },
    ]);
    expect(t.library.pendingTitleSearches()).toEqual([]);
    expect(t.library.undoTops()).toEqual(undoBefore);
  });

  it('a title the user edited meanwhile is not provisional: the service will not replace it', () => {
    t.library.updateItem(itemId, { ...t.library.getItem(itemId).csl, title: 'Mine' });
    t.library.completePendingCapture(attachmentId, match('10.5555/found.1'));
    expect(t.library.getItem(itemId).csl).toMatchObject({
      title: 'Mine',
      custom: { citewise: { pendingMetadata: true, provisional: [] } },
    });
  });

  it('needs review: the item stays as it is, the capture takes the candidates and evidence', () => {
    const before = t.library.getItem(itemId).csl;
    const outcome: TitleSearchOutcome = {
      method: 'none',
      state: 'needs-review',
      confidence: 0,
      evidence: [{ method: 'none', matched: 'Page title', detail: 'the paper search found nothing' }],
      candidates: [],
      doi: null,
    };
    expect(t.library.completePendingCapture(attachmentId, outcome)).toEqual({
      itemId,
      state: 'needs-review',
      enrich: false,
    });
    expect(t.library.getItem(itemId).csl).toEqual(before);
    expect(t.library.unsettledCaptures()).toMatchObject([{ state: 'needs-review', evidence: outcome.evidence }]);
  });

  it('a DOI the user gave the item meanwhile stands: the capture is kept, the item untouched', () => {
    t.library.updateItem(itemId, { ...t.library.getItem(itemId).csl, DOI: '10.5555/theirs' });
    expect(t.library.completePendingCapture(attachmentId, match('10.5555/found.1'))).toEqual({
      itemId,
      state: 'kept',
      enrich: false,
    });
    expect(t.library.getItem(itemId).doi).toBe('10.5555/theirs');
    expect(t.library.unsettledCaptures()).toEqual([]);
  });

  it('a DOI another item already has goes to Needs review, not into a second item with the same DOI', () => {
    t.library.addItem({ id: 'other', type: 'article-journal', title: 'Already here', DOI: '10.5555/found.1' });
    expect(t.library.completePendingCapture(attachmentId, match('10.5555/found.1'))).toEqual({
      itemId,
      state: 'needs-review',
      enrich: false,
    });
    expect(t.library.getItem(itemId).doi).toBeNull();
    const [c] = t.library.unsettledCaptures();
    expect(c).toMatchObject({ state: 'needs-review', candidates: [{ doi: '10.5555/found.1', score: 0.96 }] });
    expect(c!.evidence[0]!.detail).toContain('the library already has an item with this DOI ("Already here")');
  });

  it('the table and the details say what the item waits for, until the service has answered', () => {
    const other = t.library.addItem({ id: 'plain', type: 'article-journal', title: 'Waits for nothing' });
    const waitingIn = () =>
      Object.fromEntries(t.library.listing.list({ limit: 10 }).rows.map((r) => [r.id, r.waiting ?? null]));
    expect(waitingIn()).toEqual({ [itemId]: { for: 'title-search', title: 'Page title' }, [other]: null });
    expect(t.library.getItem(itemId).waiting).toEqual({ for: 'title-search', title: 'Page title' });
    t.library.completePendingCapture(attachmentId, match('10.5555/found.1'));
    expect(waitingIn()).toEqual({ [itemId]: { for: 'metadata', doi: '10.5555/found.1' }, [other]: null });
    // The service does not know the DOI: nothing more to wait for.
    t.library.serviceCache.putPapers({ found: {}, unknown: ['10.5555/found.1'] });
    expect(waitingIn()).toEqual({ [itemId]: null, [other]: null });
    expect(t.library.getItem(itemId).waiting).toBeUndefined();
  });

  it('does nothing to a capture settled meanwhile or an item in the trash', () => {
    t.library.trashItems([itemId]);
    expect(t.library.pendingTitleSearches()).toEqual([]);
    expect(t.library.completePendingCapture(attachmentId, match('10.5555/found.1'))).toBeNull();
    t.library.restoreItems([itemId]);
    t.library.settleCapture(attachmentId, null);
    expect(t.library.completePendingCapture(attachmentId, match('10.5555/found.1'))).toBeNull();
    expect(t.library.getItem(itemId).doi).toBeNull();
  });
});
