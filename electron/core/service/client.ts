// The service client: the typed operation functions plus what the panes need on top of them:
// bulk lookups of any size, cancellable paging iterators, tasks, and the key check. The API's
// "contradicting" becomes "contrasting" here (shared/model/evidence), once.
import PQueue from 'p-queue';
import { normalizeDois, normalizeIssns, type InvalidEntry } from '../../../shared/model/doi';
import {
  evidenceCountsFromApi,
  evidenceTallyFromApi,
  inUiWords,
  sumEvidenceCounts,
  type EvidenceCounts,
  type ApiCounts,
  type EvidenceTally,
  type InUiWords,
} from '../../../shared/model/evidence';
import {
  GUESSES,
  SERVICE_LIMITS,
  type AssistantPollRequest,
  type AssistantTask,
  type AuthorPapersResponse,
  type EditorialNoticeCounts,
  type JournalIndexRecord,
  type OperationId,
  type QueryParams,
  type ReferenceCheckTask,
  type SearchResponse,
  type SuccessBody,
} from '../../../shared/service';
import type { AggregateResult, CitingPage, EvidencePage, ReferencesPage, UiPaper } from '../../../shared/model/service';
import { CoreError } from '../errors';
import { systemClock, type Clock } from '../clock';
import { runBulk, type BulkResult, type BulkRun } from './bulk';
import { checkKey, type KeyCheckResult } from './key-check';
import { createOperationFunctions, doiOrInvalid, type ServiceOperationFunctions } from './operations';
import { assistantProgress, referenceCheckProgress, waitForTask, type TaskWaitOptions } from './tasks';
import { ServiceTransport, type CallOptions, type TransportOptions } from './transport';

export interface ServiceClientOptions extends TransportOptions {
  /** Bulk requests in flight at once, across all bulk calls. */
  bulkConcurrency?: number | undefined;
}

export interface BulkOptions extends CallOptions {
  onProgress?: ((done: number, total: number) => void) | undefined;
}

export interface GraphPagingOptions extends CallOptions {
  pageSize?: number | undefined;
  sourceDois?: readonly string[] | undefined;
  papers?: boolean | undefined;
  tallies?: boolean | undefined;
  /** Start here instead of at 0. */
  offset?: number | undefined;
}

export const EVIDENCE_DATASETS = {
  patents: { search: 'searchPatents', schema: 'getPatentsSchema' },
  'clinical-trials': { search: 'searchClinicalTrials', schema: 'getClinicalTrialsSchema' },
  grants: { search: 'searchGrants', schema: 'getGrantsSchema' },
  'device510k-summaries': { search: 'searchDevice510kSummaries', schema: 'getDevice510kSummariesSchema' },
  faers: { search: 'searchFaers', schema: 'getFaersSchema' },
  maude: { search: 'searchMaude', schema: 'getMaudeSchema' },
} as const satisfies Record<string, { search: OperationId; schema: OperationId }>;
export type EvidenceDataset = keyof typeof EVIDENCE_DATASETS;

export interface EvidenceQuery {
  q?: string | undefined;
  /** Space-delimited field:"value" pairs. */
  filter?: string | undefined;
  sort?: string | undefined;
  direction?: 'asc' | 'desc' | undefined;
}

function mapTallies(tallies: Record<string, ApiCounts & { doi: string }> | undefined): Record<string, EvidenceTally> {
  const out: Record<string, EvidenceTally> = {};
  for (const [doi, t] of Object.entries(tallies ?? {}))
    out[doi.toLowerCase()] = evidenceTallyFromApi(t, doi.toLowerCase());
  return out;
}

export class ServiceClient {
  readonly op: ServiceOperationFunctions;
  readonly transport: ServiceTransport;
  readonly #queue: PQueue;
  readonly #clock: Clock;

  constructor(options: ServiceClientOptions) {
    this.transport = new ServiceTransport(options);
    this.op = createOperationFunctions(this.transport);
    this.#queue = new PQueue({ concurrency: options.bulkConcurrency ?? 4 });
    this.#clock = options.clock ?? systemClock;
  }

  /** Ends every call: running and queued ones fail with CANCELLED. */
  close(): void {
    this.transport.close();
  }

  // ── single lookups: null means the service has no data, which is not a tally of zeros ──

  async paper(doi: string, options?: CallOptions): Promise<UiPaper | null> {
    const paper = await this.#orNull(() => this.op.getPaper({ path: { doi: doiOrInvalid(doi) } }, options));
    return paper ? inUiWords(paper) : null;
  }

