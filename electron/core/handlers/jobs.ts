import type { jobsFeature } from '../../../shared/ipc';
import type { JobRegistry } from '../jobs/registry';
import type { FeatureHandlers } from '../registry';

export function jobsHandlers(deps: { jobs: JobRegistry }) {
  return {
    'jobs.list': () => deps.jobs.list(),
    'jobs.cancel': ({ id }) => deps.jobs.cancel(id),
  } satisfies FeatureHandlers<typeof jobsFeature>;
}
