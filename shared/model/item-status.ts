// The editorial status of a paper, from its notices: what the retraction watch flags. One place, so the
// library, the jobs and the renderer agree on which notices make an item flagged and how severe it is.
import type { ItemId } from './library';

/** Least to most severe. `none` is not flagged (it includes papers whose only notice is a comment). */
export const ITEM_STATUSES = ['none', 'correction', 'expression-of-concern', 'withdrawn', 'retracted'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export const STATUS_LABELS: Record<ItemStatus, string> = {
  none: 'no notices',
  correction: 'corrected',
  'expression-of-concern': 'under an expression of concern',
  withdrawn: 'withdrawn',
  retracted: 'retracted',
};

/**
 * The most severe status the notice kinds imply. Kinds are the service's notice statuses, lowercased
 * ("retracted", "withdrawn", "has expression of concern", "has correction", "has erratum", "comment");
 * `retracted` is the paper's own flag, which wins even without a notice.
 */
export function statusFromNotices(kinds: readonly string[], retracted: boolean | null = null): ItemStatus {
  const k = new Set(kinds.map((s) => s.trim().toLowerCase()));
  if (retracted === true || k.has('retracted')) return 'retracted';
  if (k.has('withdrawn')) return 'withdrawn';
  if (k.has('has expression of concern')) return 'expression-of-concern';
  if (k.has('has correction') || k.has('has erratum')) return 'correction';
  return 'none';
}

export const isFlagged = (status: ItemStatus): boolean => status !== 'none';

// What enrichment and the retraction watch report; plain data, shown by the renderer.

export type EnrichScope =
  | { kind: 'library' }
  | { kind: 'items'; ids: ItemId[] }
  | { kind: 'collection'; id: number }
  | { kind: 'query'; query: string }
  | { kind: 'dois'; dois: string[] };

export type EnrichReason = 'import' | 'demand' | 'refresh';

export type RunState = 'running' | 'paused' | 'done' | 'cancelled';

export interface EnrichRun {
  id: number;
  label: string;
  reason: EnrichReason;
  state: RunState;
  /** DOIs in the run. */
  total: number;
  done: number;
  /** DOIs given up after MAX_ATTEMPTS (e.g. refused as invalid by the service). */
  failed: number;
  /** Items that got fields filled from the service. */
  filled: number;
  /** DOIs still queued. */
  remaining: number;
  message: string;
  createdAt: number;
  updatedAt: number;
}

export interface EnqueueResult {
  /** null when there was nothing to fetch (no item in scope has a DOI, or nothing is stale). */
  run: EnrichRun | null;
  /** Items in scope that have no DOI, so the service cannot be asked about them. */
  withoutDoi: number;
}

export interface StatusChange {
  id: number;
  doi: string;
  items: { id: ItemId; citationKey: string; title: string | null }[];
  /** null: the first time this DOI's notices were seen. */
  previous: ItemStatus | null;
  current: ItemStatus;
  changedAt: number;
  seenAt: number | null;
}

export interface FlaggedItem {
  id: ItemId;
  citationKey: string;
  title: string | null;
  doi: string;
  status: ItemStatus;
  /** The notice kinds behind the status, lowercased as the service words them ("has correction"…). */
  notices: string[];
  checkedAt: number;
}