  async tally(doi: string, options?: CallOptions): Promise<EvidenceTally | null> {
    const normalized = doiOrInvalid(doi);
    const t = await this.#orNull(() => this.op.getTally({ path: { doi: normalized } }, options));
    return t ? evidenceTallyFromApi(t, normalized) : null;
  }

  async #orNull<T>(call: () => Promise<T>): Promise<T | null> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof CoreError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  // ── bulk ──

  /** Every bulk lookup: split to the service's limit, on the shared queue, merged with unknowns kept apart. */
  #bulk<T>(
    ids: readonly string[],
    invalid: InvalidEntry[],
    size: number,
    options: BulkOptions,
    fetchChunk: BulkRun<T>['fetchChunk'],
  ): Promise<BulkResult<T>> {
    return runBulk({ ids, invalid, size, queue: this.#queue, options, onProgress: options.onProgress, fetchChunk });
  }

  papers(dois: Iterable<string>, options: BulkOptions = {}): Promise<BulkResult<UiPaper>> {
    const { dois: ids, invalid } = normalizeDois(dois);
    return this.#bulk(ids, invalid, SERVICE_LIMITS.bulkMaxItems, options, async (chunk, o) => {
      const answer = await this.op.getPapers({ body: chunk }, o);
      return new Map(Object.entries(answer.papers ?? {}).map(([doi, p]) => [doi.toLowerCase(), inUiWords(p)]));
    });
  }

  tallies(dois: Iterable<string>, options: BulkOptions = {}): Promise<BulkResult<EvidenceTally>> {
    const { dois: ids, invalid } = normalizeDois(dois);
    return this.#bulk(ids, invalid, SERVICE_LIMITS.bulkMaxItems, options, async (chunk, o) => {
      const answer = await this.op.getTallies({ body: chunk }, o);
      return new Map(Object.entries(mapTallies(answer.tallies)));
    });
  }

  /** The summed tally of any number of DOIs, 100 per request. */
  async aggregateTally(dois: Iterable<string>, options: BulkOptions = {}): Promise<AggregateResult> {
    const { dois: ids, invalid } = normalizeDois(dois);
    const parts: EvidenceCounts[] = [];
    const result = await this.#bulk(ids, invalid, SERVICE_LIMITS.aggregateMaxItems, options, async (chunk, o) => {
      parts.push(evidenceCountsFromApi(await this.op.getAggregateTally({ body: chunk }, o)));
      // The aggregate cannot say which DOIs it knew; all count as answered.
      return new Map(chunk.map((d) => [d, true]));
    });
    return { counts: sumEvidenceCounts(parts), dois: ids.length, invalid, failed: result.failed };
  }

  journalIndex(issns: Iterable<string>, options: BulkOptions = {}): Promise<BulkResult<JournalIndexRecord[]>> {
    const { issns: ids, invalid } = normalizeIssns(issns);
    return this.#bulk(ids, invalid, SERVICE_LIMITS.bulkMaxItems, options, async (chunk, o) => {
      const answer = await this.op.getJournalIndexBulk({ body: chunk }, o);
      const out = new Map<string, JournalIndexRecord[]>();
      for (const [issn, records] of Object.entries(answer ?? {}))
        if (Array.isArray(records) && records.length > 0) out.set(issn.toUpperCase(), records);
      return out;
    });
  }

  editorialNotices(issns: Iterable<string>, options: BulkOptions = {}): Promise<BulkResult<EditorialNoticeCounts>> {
    const { issns: ids, invalid } = normalizeIssns(issns);
    return this.#bulk(ids, invalid, SERVICE_LIMITS.bulkMaxItems, options, async (chunk, o) => {
      const answer = await this.op.getIssnEditorialNotices({ query: { issn: chunk.join(',') } }, o);
      const out = new Map<string, EditorialNoticeCounts>();
      // An ISSN without data comes back without `notices`: unknown, not zero notices.
      for (const item of answer) if (item.notices) out.set(item.issn.toUpperCase(), item.notices);
      return out;
    });
  }

  // ── paging: async iterators; breaking out of the loop or aborting the signal stops them ──

  async *citing(doi: string, options: GraphPagingOptions = {}): AsyncGenerator<CitingPage, void, undefined> {
    const target = doiOrInvalid(doi);
    const pageSize = options.pageSize ?? 1000;
    let offset = options.offset ?? 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const query: QueryParams<'getCitingCitations'> = { limit: pageSize, offset };
      if (options.papers) query.papers = true;
      if (options.tallies) query.tallies = true;
      if (options.sourceDois?.length)
        (query as Record<string, unknown>)[GUESSES.citingSourceDoiParam] = [...options.sourceDois];
      const answer = await this.op.getCitingCitations({ path: { doi: target }, query }, options);
      const total = answer.metadata.totalCitationCount ?? answer.citations.length;
      const citations = inUiWords(answer.citations);
      yield {
        offset,
        total,
        citations,
        papers: inUiWords(answer.papers ?? {}),
        tallies: mapTallies((answer as { tallies?: Parameters<typeof mapTallies>[0] }).tallies),
        metadata: inUiWords(answer.metadata),
      };
      offset += citations.length;
      if (citations.length === 0 || citations.length < pageSize || offset >= total) return;
    }
  }

  async *referencesTo(doi: string, options: GraphPagingOptions = {}): AsyncGenerator<ReferencesPage, void, undefined> {
    const target = doiOrInvalid(doi);
    const pageSize = options.pageSize ?? 1000;
    let offset = options.offset ?? 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const query: QueryParams<'getReferencesTo'> = { limit: pageSize, offset };
      if (options.papers) query.papers = true;
      if (options.tallies) query.tallies = true;
      if (options.sourceDois?.length) query['source_doi[]'] = [...options.sourceDois];
      const answer = await this.op.getReferencesTo({ path: { doi: target }, query }, options);
      const total = answer.metadata.totalReferenceCount;
      yield {
        offset,
        total,
        references: answer.references,
        papers: inUiWords(answer.papers ?? {}),
        tallies: mapTallies(answer.tallies),
        metadata: answer.metadata,
      };
      offset += answer.references.length;
      if (answer.references.length === 0 || answer.references.length < pageSize || offset >= total) return;
    }
  }

  /** An author's papers, following `nextPage`. Only its offset and limit are used: the link's host is not trusted with the key. */
  async *authorPapers(
    slug: string,
    options: CallOptions & { pageSize?: number; offset?: number } = {},
  ): AsyncGenerator<InUiWords<AuthorPapersResponse>, void, undefined> {
    let offset = options.offset ?? 0;
    let limit = Math.min(options.pageSize ?? SERVICE_LIMITS.authorPapersMaxLimit, SERVICE_LIMITS.authorPapersMaxLimit);
    for (;;) {
      options.signal?.throwIfAborted();
      const page = inUiWords(
        await this.op.getAuthorPapers({ path: { author_slug: slug }, query: { offset, limit } }, options),
      );
      yield page;
      const next = nextPageParams(page.nextPage);
      if (!next || page.papers.length === 0 || next.offset <= offset) return;
      offset = next.offset;
      limit = Math.min(next.limit ?? limit, SERVICE_LIMITS.authorPapersMaxLimit);
    }
  }

  /** Pages of an evidence dataset's search, from the first page until the results run out. */
  async *evidenceSearch(
    dataset: EvidenceDataset,
    query: EvidenceQuery,
    options: CallOptions & { firstPage?: number; maxPages?: number } = {},
  ): AsyncGenerator<EvidencePage, void, undefined> {
    const op = EVIDENCE_DATASETS[dataset].search;
    let page = options.firstPage ?? GUESSES.evidencePageBase;
    let seen = 0;
    for (let n = 0; n < (options.maxPages ?? Number.POSITIVE_INFINITY); n++) {
      options.signal?.throwIfAborted();
      const answer = (await this.evidencePage(dataset, query, page, options)) as unknown as Record<string, unknown> & {
        totalResults: number;
        results: unknown[];
        from?: number;
      };
      yield { page, totalResults: answer.totalResults, results: answer.results, raw: answer };
      seen = (answer.from ?? seen) + answer.results.length;
      if (answer.results.length === 0 || seen >= answer.totalResults) return;
      page++;
    }
    void op;
  }

  /** One page of an evidence search, with the guessed parameter names from the contract's guess table. */
  evidencePage(
    dataset: EvidenceDataset,
    query: EvidenceQuery,
    page: number,
    options?: CallOptions,
  ): Promise<SuccessBody<(typeof EVIDENCE_DATASETS)[EvidenceDataset]['search']>> {
    const q: Record<string, string | number> = { [GUESSES.evidencePageParam]: page };
    if (query.q !== undefined) q.q = query.q;
    if (query.filter !== undefined) q[GUESSES.evidenceFilterParam] = query.filter;
    if (query.sort !== undefined) q.s = query.sort;
    if (query.direction !== undefined) q[GUESSES.evidenceSortDirectionParam] = query.direction;
    const fn = this.op[EVIDENCE_DATASETS[dataset].search] as (
      args: { query: Record<string, unknown> },
      o?: CallOptions,
    ) => Promise<never>;
    return fn({ query: q }, options);
  }

  evidenceSchema(dataset: EvidenceDataset, options?: CallOptions): Promise<SuccessBody<'getPatentsSchema'>> {
    const fn = this.op[EVIDENCE_DATASETS[dataset].schema] as (
      args: object,
      o?: CallOptions,
    ) => Promise<SuccessBody<'getPatentsSchema'>>;
    return fn({}, options);
  }

  /** Pages of the paper search; stops at the reported count or `maxResults` (the count may be approximate). */
  async *search(
    query: QueryParams<'search'>,
    options: CallOptions & { pageSize?: number; maxResults?: number } = {},
  ): AsyncGenerator<InUiWords<SearchResponse>, void, undefined> {
    const pageSize = options.pageSize ?? query.limit ?? 20;
    const max = options.maxResults ?? 1000;
    let offset = query.offset ?? 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const page = inUiWords(await this.op.search({ query: { ...query, limit: pageSize, offset } }, options));
      yield page;
      offset += page.hits.length;
      if (page.hits.length === 0 || page.hits.length < pageSize || offset >= page.count || offset >= max) return;
    }
  }

  // ── tasks ──

  /** Starts an assistant request (never retried: that would start a second task). */
  async startAssistant(request: AssistantPollRequest, options?: CallOptions): Promise<AssistantTask> {
    // `effort` is Citewise's name for a field the sources leave unnamed; the wire name is a guess.
    const { effort, ...rest } = request;
    const body = effort === undefined ? rest : { ...rest, [GUESSES.assistantEffortField]: effort };
    return this.op.pollAssistant({ body: body as AssistantPollRequest }, options);
  }

  async waitForAssistant(taskId: string, options: TaskWaitOptions = {}): Promise<InUiWords<AssistantTask>> {
    const task = await waitForTask(
      {
        taskId,
        kind: 'assistant',
        clock: this.#clock,
        get: (o) => this.op.getAssistantTask({ path: { task_id: taskId } }, o),
        cancel: () => this.op.cancelAssistantTask({ path: { task_id: taskId } }, { deadlineMs: 10_000 }),
        progress: (t) => assistantProgress(taskId, t),
      },
      options,
    );
    return inUiWords(task);
  }

  async runAssistant(request: AssistantPollRequest, options: TaskWaitOptions = {}): Promise<InUiWords<AssistantTask>> {
    const started = await this.startAssistant(request, { signal: options.signal });
    return this.waitForAssistant(started.id, options);
  }

  async startReferenceCheck(
    source: { fileUrl: string } | { file: { name: string; data: Blob } },
    options?: CallOptions,
  ): Promise<string> {
    const args = 'fileUrl' in source ? { query: { file_url: source.fileUrl } } : { query: {}, file: source.file };
    const scheduled = await this.op.submitReferenceCheck(args, options);
    return scheduled.id;
  }

  async waitForReferenceCheck(taskId: string, options: TaskWaitOptions = {}): Promise<InUiWords<ReferenceCheckTask>> {
    const task = await waitForTask(
      {
        taskId,
        kind: 'reference-check',
        clock: this.#clock,
        get: (o) => this.op.getReferenceCheckTask({ path: { task_id: taskId } }, o),
        cancel: () => this.op.cancelReferenceCheckTask({ path: { task_id: taskId } }, { deadlineMs: 10_000 }),
        progress: (t) => referenceCheckProgress(taskId, t),
      },
      options,
    );
    return inUiWords(task);
  }

  // ── keys ──

  checkKey(key: string, signal?: AbortSignal): Promise<KeyCheckResult> {
    return checkKey(this.transport, key, signal);
  }
}

/** offset and limit of a `nextPage` link; the link itself is never requested. */
export function nextPageParams(link: string | null | undefined): { offset: number; limit?: number } | null {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link, 'http://placeholder.invalid');
  } catch {
    return null;
  }
  const offset = Number(url.searchParams.get('offset'));
  if (!Number.isInteger(offset) || offset < 0) return null;
  const limitText = url.searchParams.get('limit');
  const limit = limitText === null ? undefined : Number(limitText);
  return limit !== undefined && Number.isInteger(limit) && limit > 0 ? { offset, limit } : { offset };
}
