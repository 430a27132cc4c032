// The service through IPC: the key (set, check, clear, status: never read back), the service
// address, and the lookups the panes need. Inputs are validated here; DOIs are normalised by the
// core's service client, which answers invalid ones as INVALID_INPUT (single) or in `invalid` (bulk).
import { z } from 'zod';
import type { EvidenceTally, InUiWords } from '../model/evidence';
import type {
  AggregateResult,
  BulkResult,
  CitingPage,
  UiPaper,
  EvidencePage,
  KeyCheckResult,
  ReferencesPage,
  TaskKind,
  TaskProgress,
} from '../model/service';
import type {
  AssistantTask,
  AuthorPapersResponse,
  CitedByCitation,
  Collection,
  EditorialNoticeCounts,
  EvidenceSchemaResponse,
  JournalIndexRecord,
  MaudeFacetsResponse,
  ReferenceCheckTask,
  ReferencesResponse,
  SearchResponse,
  TaskStatus,
} from '../service';
import { CITATION_STYLES, GUESSES } from '../service';
import { EVIDENCE_RECORD_DATASETS } from '../model/evidence-records';
import { event, feature, request, type IpcError } from './define';

/** Where the key in use comes from; 'environment' is CITEWISE_API_KEY, used for one run and never stored. */
export type ServiceKeyLocation = 'keychain' | 'session' | 'environment' | 'none';

/** What the renderer may know about the key: never the key. */
export interface ServiceKeyStatus {
  stored: boolean;
  where: ServiceKeyLocation;
  keychainAvailable: boolean;
  reason?: string;
}

export type ServiceUrlSource = 'command-line' | 'setting' | 'default';

export interface ServiceConfig {
  serviceUrl: string;
  source: ServiceUrlSource;
  defaultUrl: string;
}

export interface TaskStarted {
  taskId: string;
  kind: TaskKind;
  /** The background job that waits for it (listed by jobs.list, cancellable with jobs.cancel). */
  jobId: string;
}

export interface TaskFinished {
  taskId: string;
  kind: TaskKind;
  status: TaskStatus | 'TIMEOUT' | 'ERROR';
  assistant?: InUiWords<AssistantTask>;
  referenceCheck?: InUiWords<ReferenceCheckTask>;
  error?: IpcError;
}

const MAX_BULK = 20_000;
const doi = z.string().min(1).max(1000);
const dois = z.array(z.string().max(1000)).max(MAX_BULK);
const issns = z.array(z.string().max(100)).max(MAX_BULK);
const empty = z.object({}).strict();
const id = z.string().min(1).max(500);
const graphPage = {
  doi,
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(10_000).default(1000),
  papers: z.boolean().optional(),
  tallies: z.boolean().optional(),
  sourceDois: z.array(doi).max(500).optional(),
};

/** The evidence datasets a search or a record names: the same six a record can be saved from. */
export const EVIDENCE_DATASET_NAMES = EVIDENCE_RECORD_DATASETS;

const searchQuery = z
  .object({
    term: z.string().max(2000).optional(),
    mode: z.enum(['all', 'citations', 'papers', 'question-answering']).optional(),
    limit: z.number().int().min(0).max(1000).optional(),
    offset: z.number().int().min(0).max(100_000).optional(),
    sort: z
      .enum([
        'date',
        'total_cited',
        'total_supported',
        'total_contrasted',
        'total_mentioned',
        'total_citing_publications',
      ])
      .optional(),
    sort_order: z.enum(['asc', 'desc']).optional(),
    title: z.string().max(1000).optional(),
    abstract: z.string().max(1000).optional(),
    date_from: z.string().max(10).optional(),
    date_to: z.string().max(10).optional(),
    // A guessed wire name: from the contract's guess table, like every other.
    [GUESSES.searchCitationTypesParam]: z.array(z.enum(['supporting', 'contrasting', 'mentioning'])).optional(),
    has_retraction: z.boolean().optional(),
    has_concern: z.boolean().optional(),
    has_correction: z.boolean().optional(),
    has_erratum: z.boolean().optional(),
    has_withdrawn: z.boolean().optional(),
    has_tally: z.boolean().optional(),
    supporting_from: z.number().int().min(0).optional(),
    supporting_to: z.number().int().min(0).optional(),
    mentioning_from: z.number().int().min(0).optional(),
    mentioning_to: z.number().int().min(0).optional(),
    contrasting_from: z.number().int().min(0).optional(),
    contrasting_to: z.number().int().min(0).optional(),
    citing_publications_from: z.number().int().min(0).optional(),
    citing_publications_to: z.number().int().min(0).optional(),
    author: z.string().max(500).optional(),
    journal: z.string().max(500).optional(),
    publisher: z.string().max(500).optional(),
    section: z.string().max(100).optional(),
    paper_type: z.string().max(100).optional(),
    affiliation: z.string().max(500).optional(),
    topic: z.string().max(500).optional(),
    substances: z.array(z.string().max(200)).max(50).optional(),
    mesh_type: z.string().max(200).optional(),
  })
  .strict();

