// What capturing a PDF found, kept on the item: which step identified it, from which string, how sure
// the match is, and the candidates a person has to choose between when it is unsure.

/** The identification steps, in the order they are tried. */
export type CaptureMethod = 'xmp' | 'info' | 'text' | 'title-search' | 'none';

/**
 * identified: sure enough to stand; needs-review: two candidates, a weak title match or none;
 * pending: the service could not be asked (offline), completed later; kept: a person kept the PDF as it is.
 */
export type CaptureState = 'identified' | 'needs-review' | 'pending' | 'kept';

export interface CaptureEvidence {
  method: CaptureMethod;
  /** The string that matched (a DOI, an arXiv id, the title read from the first page). */
  matched: string;
  /** The page it was on, for text matches (1-based). */
  page?: number;
  /** For a title search: the hit's title and its score. */
  detail?: string;
}

export interface CaptureCandidate {
  doi: string;
  title?: string;
  score: number;
  evidence: CaptureEvidence;
}

export interface CaptureRecord {
  itemId: number;
  attachmentId: number;
  method: CaptureMethod;
  state: CaptureState;
  /** 0–1: how sure the match is. */
  confidence: number;
  evidence: CaptureEvidence[];
  candidates: CaptureCandidate[];
  capturedAt: number;
}

/** Confidence at or above which a title match stands without review. */
export const TITLE_MATCH_ACCEPT = 0.85;
/** Confidence below which a title search hit is not even offered as a candidate. */
export const TITLE_MATCH_CANDIDATE = 0.5;
