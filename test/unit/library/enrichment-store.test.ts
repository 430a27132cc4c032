// The enrichment store on a library opened in-process: the fill rules, the edit record, queue moves
// between runs, and the status computation. The service's answers here are the shapes the client
// hands on; the end-to-end paths against the local service are in test/integration/enrich.
import { afterEach, describe, expect, it } from 'vitest';
import { changedFields, fillMissing } from '../../../electron/core/library/fill';
import { NEED_PAPER, NEED_TALLIES } from '../../../electron/core/library/enrichment-store';
import { doiPlaceholder } from '../../../electron/core/formats';
import type { UiPaper } from '../../../shared/model/service';
import { statusFromNotices } from '../../../shared/model/item-status';
import { article, testLibrary, type TestLibrary, importItems } from './helpers/lib';

let t: TestLibrary;
afterEach(() => t?.dispose());

describe('fill rules', () => {
  it('fills only empty fields the user did not edit, never identity fields', () => {
    const current = { id: 'x', type: 'article-journal' as const, title: 'Mine', volume: '', DOI: '10.1000/a' };
    const service = {
      id: 'y',
      type: 'book' as const,
      title: 'Theirs',
      volume: '7',
      issue: '2',
      page: '1-9',
      DOI: '10.1000/A',
      'citation-key': 'zzz',
    };
    expect(fillMissing(current, service, new Set(['issue']))).toEqual({
      csl: { id: 'x', type: 'article-journal', title: 'Mine', volume: '7', page: '1-9', DOI: '10.1000/a' },
      filled: ['page', 'volume'],
    });
  });

  it("replaces a placeholder's provisional title with the service's, unless the user edited it; other fields it had stay", () => {
    const placeholder = {
      id: 'p',
      type: 'article-journal' as const,
      DOI: '10.1000/a',
      title: 'smith-2020',
      note: 'mine',
      custom: { citewise: { pendingMetadata: true, provisional: ['title'] } },
    };
    const service = {
      id: 's',
      type: 'paper-conference' as const,
      title: 'The real title',
      note: 'theirs',
      volume: '7',
      DOI: '10.1000/a',
    };
    expect(fillMissing(placeholder, service, new Set())).toEqual({
      csl: { id: 'p', type: 'paper-conference', DOI: '10.1000/a', title: 'The real title', note: 'mine', volume: '7' },
      filled: ['title', 'type', 'volume'],
      completed: true,
    });
    expect(fillMissing(placeholder, service, new Set(['title'])).csl.title).toBe('smith-2020');
    // Not a placeholder (already completed): a provisional list left behind gives no licence to overwrite.
    const done = { ...placeholder, custom: { citewise: { provisional: ['title'] } } };
    expect(fillMissing(done, service, new Set()).csl.title).toBe('smith-2020');
  });

  it('sees a cleared field as an edit, and an unchanged or empty-to-empty one as none', () => {
    const before = { id: 'a', type: 'book' as const, title: 'T', volume: '3', note: '' };
    expect(changedFields(before, { id: 'b', type: 'book', title: 'T', note: undefined } as never)).toEqual(['volume']);
    expect(changedFields(before, { ...before, 'citation-key': 'k' })).toEqual([]);
  });
});

describe('item status', () => {
  it('takes the most severe notice, the paper flag winning, and ignores comments', () => {
    expect(statusFromNotices(['has correction', 'has expression of concern'])).toBe('expression-of-concern');
    expect(statusFromNotices(['Has erratum'])).toBe('correction');
    expect(statusFromNotices(['comment'])).toBe('none');
    expect(statusFromNotices([], true)).toBe('retracted');
    expect(statusFromNotices(['withdrawn', 'has correction'])).toBe('withdrawn');
  });
});

