// The library's side of PDF capture (migration 0015): reading the evidence kept for each captured
// PDF. The write, item + attachment + evidence in one transaction, is Library.capturePdf.
import type { CslItem } from '../../../shared/model/csl';
import type {
  CaptureCandidate,
  CaptureEvidence,
  CaptureMethod,
  CaptureRecord,
  CaptureState,
} from '../../../shared/model/pdf-capture';
import { sql, type ReadDb } from './sql';
import { arrayOf, isObject, readStored } from './stored-json';

/** One captured PDF, as Library.capturePdf stores it. */
export interface CaptureInput {
  csl: CslItem;
  attachment: { path: string; sha256: string; size: number; stored: 'copied' | 'linked'; originalName?: string };
  method: CaptureMethod;
  state: CaptureState;
  confidence: number;
  evidence: CaptureEvidence[];
  candidates: CaptureCandidate[];
  /** The item the PDF belongs to (a Zotero Connector save): attached to it, without identifying it. */
  into?: number;
}

export type CaptureStored =
  | { status: 'added'; itemId: number; attachmentId: number }
  /** The item was already in the library (same DOI) without this PDF: the PDF is attached to it. */
  | { status: 'attached'; itemId: number; attachmentId: number }
  | { status: 'duplicate'; itemId: number; reason: 'checksum' | 'doi' | 'title' | 'key-title' };

interface CaptureRow {
  attachment_id: number;
  item_id: number;
  method: CaptureMethod;
  state: CaptureState;
  confidence: number;
  evidence: string;
  candidates: string;
  captured_at: number;
}

function record(row: CaptureRow): CaptureRecord {
  return {
    itemId: row.item_id,
    attachmentId: row.attachment_id,
    method: row.method,
    state: row.state,
    confidence: row.confidence,
    evidence: readStored<CaptureEvidence[]>(
      row.evidence,
      `The evidence of the captured PDF ${row.attachment_id}`,
      arrayOf(isObject),
    ),
    candidates: readStored<CaptureCandidate[]>(
      row.candidates,
      `The candidates of the captured PDF ${row.attachment_id}`,
      arrayOf(isObject),
    ),
    capturedAt: row.captured_at,
  };
}

/** An item's captures by attachment (the tests read them through this: test/helpers/captures.ts). */
export function capturesOf(db: ReadDb, itemId: number): CaptureRecord[] {
  return db
    .all<CaptureRow>(sql`SELECT * FROM pdf_captures WHERE item_id = ${itemId} ORDER BY attachment_id`)
    .map(record);
}

/** Captures a person still has to look at (needs-review) or that wait for the service (pending), oldest first. */
export function unsettledCaptures(db: ReadDb, limit = 500): CaptureRecord[] {
  return db
    .all<CaptureRow>(
      sql`SELECT c.* FROM pdf_captures c JOIN items i ON i.id = c.item_id WHERE c.state IN ('needs-review', 'pending') AND i.trashed_at IS NULL ORDER BY c.captured_at, c.attachment_id LIMIT ${limit}`,
    )
    .map(record);
}

/** What the title search decided for a capture (pdf/capture.ts, searchByTitle). */
export interface TitleSearchOutcome {
  method: CaptureMethod;
  state: 'identified' | 'needs-review';
  confidence: number;
  evidence: CaptureEvidence[];
  candidates: CaptureCandidate[];
  /** The DOI that stands (normalised); null when the state is needs-review. */
  doi: string | null;
}

/** A capture waiting for its title search (pending-captures.ts), with what the search needs. */
export interface PendingTitleSearch {
  attachmentId: number;
  itemId: number;
  /** The first page's title, as read when the PDF was captured. */
  title: string;
  /** The byline under it; null when there was none (or the capture is older than the byline's keeping). */
  byline: string | null;
}

/** The captures waiting for the service's paper search, oldest first; items in the trash wait until they are back. */
export function pendingTitleSearches(db: ReadDb, limit = 500): PendingTitleSearch[] {
  return db
    .all<CaptureRow>(
      sql`SELECT c.* FROM pdf_captures c JOIN items i ON i.id = c.item_id WHERE c.state = 'pending' AND i.trashed_at IS NULL ORDER BY c.captured_at, c.attachment_id LIMIT ${limit}`,
    )
    .map(record)
    .flatMap((c) => {
      const e = c.evidence[0];
      return e && e.matched !== ''
        ? [{ attachmentId: c.attachmentId, itemId: c.itemId, title: e.matched, byline: e.byline ?? null }]
        : [];
    });
}
