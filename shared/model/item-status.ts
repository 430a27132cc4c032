// The editorial status of a paper, from its notices: what the retraction watch flags. One place, so the
// library, the jobs and the renderer agree on which notices make an item flagged and how severe it is.

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