describe('EnrichmentStore', () => {
  it('records the fields updateItem changed, and not for enrichment writes', () => {
    t = testLibrary();
    const id = t.library.addItem(article('Title', 'Smith', 2020, { DOI: '10.1000/a', volume: '1' }));
    const item = t.library.getItem(id);
    t.library.updateItem(id, { ...item.csl, title: 'New title', volume: undefined } as never);
    expect(t.enrichment.editedFields(id)).toEqual(['title', 'volume']);
    t.library.writeServiceFill(id, { ...t.library.getItem(id).csl, page: '5' });
    expect(t.enrichment.editedFields(id)).toEqual(['title', 'volume']);
    expect(t.library.getItem(id).csl.page).toBe('5');
  });

  it('completes a placeholder: the service type, a key from the formula, keywords as tags, no pending mark', () => {
    t = testLibrary();
    const r = importItems(t.library, [
      doiPlaceholder('10.1000/p1' as never),
      doiPlaceholder('10.1000/p2' as never),
      doiPlaceholder('10.1000/p3' as never),
    ]);
    const [p1, p2, p3] = r.ids as [number, number, number];
    expect(r.ids.map((id) => t.library.getItem(id).citationKey)).toEqual(['anon', 'anona', 'anonb']);
    // A key the user chose stays, even one that looks generated.
    t.library.setCitationKey(p2, 'mine2024');
    t.library.setCitationKey(p3, 'anonc');
    const run = t.enrichment.enqueue({ kind: 'library' }).run!;
    const paper = (doi: string, title: string, type: string, keywords?: string[]) =>
      ({
        doi,
        title,
        type,
        authors: [{ family: 'Okafor', given: 'N.', authorName: 'N. Okafor', authorSequenceNumber: 1 }],
        year: 2019,
        issns: [],
        ...(keywords ? { keywords } : {}),
      }) as unknown as UiPaper;
    const outcome = t.enrichment.applyBatch(run.id, {
      fetchedAt: 1,
      failed: [],
      papers: {
        found: {
          '10.1000/p1': paper('10.1000/p1', 'Soil carbon under drought', 'book-chapter', ['soil carbon', 'drought']),
          '10.1000/p2': paper('10.1000/p2', 'A second one', 'journal-article'),
          '10.1000/p3': paper('10.1000/p3', 'A third one', 'journal-article'),
        },
        unknown: [],
      },
    });
    expect(outcome.filled.map((f) => f.id)).toEqual([p1, p2, p3]);
    const one = t.library.getItem(p1);
    expect(one).toMatchObject({
      type: 'chapter',
      citationKey: 'okaforSoilCarbonDrought2019',
      tags: ['drought', 'soil carbon'],
    });
    expect(one.csl).not.toHaveProperty('custom');
    expect(outcome.filled[0]!.fields).toContain('type');
    expect([t.library.getItem(p2).citationKey, t.library.getItem(p3).citationKey]).toEqual(['mine2024', 'anonc']);
    expect(t.library.getItem(p2).csl).not.toHaveProperty('custom');
    // An item that was never a placeholder keeps its type and key.
    const own = t.library.addItem({ id: 'x', type: 'report', DOI: '10.1000/own' });
    const run2 = t.enrichment.enqueue({ kind: 'items', ids: [own] }).run!;
    t.enrichment.applyBatch(run2.id, {
      fetchedAt: 2,
      failed: [],
      papers: { found: { '10.1000/own': paper('10.1000/own', 'Own', 'journal-article', ['x']) }, unknown: [] },
    });
    expect(t.library.getItem(own)).toMatchObject({ type: 'report', citationKey: 'anon', tags: [] });
  });

  it('moves a DOI queued by an unfinished run to the newer run, and settles a run left empty', () => {
    t = testLibrary();
    const a = t.library.addItem(article('A', 'Smith', 2020, { DOI: '10.1000/a' }));
    t.library.addItem(article('B', 'Jones', 2021, { DOI: '10.1000/b' }));
    const first = t.enrichment.enqueue({ kind: 'library' }).run!;
    const second = t.enrichment.enqueue({ kind: 'items', ids: [a] }, { needs: NEED_TALLIES }).run!;
    expect(t.enrichment.run(first.id)).toMatchObject({ total: 1, remaining: 1, state: 'running' });
    expect(second).toMatchObject({ total: 1, remaining: 1 });
    // The moved DOI keeps what it still needed (both) and gains what the new run asks.
    expect(t.enrichment.nextBatch(second.id, 10)).toEqual([{ doi: '10.1000/a', needs: NEED_PAPER | NEED_TALLIES }]);
    const third = t.enrichment.enqueue({ kind: 'dois', dois: ['10.1000/B'] }).run!;
    expect(t.enrichment.run(first.id)).toMatchObject({ total: 0, remaining: 0, state: 'done' });
    expect(t.enrichment.openRuns().map((r) => r.id)).toEqual([second.id, third.id]);
    expect(() => t.enrichment.enqueue({ kind: 'dois', dois: ['nonsense'] })).toThrow(/not a valid DOI/);
  });

  it('gives up on a DOI after repeated non-transient failures but keeps transient ones queued', () => {
    t = testLibrary();
    t.library.addItem(article('A', 'Smith', 2020, { DOI: '10.1000/a' }));
    t.library.addItem(article('B', 'Jones', 2021, { DOI: '10.1000/b' }));
    const run = t.enrichment.enqueue({ kind: 'library' }).run!;
    for (let i = 0; i < 3; i++) {
      t.enrichment.applyBatch(run.id, {
        fetchedAt: 1,
        failed: [
          { doi: '10.1000/a', message: 'refused', transient: false },
          { doi: '10.1000/b', message: 'offline', transient: true },
        ],
      });
    }
    expect(t.enrichment.run(run.id)).toMatchObject({ failed: 1, done: 0, remaining: 1, state: 'running' });
    const done = t.enrichment.applyBatch(run.id, {
      fetchedAt: 2,
      tallies: { found: {}, unknown: ['10.1000/b'] },
      papers: { found: {}, unknown: ['10.1000/b'] },
      failed: [],
    });
    expect(done.run).toMatchObject({ done: 1, failed: 1, remaining: 0, state: 'done' });
    expect(t.library.serviceCache.getTallies(['10.1000/b'])['10.1000/b']).toEqual({ state: 'unknown', fetchedAt: 2 });
  });
});
