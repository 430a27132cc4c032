// The manuscript check (shared/ipc/manuscript.ts): parse what the pane sends, look its citations up in
// the library worker, answer the report. Nothing is written and nothing is asked of the service.
import type { manuscriptFeature } from '../../../shared/ipc';
import type { AsyncLibrary } from '../library/client';
import { checkManuscript } from '../manuscript/check';
import { parseManuscriptInWorker } from '../manuscript/in-worker';
import type { FeatureHandlers } from '../registry';

export interface ManuscriptHandlerDeps {
  library: { lib: Pick<AsyncLibrary, 'citedItems'> };
}

export function manuscriptHandlers(deps: ManuscriptHandlerDeps) {
  return {
    'manuscript.check': async ({ source, contrasting }) => {
      // Parsed in the formats worker: this thread answers the UI.
      const parsed = await parseManuscriptInWorker(
        source.kind === 'file'
          ? {
              kind: 'bytes',
              name: source.name,
              bytes: Buffer.from(source.base64, 'base64'),
              aux: source.aux ? { name: source.aux.name, bytes: Buffer.from(source.aux.base64, 'base64') } : undefined,
            }
          : { kind: 'bytes', name: source.name, bytes: Buffer.from(source.text, 'utf8') },
      );
      return checkManuscript(parsed, (refs) => deps.library.lib.citedItems(refs), { contrasting });
    },
  } satisfies FeatureHandlers<typeof manuscriptFeature>;
}
