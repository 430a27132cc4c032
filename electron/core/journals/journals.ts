// Journals for the Journals & Authors pane: one journal by ISSN (its index by year and notice totals),
// and the journals the library cites with their notice totals. Answers are cached in the library
// (service_journal_index, service_journal_notices) with their fetch time and shown from there; the
// service is asked when a value is missing, stale, or the researcher refreshes. The library-wide table
// asks with the bulk forms: one editorial-notices request and one bulk index request per 500 ISSNs
// (the service client splits them), never one request per journal.
import { parseIssn } from '../../../shared/model/doi';
import type { BulkResult } from '../../../shared/model/service';
import type { Cached, JournalView, LibraryJournal, LibraryJournals } from '../../../shared/model/service-collections';
import { SERVICE_LIMITS, type EditorialNoticeCounts, type JournalIndexRecord } from '../../../shared/service';
import { CoreError } from '../errors';
import type { AsyncStore } from '../library/client';

/** Cached journal data older than this is fetched again when the journal is opened. */
export const JOURNAL_STALE_MS = 7 * 24 * 3600_000;

export type JournalsLibrary = Pick<
  AsyncStore<'serviceCollections'>,
  'libraryJournals' | 'journalCache' | 'putJournals' | 'journalInLibrary'
>;

export interface JournalSource {
  editorialNotices(
    issns: Iterable<string>,
    options?: { signal?: AbortSignal },
  ): Promise<BulkResult<EditorialNoticeCounts>>;
  journalIndex(issns: Iterable<string>, options?: { signal?: AbortSignal }): Promise<BulkResult<JournalIndexRecord[]>>;
  /** GET /issn-sji for one ISSN, all years. */
  journalIndexOf(issn: string, options?: { signal?: AbortSignal }): Promise<JournalIndexRecord[]>;
}

const problemOf = (err: unknown): { code: string; message: string } => {
  if (err instanceof CoreError) return { code: err.code, message: err.message };
  throw err;
};

const stale = (c: Cached<unknown>, now: number): boolean =>
  c.state === 'not-fetched' || now - c.fetchedAt > JOURNAL_STALE_MS;

function latest(records: JournalIndexRecord[]): LibraryJournal['latestIndex'] {
  if (records.length === 0) return null;
  const r = [...records].sort((a, b) => Number(b.relativeYear ?? 0) - Number(a.relativeYear ?? 0))[0]!;
  return {
    year: r.relativeYear ?? null,
    sjiAllYears: r.sjiAllYears ?? null,
    sjiFiveYears: r.sjiFiveYears ?? null,
    sjiTwoYears: r.sjiTwoYears ?? null,
  };
}

/** One journal: from the cache, fetched when missing, stale or asked; offline, the cache with `problem`. */
export async function journalView(
  lib: JournalsLibrary,
  service: JournalSource,
  input: { issn: string; refresh: boolean; now?: number; signal?: AbortSignal },
): Promise<JournalView> {
  const parsed = parseIssn(input.issn);
  if (!parsed.ok) throw new CoreError('INVALID_INPUT', `"${input.issn}" is not an ISSN. ${parsed.reason}`);
  const issn: string = parsed.issn;
  const now = input.now ?? Date.now();
  let cache = (await lib.journalCache([issn]))[issn]!;
  let problem: JournalView['problem'];
  if (input.refresh || stale(cache.index, now) || stale(cache.notices, now)) {
    const o = input.signal ? { signal: input.signal } : {};
    const [index, notices] = await Promise.allSettled([
      service.journalIndexOf(issn, o),
      service.editorialNotices([issn], o),
    ]);
    const batch: Parameters<JournalsLibrary['putJournals']>[0] = {};
    if (index.status === 'fulfilled') batch.index = { [issn]: index.value.length ? index.value : null };
    else problem = problemOf(index.reason);
    if (notices.status === 'fulfilled') {
      const failed = notices.value.failed[0];
      if (failed) problem = failed.error;
      else batch.notices = { [issn]: notices.value.found[issn] ?? null };
    } else problem = problemOf(notices.reason);
    await lib.putJournals(batch, now);
    cache = (await lib.journalCache([issn]))[issn]!;
  }
  const inLibrary = await lib.journalInLibrary(issn);
  const title = cache.index.state === 'found' ? (cache.index.value[0]?.journal ?? inLibrary.title) : inLibrary.title;
  return {
    issn,
    title,
    index: cache.index,
    notices: cache.notices,
    libraryItems: inLibrary.items,
    ...(problem ? { problem } : {}),
  };
}

/**
 * The journals the library cites, most items first, with their notice totals and latest index. With
 * `refresh` every ISSN is asked again; otherwise only those never fetched.
 */
export async function libraryJournals(
  lib: JournalsLibrary,
  service: JournalSource,
  input: { refresh: boolean; now?: number; signal?: AbortSignal },
): Promise<LibraryJournals> {
  const now = input.now ?? Date.now();
  const { journals, itemsWithoutIssn } = await lib.libraryJournals();
  const issns = journals.map((j) => j.issn);
  let cache = await lib.journalCache(issns);
  const out: LibraryJournals = { journals: [], itemsWithoutIssn };
  const toFetch = input.refresh
    ? issns
    : issns.filter((i) => cache[i]!.notices.state === 'not-fetched' || cache[i]!.index.state === 'not-fetched');
  if (toFetch.length > 0) {
    const o = input.signal ? { signal: input.signal } : {};
    try {
      const [notices, index] = await Promise.all([
        service.editorialNotices(toFetch, o),
        service.journalIndex(toFetch, o),
      ]);
      const failedIssns = new Set([...notices.failed, ...index.failed].flatMap((f) => f.ids));
      const batch = {
        notices: {} as Record<string, EditorialNoticeCounts | null>,
        index: {} as Record<string, JournalIndexRecord[] | null>,
      };
      for (const issn of toFetch) {
        if (failedIssns.has(issn)) continue;
        batch.notices[issn] = notices.found[issn] ?? null;
        batch.index[issn] = index.found[issn] ?? null;
      }
      await lib.putJournals(batch, now);
      const batches = Math.ceil(toFetch.length / SERVICE_LIMITS.bulkMaxItems);
      out.requests = { notices: batches, index: batches, issns: toFetch.length };
      const firstFailure = notices.failed[0] ?? index.failed[0];
      if (firstFailure) {
        out.failed = { issns: failedIssns.size, message: firstFailure.error.message };
        out.problem = { code: firstFailure.error.code, message: firstFailure.error.message };
      }
    } catch (err) {
      out.problem = problemOf(err);
    }
    cache = await lib.journalCache(issns);
  }
  out.journals = journals.map((j) => {
    const c = cache[j.issn]!;
    return {
      issn: j.issn,
      title: c.index.state === 'found' ? (c.index.value[0]?.journal ?? j.title) : j.title,
      items: j.items,
      notices: c.notices,
      latestIndex: c.index.state === 'found' ? latest(c.index.value) : null,
    };
  });
  return out;
}
