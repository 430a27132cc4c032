import type { enrichmentFeature, ItemServiceData } from '../../../shared/ipc';
import type { UiPaper } from '../../../shared/model/service';
import type { Enricher } from '../jobs/enrich';
import type { RetractionWatch } from '../jobs/retraction-watch';
import type { LibraryClient } from '../library/client';
import type { FeatureHandlers } from '../registry';

export function enrichmentHandlers(deps: { enricher: Enricher; watch: RetractionWatch; library: LibraryClient }) {
  async function cached(id: number): Promise<ItemServiceData> {
    const { doi } = await deps.library.lib.getItem(id);
    if (!doi) return { doi: null, paper: { state: 'not-fetched' } };
    const paper = await deps.library.serviceCache.getPaper(doi);
    return { doi, paper: paper.state === 'found' ? { ...paper, paper: paper.paper as UiPaper } : paper };
  }
  return {
    'library.enrich': async ({ scope }) => {
      const started = await deps.enricher.startJob(scope, { reason: 'demand' });
      return { jobId: started.jobId, queued: started.queued };
    },
    'library.item.service': ({ id }) => cached(id),
    'library.item.refresh': async ({ id }) => {
      const before = await cached(id);
      if (!before.doi) return before;
      const { outcome } = await deps.enricher.enrich(
        { kind: 'items', ids: [id] },
        { reason: 'demand', label: 'Refresh one item' },
      );
      const after = await cached(id);
      return outcome?.paused
        ? { ...after, problem: { code: outcome.paused.code, message: outcome.paused.message } }
        : after;
    },
    'library.watch.flagged': () => deps.watch.flagged(),
    'library.watch.changes': ({ unseenOnly, limit }) => deps.watch.changes({ unseenOnly, limit }),
    'library.watch.markSeen': async ({ ids }) => ({ marked: await deps.watch.markSeen(ids) }),
  } satisfies FeatureHandlers<typeof enrichmentFeature>;
}
