// The service contract for TypeScript: aliases of the generated types (schema.gen.ts, from
// openapi.yaml), the operation table, the scope list, the guessed names, and a few pure helpers.
// Runs in every runtime: no Node built-ins, no DOM.
import type { components, operations, paths } from './schema.gen';
import { serviceOperations } from './schema.gen';
import { GUESSES } from './guesses';

export type { components, operations, paths };
export { serviceOperations };
export { GUESSES, type GuessId } from './guesses';

type Schemas = components['schemas'];

// ── Resources ──
export type Doi = Schemas['Doi'];
export type Paper = Schemas['Paper'];
export type PaperAuthor = Schemas['PaperAuthor'];
export type EditorialNotice = Schemas['EditorialNotice'];
export type EditorialNoticeStatus = Schemas['EditorialNoticeStatus'];
export type PreprintLink = Schemas['PreprintLink'];
export type PublicationLink = Schemas['PublicationLink'];
export type PapersResponse = Schemas['PapersResponse'];
export type Tally = Schemas['Tally'];
export type TallyCounts = Schemas['TallyCounts'];
export type CitingTally = Schemas['CitingTally'];
export type TalliesResponse = Schemas['TalliesResponse'];
export type JournalIndexRecord = Schemas['JournalIndexRecord'];
export type JournalIndexBulkResponse = Schemas['JournalIndexBulkResponse'];
export type EditorialNoticeCounts = Schemas['EditorialNoticeCounts'];
export type IssnEditorialNotices = Schemas['IssnEditorialNotices'];
export type AuthorRecord = Schemas['AuthorRecord'];
export type AuthorPapersResponse = Schemas['AuthorPapersResponse'];
// ── Citation graph ──
export type CitationType = Schemas['CitationType'];
export type Citation = Schemas['Citation'];
export type SelfCite = Schemas['SelfCite'];
export type CitingMetadata = Schemas['CitingMetadata'];
export type CitingResponse = Schemas['CitingResponse'];
export type CitedByCitation = Schemas['CitedByCitation'];
export type CitedByResponse = Schemas['CitedByResponse'];
export type Reference = Schemas['Reference'];
export type ReferencesResponse = Schemas['ReferencesResponse'];
// ── Collections ──
export type Collection = Schemas['Collection'];
export type CollectionCreateRequest = Schemas['CollectionCreateRequest'];
export type CollectionQuery = Schemas['CollectionQuery'];
// ── Assistant ──
export type AssistantPollRequest = Schemas['AssistantPollRequest'];
export type AssistantTask = Schemas['AssistantTask'];
export type AssistantProgressInfo = Schemas['AssistantProgressInfo'];
export type AssistantSession = Schemas['AssistantSession'];
export type AssistantTurn = Schemas['AssistantTurn'];
export type AssistantReference = Schemas['AssistantReference'];
export type AssistantPaper = Schemas['AssistantPaper'];
export type AssistantStep = Schemas['AssistantStep'];
export type AssistantEffort = Schemas['AssistantEffort'];
export type AssistantRankBy = Schemas['AssistantRankBy'];
export type AssistantAnswerLength = Schemas['AssistantAnswerLength'];
export type CitationStyle = Schemas['CitationStyle'];
export type TaskStatus = Schemas['TaskStatus'];
// ── Reference check ──
export type ReferenceCheckScheduled = Schemas['ReferenceCheckScheduled'];
export type ReferenceCheckTask = Schemas['ReferenceCheckTask'];
export type ReferenceCheckResult = Schemas['ReferenceCheckResult'];
export type ReferenceCheckCitation = Schemas['ReferenceCheckCitation'];
export type ReferenceCheckResultUrl = Schemas['ReferenceCheckResultUrl'];
// ── Search ──
export type SearchResponse = Schemas['SearchResponse'];
export type SearchHit = Schemas['SearchHit'];
export type SearchSort = Schemas['SearchSort'];
export type SearchMode = Schemas['SearchMode'];
export type CitationStatement = Schemas['CitationStatement'];
// ── Evidence ──
export type HighlightedValue = Schemas['HighlightedValue'];
export type PatentSearchResponse = Schemas['PatentSearchResponse'];
export type PatentFamily = Schemas['PatentFamily'];
export type Patent = Schemas['Patent'];
export type ClinicalTrialSearchResponse = Schemas['ClinicalTrialSearchResponse'];
export type ClinicalTrial = Schemas['ClinicalTrial'];
export type GrantSearchResponse = Schemas['GrantSearchResponse'];
export type GrantSearchResult = Schemas['GrantSearchResult'];
export type GrantAward = Schemas['GrantAward'];
export type Grant = Schemas['Grant'];
export type Device510kSearchResponse = Schemas['Device510kSearchResponse'];
export type Device510kSummary = Schemas['Device510kSummary'];
export type Device510k = Schemas['Device510k'];
export type FaersSearchResponse = Schemas['FaersSearchResponse'];
export type FaersReport = Schemas['FaersReport'];
export type MaudeSearchResponse = Schemas['MaudeSearchResponse'];
export type MaudeReport = Schemas['MaudeReport'];
export type MaudeFacetsRequest = Schemas['MaudeFacetsRequest'];
export type MaudeFacetsResponse = Schemas['MaudeFacetsResponse'];
export type EvidenceSchemaResponse = Schemas['EvidenceSchemaResponse'];
export type EvidenceSchemaField = Schemas['EvidenceSchemaField'];
// ── Errors ──
export type HttpError = Schemas['HttpError'];
export type ValidationError = Schemas['ValidationError'];
export type ValidationErrorDetail = Schemas['ValidationErrorDetail'];

