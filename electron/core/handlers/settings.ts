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
      // The watched folder and the editors' folders must exist, be folders and be readable now; they
      // are stored normalised, and never inside the data folder (its library, backups and PDFs).
      const folder = (path: string) =>
        checkReadableFolder(path, deps.dataDir !== undefined ? { forbiddenDir: deps.dataDir } : {});
      if (typeof patch.watchFolder !== 'string' && patch.editorApiFolders === undefined) return apply(patch);
      return (async () => {
        const checked = { ...patch };
        if (typeof patch.watchFolder === 'string') checked.watchFolder = await folder(patch.watchFolder);
        if (patch.editorApiFolders !== undefined) {
          const folders: string[] = [];
          for (const f of patch.editorApiFolders) folders.push(await folder(f));
          checked.editorApiFolders = [...new Set(folders)];
        }
        return apply(checked);
      })();
    },
  } satisfies FeatureHandlers<typeof settingsFeature>;
}
