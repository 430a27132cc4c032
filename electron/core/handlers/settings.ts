import type { settingsFeature } from '../../../shared/ipc';
import type { EventBus } from '../events';
import type { FeatureHandlers } from '../registry';
import type { SettingsStore } from '../settings/store';

export function settingsHandlers(deps: { store: SettingsStore; events: EventBus }) {
  return {
    'settings.get': () => deps.store.get(),
    'settings.update': (patch) => {
      const next = deps.store.update(patch);
      deps.events.emit('settings.changed', next);
      return next;
    },
  } satisfies FeatureHandlers<typeof settingsFeature>;
}