const assistantRequest = z
  .object({
    userInput: z.string().min(1).max(20_000),
    turns: z.array(z.record(z.string(), z.unknown())).max(200).optional(),
    alwaysUseReferences: z.boolean().optional(),
    neverUseReferences: z.boolean().optional(),
    abstractsOnly: z.boolean().optional(),
    fullTextsOnly: z.boolean().optional(),
    numReferences: z.number().int().min(0).max(1000).optional(),
    rankBy: z
      .enum(['all', 'relevance', 'date', 'citations', 'supporting-citations', 'contrasting-citations', 'journal-rank'])
      .optional(),
    answerLength: z.enum(['short', 'medium', 'long']).optional(),
    /** Citewise's name; the client sends it under the guessed wire name (GUESSES.assistantEffortField). */
    effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
    model: z.string().max(200).optional(),
    citationStyle: z.enum(CITATION_STYLES).optional(),
    yearFrom: z.string().max(10).optional(),
    yearTo: z.string().max(10).optional(),
    topics: z.array(z.string().max(200)).max(100).optional(),
    journals: z.array(z.string().max(500)).max(100).optional(),
    citationSections: z.array(z.string().max(100)).max(20).optional(),
    publicationTypes: z.array(z.string().max(100)).max(50).optional(),
    referenceChecks: z.array(z.string().max(200)).max(50).optional(),
    dois: z.array(z.string().max(1000)).max(1000).optional(),
    searches: z.array(z.string().max(1000)).max(50).optional(),
    dashboards: z.array(z.number().int()).max(50).optional(),
    useStructuredResponse: z.boolean().optional(),
    usePatentMode: z.boolean().optional(),
    useMixedPatentMode: z.boolean().optional(),
    openAccessOnly: z.boolean().optional(),
    saveSession: z.boolean().optional(),
    sessionId: z.number().int().optional(),
    reprocessTurnIdx: z.number().int().optional(),
    columnSlug: z.string().max(200).optional(),
  })
  .strict();

const collectionCreate = z
  .object({
    name: z.string().min(1).max(500),
    email: z.string().max(500).optional(),
    description: z.string().max(5000).optional(),
    isPublic: z.boolean().optional(),
    isHidden: z.boolean().optional(),
    isSharedWithOrg: z.boolean().optional(),
    dois: z.array(z.string().max(1000)).max(MAX_BULK).optional(),
    query: z.record(z.string(), z.unknown()).optional(),
    enableDashboardCitationAlerts: z.boolean().optional(),
  })
  .strict();

const taskDeadline = z
  .number()
  .int()
  .min(1000)
  .max(24 * 3600 * 1000)
  .optional();

