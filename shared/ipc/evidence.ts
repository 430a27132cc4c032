// Evidence records into the library: a patent, trial, grant, 510(k) device, FAERS or MAUDE record,
// as the Evidence pane shows it, saved as a citable CSL item (see shared/model/evidence-records.ts).
// The search, schema, detail and facet channels themselves are the service's (shared/ipc/service.ts).
import { z } from 'zod';
import { EVIDENCE_RECORD_DATASETS } from '../model/evidence-records';
import { feature, request } from './define';
import { grouped } from '../model/numbers';

/** The largest record (as JSON) a save may carry: a patent family with many publications fits easily. */
export const MAX_EVIDENCE_RECORD_CHARS = 1_000_000;

function jsonSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const record = z.record(z.string().max(200), z.unknown()).refine((r) => jsonSize(r) <= MAX_EVIDENCE_RECORD_CHARS, {
  message: `the record is larger than ${grouped(MAX_EVIDENCE_RECORD_CHARS)} characters as JSON`,
});

export interface SavedEvidenceItem {
  id: number;
  citationKey: string;
  title: string;
  /** The CSL type it was saved as (patent, report…). */
  type: string;
  /** True when the record was in the library already: nothing was added, this is that item. */
  alreadySaved: boolean;
}

export const evidenceFeature = feature({
  requests: {
    /**
     * Adds the record to the library as one undoable "Add item": a citation key, searchable, exportable.
     * A record saved before (same dataset and identifier, not in the trash) is answered as it is.
     */
    'evidence.save': request(
      z.object({ dataset: z.enum(EVIDENCE_RECORD_DATASETS), record }).strict(),
    ).returns<SavedEvidenceItem>(),
    /** The item the record was saved as (not in the trash), or null: nothing is written. */
    'evidence.saved': request(
      z.object({ dataset: z.enum(EVIDENCE_RECORD_DATASETS), record }).strict(),
    ).returns<SavedEvidenceItem | null>(),
  },
  events: {},
});
