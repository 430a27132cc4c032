// The library's side of PDF capture (migration 0015): reading the evidence kept for each captured
// PDF. The write, item + attachment + evidence in one transaction, is Library.capturePdf.
import type { CslItem } from '../../../shared/model/csl';
import type { CaptureCandidate, CaptureEvidence, CaptureMethod, CaptureRecord, CaptureState } from '../../../shared/model/pdf-capture';
import { sql, type ReadDb } from './sql';

/** One captured PDF, as Library.capturePdf stores it. */
export interface CaptureInput {
  csl: CslItem;
  attachment: { path: string; sha256: string; size: number; stored: 'copied' | 'linked' };
  method: CaptureMethod;
  state: CaptureState;
  confidence: number;
  evidence: CaptureEvidence[];
  candidates: CaptureCandidate[];
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
    evidence: JSON.parse(row.evidence) as CaptureEvidence[],
    candidates: JSON.parse(row.candidates) as CaptureCandidate[],
    capturedAt: row.captured_at,
  };
}

export function capturesOf(db: ReadDb, itemId: number): CaptureRecord[] {
  return db.all<CaptureRow>(sql`SELECT * FROM pdf_captures WHERE item_id = ${itemId} ORDER BY attachment_id`).map(record);
}

/** Captures a person still has to look at (needs-review) or that wait for the service (pending), oldest first. */
export function unsettledCaptures(db: ReadDb, limit = 500): CaptureRecord[] {
  return db
    .all<CaptureRow>(sql`SELECT c.* FROM pdf_captures c JOIN items i ON i.id = c.item_id WHERE c.state IN ('needs-review', 'pending') AND i.trashed_at IS NULL ORDER BY c.captured_at, c.attachment_id LIMIT ${limit}`)
    .map(record);
}
