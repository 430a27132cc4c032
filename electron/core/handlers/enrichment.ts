import type { enrichmentFeature } from '../../../shared/ipc';
import type { Enricher } from '../jobs/enrich';
import type { RetractionWatch } from '../jobs/retraction-watch';
import type { FeatureHandlers } from '../registry';

export function enrichmentHandlers(deps: { enricher: Enricher; watch: RetractionWatch }) {
  return {
    'library.enrich': async ({ scope }) => {
      const started = await deps.enricher.startJob(scope, { reason: 'demand' });
      return { jobId: started.jobId, queued: started.queued };
    },
    'library.watch.flagged': () => deps.watch.flagged(),
    'library.watch.changes': ({ unseenOnly, limit }) => deps.watch.changes({ unseenOnly, limit }),
    'library.watch.markSeen': async ({ ids }) => ({ marked: await deps.watch.markSeen(ids) }),
  } satisfies FeatureHandlers<typeof enrichmentFeature>;
}
