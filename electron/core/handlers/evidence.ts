// Saving an evidence record into the library: mapped to CSL-JSON here in the core (the renderer only
// says which record), then added through the library's one undoable "Add item" path, which gives it a
// citation key and puts it in the search index like any paper.
import type { evidenceFeature, LibraryChange, SavedEvidenceItem } from '../../../shared/ipc';
import { datasetNoun, evidenceToCsl, EvidenceRecordError } from '../../../shared/model/evidence-records';
import { CoreError } from '../errors';
import type { AsyncLibrary } from '../library/client';
import type { FeatureHandlers } from '../registry';

export interface EvidenceHandlerDeps {
  library: { lib: Pick<AsyncLibrary, 'addItem' | 'getItem'> };
  changed: (change: LibraryChange) => void;
}

export function evidenceHandlers(deps: EvidenceHandlerDeps) {
  return {
    'evidence.save': async ({ dataset, record }): Promise<SavedEvidenceItem> => {
      let csl;
      try {
        csl = evidenceToCsl(dataset, record);
      } catch (err) {
        if (err instanceof EvidenceRecordError) throw new CoreError('INVALID_INPUT', err.message, { dataset, path: err.path });
        throw err;
      }
      const id = await deps.library.lib.addItem(csl);
      deps.changed({ kind: 'items', ids: [id] });
      const item = await deps.library.lib.getItem(id);
      return { id, citationKey: item.citationKey, title: csl.title ?? `${datasetNoun(dataset)} ${String(csl.number ?? '')}`, type: csl.type };
    },
  } satisfies FeatureHandlers<typeof evidenceFeature>;
}
