import type { Settings, settingsFeature } from '../../../shared/ipc';
import type { EventBus } from '../events';
import { checkReadableFolder } from '../fs/paths';
import type { FeatureHandlers } from '../registry';
import type { SettingsStore } from '../settings/store';

export function settingsHandlers(deps: { store: SettingsStore; events: EventBus; dataDir?: string }) {
  return {
    'settings.get': () => deps.store.get(),
    'settings.update': (patch) => {
      const apply = (p: typeof patch): Settings => {
        const next = deps.store.update(p);
        deps.events.emit('settings.changed', next);
        return next;
      };
      // The watched folder must exist, be a folder and be readable now; stored normalised.
      if (typeof patch.watchFolder !== 'string') return apply(patch);
      return checkReadableFolder(
        patch.watchFolder,
        deps.dataDir !== undefined ? { forbiddenDir: deps.dataDir } : {},
      ).then((watchFolder) => apply({ ...patch, watchFolder }));
    },
  } satisfies FeatureHandlers<typeof settingsFeature>;
}