export const serviceFeature = feature({
  requests: {
    // ── key and address ──
    'service.key.set': request(z.object({ key: z.string().min(1).max(4096) }).strict()).returns<ServiceKeyStatus>(),
    'service.key.check': request(empty).returns<KeyCheckResult>(),
    'service.key.clear': request(empty).returns<ServiceKeyStatus>(),
    'service.key.status': request(empty).returns<ServiceKeyStatus>(),
    'service.config.get': request(empty).returns<ServiceConfig>(),
    /** null returns to the default address. */
    'service.config.set': request(
      z.object({ serviceUrl: z.string().min(1).max(2048).nullable() }).strict(),
    ).returns<ServiceConfig>(),
    // ── papers and tallies ──
    'service.paper': request(z.object({ doi }).strict()).returns<UiPaper | null>(),
    'service.tally': request(z.object({ doi }).strict()).returns<EvidenceTally | null>(),
    'service.papers': request(z.object({ dois }).strict()).returns<BulkResult<UiPaper>>(),
    'service.tallies': request(z.object({ dois }).strict()).returns<BulkResult<EvidenceTally>>(),
    'service.tallies.aggregate': request(z.object({ dois }).strict()).returns<AggregateResult>(),
    // ── citation graph ──
    'service.citing.page': request(z.object(graphPage).strict()).returns<CitingPage>(),
    'service.citedBy': request(
      z.object({ doi, papers: z.boolean().optional(), tallies: z.boolean().optional() }).strict(),
    ).returns<{
      citations: InUiWords<CitedByCitation>[];
      papers: Record<string, UiPaper>;
      tallies: Record<string, EvidenceTally>;
    }>(),
    'service.references.to.page': request(z.object(graphPage).strict()).returns<ReferencesPage>(),
    'service.references.from': request(
      z.object({ doi, papers: z.boolean().optional(), tallies: z.boolean().optional() }).strict(),
    ).returns<Omit<InUiWords<ReferencesResponse>, 'tallies'> & { tallies: Record<string, EvidenceTally> }>(),
    // ── authors and journals ──
    'service.author.papers': request(
      z
        .object({
          slug: id,
          offset: z.number().int().min(0).default(0),
          limit: z.number().int().min(1).max(50).default(50),
        })
        .strict(),
    ).returns<InUiWords<AuthorPapersResponse>>(),
    'service.journal.index': request(
      z.object({ issn: z.string().min(1).max(100), year: z.string().max(200).optional() }).strict(),
    ).returns<JournalIndexRecord[]>(),
    'service.journal.indexBulk': request(z.object({ issns }).strict()).returns<BulkResult<JournalIndexRecord[]>>(),
    'service.journal.notices': request(z.object({ issns }).strict()).returns<BulkResult<EditorialNoticeCounts>>(),
    // ── collections and search ──
    'service.collections.create': request(collectionCreate).returns<Collection>(),
    'service.collections.get': request(z.object({ slug: id }).strict()).returns<Collection>(),
    'service.search': request(searchQuery).returns<InUiWords<SearchResponse>>(),
    // ── evidence datasets ──
    'service.evidence.search': request(
      z
        .object({
          dataset: z.enum(EVIDENCE_DATASET_NAMES),
          q: z.string().max(5000).optional(),
          filter: z.string().max(5000).optional(),
          sort: z.string().max(200).optional(),
          direction: z.enum(['asc', 'desc']).optional(),
          page: z.number().int().min(0).max(100_000).optional(),
        })
        .strict(),
    ).returns<EvidencePage>(),
    'service.evidence.schema': request(
      z.object({ dataset: z.enum(EVIDENCE_DATASET_NAMES) }).strict(),
    ).returns<EvidenceSchemaResponse>(),
    'service.evidence.record': request(
      z.object({ kind: z.enum(['grant', 'device510k', 'faers']), id }).strict(),
    ).returns<Record<string, unknown>>(),
    'service.evidence.maudeFacets': request(
      z
        .object({
          qs: z.string().max(5000),
          fs: z.string().max(5000).optional(),
          whitelist: z.array(z.string().max(200)).max(100).optional(),
        })
        .strict(),
    ).returns<MaudeFacetsResponse>(),
    // ── tasks: started here, followed through service.task.* events ──
    'service.assistant.start': request(
      z.object({ request: assistantRequest, deadlineMs: taskDeadline }).strict(),
    ).returns<TaskStarted>(),
    'service.assistant.cancel': request(z.object({ taskId: id }).strict()).returns<{ cancelled: boolean }>(),
    'service.referenceCheck.start': request(
      z.object({ fileUrl: z.string().min(1).max(65_536), deadlineMs: taskDeadline }).strict(),
    ).returns<TaskStarted>(),
    'service.referenceCheck.cancel': request(z.object({ taskId: id }).strict()).returns<{ cancelled: boolean }>(),
    'service.referenceCheck.reportUrl': request(z.object({ taskId: id }).strict()).returns<{ reportUrl: string }>(),
  },
  events: {
    'service.task.progress': event<TaskProgress>(),
    'service.task.finished': event<TaskFinished>(),
    'service.key.changed': event<ServiceKeyStatus>(),
    'service.config.changed': event<ServiceConfig>(),
  },
});
