import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  journalView,
  libraryJournals,
  JOURNAL_STALE_MS,
  type JournalsLibrary,
} from '../../../electron/core/journals/journals';
import type { Library } from '../../../electron/core/library/library';
import type { ServiceClient } from '../../../electron/core/service';
import type { CslItem } from '../../../shared/model/csl';
import { article, testLibrary, type TestLibrary, importItems } from '../library/helpers/lib';
import { client, fakeFetch, json, networkFailure, type SeenRequest } from '../service/fakes';

/** Valid ISSNs, as many as asked: 7 digits and their check digit. */
function issns(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const digits = String(1_000_000 + i).padStart(7, '0');
    const sum = [...digits].reduce((s, d, k) => s + Number(d) * (8 - k), 0);
    const check = (11 - (sum % 11)) % 11;
    out.push(`${digits.slice(0, 4)}-${digits.slice(4)}${check === 10 ? 'X' : check}`);
  }
  return out;
}

/** The library's async face, over a library in this thread. */
function asyncLib(lib: Library): JournalsLibrary {
  return {
    libraryJournals: async () => lib.serviceCollections.libraryJournals(),
    journalCache: async (i) => lib.serviceCollections.journalCache(i),
    putJournals: async (b, at) => lib.serviceCollections.putJournals(b, at),
    journalInLibrary: async (i) => lib.serviceCollections.journalInLibrary(i),
  };
}

function source(c: ServiceClient) {
  return {
    editorialNotices: (i: Iterable<string>, o?: { signal?: AbortSignal }) => c.editorialNotices(i, o),
    journalIndex: (i: Iterable<string>, o?: { signal?: AbortSignal }) => c.journalIndex(i, o),
    journalIndexOf: (issn: string, o?: { signal?: AbortSignal }) => c.op.getJournalIndex({ query: { issn } }, o),
  };
}

/** The local service's way: notices for every ISSN but those ending in 5, an index for every one. */
function answer(req: SeenRequest): Response {
  if (req.url.pathname === '/issn-editorial-notices') {
    const list = req.url.searchParams.get('issn')!.split(',');
    return json(
      list.map((issn) =>
        !issn.endsWith('5')
          ? {
              issn,
              notices: {
                totalCorrections: 1,
                totalErrata: 0,
                totalExpressionOfConcerns: 0,
                totalRetractions: 2,
                totalWithdrawals: 0,
              },
            }
          : { issn },
      ),
    );
  }
  if (req.url.pathname === '/issn-sji-bulk') {
    const list = req.body as string[];
    return json(
      Object.fromEntries(
        list.map((issn) => [
          issn,
          [
            { issns: [issn], journal: `Journal ${issn}`, journalSlug: issn, relativeYear: '2021', sjiAllYears: 1.5 },
            {
              issns: [issn],
              journal: `Journal ${issn}`,
              journalSlug: issn,
              relativeYear: '2023',
              sjiAllYears: 2.5,
              sjiFiveYears: 2,
              sjiTwoYears: 3,
            },
          ],
        ]),
      ),
    );
  }
  if (req.url.pathname === '/issn-sji')
    return json([
      {
        issns: [req.url.searchParams.get('issn')],
        journal: 'One journal',
        journalSlug: 'one',
        relativeYear: '2022',
        sjiAllYears: 1,
      },
    ]);
  return json({ detail: 'not here' }, 404);
}