// ── Operations ──
export type OperationId = keyof operations;
export type ServiceOperation = (typeof serviceOperations)[OperationId];

type Params<Op extends OperationId> = operations[Op]['parameters'];
/** Path parameters of an operation (`never` when it has none). */
export type PathParams<Op extends OperationId> = NonNullable<Params<Op>['path']>;
/** Query parameters of an operation (`never` when it has none). */
export type QueryParams<Op extends OperationId> = NonNullable<Params<Op>['query']>;
/** JSON request body of an operation (`never` when it has none). */
export type RequestBody<Op extends OperationId> =
  NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;
type Responses<Op extends OperationId> = operations[Op]['responses'];
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** Body of the success answer (200, or 201 for submissions). */
export type SuccessBody<Op extends OperationId> =
  Responses<Op> extends { 200: infer R } ? JsonOf<R> : Responses<Op> extends { 201: infer R } ? JsonOf<R> : never;

// ── Scopes ──
/**
 * The entitlements named by `x-citewise-scope`. `public` needs no entitlement (whether a token is
 * needed at all is the operation's `auth`); the others are what a key must be granted.
 */
export const SERVICE_SCOPES = [
  'public',
  'citations',
  'collections',
  'assistant',
  'reference-check',
  'evidence-patents',
  'evidence-clinical-trials',
  'evidence-grants',
  'evidence-device510k',
  'evidence-faers',
  'evidence-maude',
] as const;
export type ServiceScope = (typeof SERVICE_SCOPES)[number];

export function isServiceScope(value: unknown): value is ServiceScope {
  return typeof value === 'string' && (SERVICE_SCOPES as readonly string[]).includes(value);
}

// ── Values the contract fixes, as runtime lists (checked against openapi.yaml by the contract tests) ──
export const TASK_STATUSES = [
  'PENDING',
  'STARTED',
  'SUCCESS',
  'FAILURE',
  'REVOKED',
  'CANCELLED',
] as const satisfies readonly TaskStatus[];
/** Statuses after which polling stops. */
export const TERMINAL_TASK_STATUSES = [
  'SUCCESS',
  'FAILURE',
  'REVOKED',
  'CANCELLED',
] as const satisfies readonly TaskStatus[];
export const CITATION_STYLES = [
  'apa',
  'ieee',
  'mla',
  'ama',
  'chicago',
  'harvard',
  'vancouver',
  'bibtex',
] as const satisfies readonly CitationStyle[];
export const ASSISTANT_STEPS = [
  'SCHEDULING_ASSISTANT',
  'GENERATING_SEARCH_STRATEGY',
  'EXECUTING_SEARCHES',
  'RETRIEVING_UPLOADED_DOCUMENTS',
  'RETRIEVING_PRIMARY_SOURCES',
  'COMPOSING_RESPONSE',
  'GENERATING_RESPONSE',
] as const satisfies readonly AssistantStep[];
export const CITATION_TYPES = ['supporting', 'contradicting', 'mentioning'] as const satisfies readonly CitationType[];

export const SERVICE_LIMITS = {
  /** POST /papers, POST /tallies, POST /issn-sji-bulk, ISSNs of /issn-editorial-notices. */
  bulkMaxItems: 500,
  /** POST /tallies/aggregate. */
  aggregateMaxItems: 100,
  /** `limit` of the author papers endpoint. */
  authorPapersMaxLimit: 50,
  /** `numReferences` of the assistant. */
  assistantMaxReferences: 1000,
  /** Citing and references_to page with limit/offset beyond this total. */
  graphPagingThreshold: 3000,
} as const;

export const DEFAULT_SERVICE_URL = 'https://api.scite.ai';

export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return (TERMINAL_TASK_STATUSES as readonly TaskStatus[]).includes(status);
}

// ── Paths ──
/**
 * A DOI ready for a path segment: slashes stay literal (guess `doiPathSlashes`), every other
 * reserved character is percent-encoded.
 */
export function encodeDoiForPath(doi: string): string {
  return encodeURIComponent(doi).replaceAll('%2F', '/');
}

/**
 * Fills a path template such as `/papers/{doi}`. A `doi` parameter keeps its slashes; other
 * parameters are fully percent-encoded. Throws when a parameter is missing.
 */
export function fillPath(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter "${name}" for ${template}`);
    const text = String(value);
    return name === 'doi' ? encodeDoiForPath(text) : encodeURIComponent(text);
  });
}

/** Path of an evidence dataset's schema (field discovery) endpoint; `dataset` is the search path's last segment. */
export function evidenceSchemaPath(dataset: string): string {
  return GUESSES.evidenceSchemaPath.replace('{dataset}', dataset);
}
