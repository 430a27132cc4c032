// Saving an evidence record into the library: mapped to CSL-JSON here in the core (the renderer only
// says which record), then added through the library's one undoable "Add item" path, which gives it a
// citation key and puts it in the search index like any paper.
import type { evidenceFeature, LibraryChange, SavedEvidenceItem } from '../../../shared/ipc';
import {
  datasetNoun,
  evidenceToCsl,
  EvidenceRecordError,
  type EvidenceRecordDataset,
} from '../../../shared/model/evidence-records';
import { CoreError } from '../errors';
import type { CslItem } from '../../../shared/model/csl';
import type { AsyncLibrary, AsyncStore } from '../library/client';
import type { FeatureHandlers } from '../registry';

export interface EvidenceHandlerDeps {
  library: { lib: Pick<AsyncLibrary, 'addItem' | 'getItem'>; listing: Pick<AsyncStore<'listing'>, 'list'> };
  changed: (change: LibraryChange) => void;
}

interface EvidenceMark {
  dataset?: unknown;
  id?: unknown;
}

const markOf = (csl: CslItem): EvidenceMark | null => {
  const m = (csl.custom as { evidence?: EvidenceMark } | undefined)?.evidence;
  return m && typeof m === 'object' ? m : null;
};

/** The record as a CSL item, or INVALID_INPUT saying what is missing and where. */
function toCsl(dataset: EvidenceRecordDataset, record: unknown): CslItem {
  try {
    return evidenceToCsl(dataset, record);
  } catch (err) {
    if (err instanceof EvidenceRecordError)
      throw new CoreError('INVALID_INPUT', err.message, { dataset, path: err.path });
    throw err;
  }
}

export function evidenceHandlers(deps: EvidenceHandlerDeps) {
  /**
   * The item this record was saved as before (not in the trash): found by its title, then compared
   * by the dataset and identifier the item was saved with.
   */
  async function findSaved(csl: CslItem): Promise<SavedEvidenceItem | null> {
    const mark = markOf(csl);
    if (!csl.title || !mark) return null;
    const phrase = csl.title
      .replace(/["“”\\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!phrase) return null;
    // Looking is a courtesy: a title the search language cannot take must not stop a save.
    const page = await deps.library.listing.list({ query: `title:"${phrase}"`, limit: 50 }).catch(() => null);
    for (const row of page?.rows ?? []) {
      const existing = await deps.library.lib.getItem(row.id);
      const other = markOf(existing.csl);
      if (other && other.dataset === mark.dataset && other.id === mark.id) {
        return {
          id: row.id,
          citationKey: existing.citationKey,
          title: existing.title ?? csl.title,
          type: existing.type,
          alreadySaved: true,
        };
      }
    }
    return null;
  }

  return {
    'evidence.save': async ({ dataset, record }): Promise<SavedEvidenceItem> => {
      const csl = toCsl(dataset, record);
      const existing = await findSaved(csl);
      if (existing) return existing;
      const id = await deps.library.lib.addItem(csl);
      deps.changed({ kind: 'items', ids: [id] });
      const item = await deps.library.lib.getItem(id);
      return {
        id,
        citationKey: item.citationKey,
        title: csl.title ?? `${datasetNoun(dataset)} ${String(csl.number ?? '')}`,
        type: csl.type,
        alreadySaved: false,
      };
    },
    'evidence.saved': async ({ dataset, record }) => findSaved(toCsl(dataset, record)),
  } satisfies FeatureHandlers<typeof evidenceFeature>;
}