describe('journals', () => {
  let t: TestLibrary;
  let now = Date.UTC(2026, 0, 1);
  beforeEach(() => {
    t = testLibrary();
    now = Date.UTC(2026, 0, 1);
  });
  afterEach(() => t.dispose());

  it('builds the library’s journal table with one editorial-notices request and one bulk index request per 500 ISSNs, then answers from the cache', async () => {
    const list = issns(1201);
    const items: CslItem[] = list.map((issn, i) =>
      article(`Paper ${i}`, 'Author', 2020, { ISSN: issn, 'container-title': `Container ${i}` }),
    );
    items.push(
      article('Twice', 'Author', 2021, { ISSN: list[0]!, 'container-title': 'Container 0' }),
      article('No ISSN', 'Author', 2021),
    );
    importItems(t.library, items);
    const { fetch, seen } = fakeFetch(answer);
    const svc = source(client(fetch));
    const result = await libraryJournals(asyncLib(t.library), svc, { refresh: false, now });

    const notices = seen.filter((r) => r.url.pathname === '/issn-editorial-notices');
    const index = seen.filter((r) => r.url.pathname === '/issn-sji-bulk');
    expect(notices.map((r) => r.url.searchParams.get('issn')!.split(',').length).sort()).toEqual([201, 500, 500]);
    expect(index.map((r) => (r.body as string[]).length).sort()).toEqual([201, 500, 500]);
    expect(new Set(notices.flatMap((r) => r.url.searchParams.get('issn')!.split(','))).size).toBe(1201);
    expect(seen).toHaveLength(6);
    expect(result.requests).toEqual({ notices: 3, index: 3, issns: 1201 });
    expect(result.itemsWithoutIssn).toBe(1);
    expect(result.journals).toHaveLength(1201);
    expect(result.journals[0]).toEqual({
      issn: list[0],
      title: `Journal ${list[0]}`,
      items: 2,
      notices: {
        state: 'found',
        fetchedAt: now,
        value: {
          totalCorrections: 1,
          totalErrata: 0,
          totalExpressionOfConcerns: 0,
          totalRetractions: 2,
          totalWithdrawals: 0,
        },
      },
      latestIndex: { year: '2023', sjiAllYears: 2.5, sjiFiveYears: 2, sjiTwoYears: 3 },
    });
    // An ISSN without notices is "unknown", not zero notices.
    const odd = result.journals.find((j) => j.issn.endsWith('5'))!;
    expect(odd.notices).toEqual({ state: 'unknown', fetchedAt: now });

    // Offline, the table comes from the cache without asking; a refresh asks again and says so when it cannot.
    const again = await libraryJournals(asyncLib(t.library), svc, { refresh: false, now });
    expect(seen).toHaveLength(6);
    expect(again.journals).toEqual(result.journals);
    expect(again.requests).toBeUndefined();
    const offline = fakeFetch(() => networkFailure());
    const refreshed = await libraryJournals(asyncLib(t.library), source(client(offline.fetch, { maxAttempts: 1 })), {
      refresh: true,
      now: now + 1,
    });
    expect(refreshed.problem?.code).toBe('OFFLINE');
    expect(refreshed.failed?.issns).toBe(1201);
    expect(refreshed.journals).toEqual(result.journals);
  }, 30_000);

  it('opens one journal from the cache, fetching it when missing or stale, and keeps the copy when the service cannot be reached', async () => {
    const [issn] = issns(1) as [string];
    importItems(t.library, [article('A', 'X', 2020, { ISSN: issn, 'container-title': 'Local name' })]);
    const { fetch, seen } = fakeFetch(answer);
    const svc = source(client(fetch));
    const first = await journalView(asyncLib(t.library), svc, { issn: issn.replace('-', ''), refresh: false, now });
    expect(first).toMatchObject({
      issn,
      title: 'One journal',
      libraryItems: 1,
      index: { state: 'found', fetchedAt: now },
      notices: { state: 'found', fetchedAt: now },
    });
    expect(first.problem).toBeUndefined();
    expect(seen.map((r) => r.url.pathname).sort()).toEqual(['/issn-editorial-notices', '/issn-sji']);
    await journalView(asyncLib(t.library), svc, { issn, refresh: false, now: now + 1000 });
    expect(seen).toHaveLength(2);
    const offline = fakeFetch(() => networkFailure());
    const stale = await journalView(asyncLib(t.library), source(client(offline.fetch, { maxAttempts: 1 })), {
      issn,
      refresh: false,
      now: now + JOURNAL_STALE_MS + 1,
    });
    expect(offline.seen.length).toBeGreaterThan(0);
    expect(stale).toMatchObject({
      title: 'One journal',
      index: { state: 'found', fetchedAt: now },
      problem: { code: 'OFFLINE' },
    });
    await expect(journalView(asyncLib(t.library), svc, { issn: '1234-5678', refresh: false, now })).rejects.toThrow(
      /not an ISSN/,
    );
  });
});
