import type { appFeature, AppInfo } from '../../../shared/ipc';
import type { ConnectivityState } from '../connectivity';
import type { FeatureHandlers } from '../registry';

export function appHandlers(deps: { info: AppInfo; connectivity: ConnectivityState }) {
  return {
    'app.info': () => deps.info,
    'app.connectivity': () => deps.connectivity.get(),
    'diag.echo': ({ payload }) => ({ payload }),
  } satisfies FeatureHandlers<typeof appFeature>;
}
