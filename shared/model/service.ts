// What the service client hands to the rest of Citewise, in Citewise's vocabulary: bulk results
// where every identifier is accounted for, pages of the citation graph, task progress, and the
// access a key grants. The client (electron/core/service) produces these; IPC carries them as is.
import type { IpcError } from '../ipc/define';
import type {
  CitingResponse,
  Citation,
  Paper,
  Reference,
  ReferencesResponse,
  ServiceScope,
  TaskStatus,
} from '../service';
import type { InvalidEntry } from './doi';
import type { EvidenceCounts, EvidenceTally, InUiWords } from './evidence';

export interface BulkFailure {
  ids: string[];
  error: IpcError;
}

/** Every requested identifier is in exactly one of found, unknown, invalid or failed. */
export interface BulkResult<T> {
  /** Keyed by the normalised identifier. */
  found: Record<string, T>;
  /** Valid identifiers the service has no data for: not the same as zero. */
  unknown: string[];
  /** Rejected before anything was sent, with the reason. */
  invalid: InvalidEntry[];
  /** Identifiers whose request failed after retries, with the error. */
  failed: BulkFailure[];
}

export interface AggregateResult {
  counts: EvidenceCounts;
  /** Valid DOIs sent. */
  dois: number;
  invalid: InvalidEntry[];
  failed: BulkFailure[];
}

/** A paper as the service describes it, its tallies in the UI's words. */
export type UiPaper = InUiWords<Paper>;

/** A citation edge with the UI's word for its type. */
export type CitationEdge = InUiWords<Citation>;

export interface CitingPage {
  offset: number;
  total: number;
  citations: CitationEdge[];
  papers: Record<string, UiPaper>;
  tallies: Record<string, EvidenceTally>;
  metadata: InUiWords<CitingResponse['metadata']>;
}

export interface ReferencesPage {
  offset: number;
  total: number;
  references: Reference[];
  papers: Record<string, UiPaper>;
  tallies: Record<string, EvidenceTally>;
  metadata: ReferencesResponse['metadata'];
}

export interface EvidencePage {
  page: number;
  totalResults: number;
  results: unknown[];
  /** The whole answer (its other fields differ per dataset). */
  raw: Record<string, unknown>;
}

export type TaskKind = 'assistant' | 'reference-check';

/** What the UI shows while a task runs. */
export interface TaskProgress {
  taskId: string;
  kind: TaskKind;
  status: TaskStatus;
  step?: string;
  stepNumber?: number;
  totalSteps?: number;
  description?: string;
  /** The partial answer so far (assistant). */
  response?: string;
  searches?: string[];
  currentSearch?: string;
  publicationsConsulting?: string[];
  publicationsUsed?: string[];
}

export interface ScopeAccess {
  scope: ServiceScope;
  label: string;
  /** null when the check could not tell (the service failed or was unreachable). */
  granted: boolean | null;
  note?: string;
}

export interface KeyCheckResult {
  /** Whether the service accepts the key at all. */
  valid: boolean;
  /** One sentence for the researcher. */
  summary: string;
  access: ScopeAccess[];
}
