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
  /**
   * For a title search still waiting for the service (`pending`): the byline read under the title,
   * which the search weighs when it runs.
   */
  byline?: string;
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

/**
 * The largest PDF the app sends through IPC: its base64 (4/3 of it) must fit the host's 64 MB
 * WebSocket message with room to spare. Capture itself takes up to 200 MB from the command line.
 */
export const MAX_PDF_UPLOAD_BYTES = 40 * 1024 * 1024;

const badChar = (ch: string): boolean =>
  ch === '/' || ch === '\\' || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f;

/** Whether a name holds a path separator or a control character, or is . or .. (a file name sent with a PDF may not). */
export function hasPathOrControl(name: string): boolean {
  return name === '.' || name === '..' || [...name].some(badChar);
}

/** A chosen file's name as it may be sent: separators and control characters become "_", at most 255 characters. */
export function uploadName(name: string): string {
  const safe = [...name]
    .map((ch) => (badChar(ch) ? '_' : ch))
    .join('')
    .slice(0, 255);
  return safe === '' || hasPathOrControl(safe) ? 'unnamed.pdf' : safe;
}
