import { AUTO_EXPORT_EXTENSIONS, AUTO_EXPORT_FORMAT_LABELS, type AutoExport } from '../../../shared/model/auto-export';
import type { AutoExportInfo, autoExportFeature } from '../../../shared/ipc';
import type { Collection } from '../../../shared/model/library';
import type { DesktopShell } from '../desktop';
import { checkWritableTarget } from '../fs/paths';
import type { AutoExporter } from '../jobs/auto-export';
import type { AsyncLibrary } from '../library/client';
import type { FeatureHandlers } from '../registry';

export interface AutoExportHandlerDeps {
  exporter: AutoExporter;
  library: { lib: Pick<AsyncLibrary, 'listCollections'> };
  /** Citewise's data folder: no auto-export may write inside it. */
  dataDir: string;
  desktop?: DesktopShell | undefined;
}

export function autoExportHandlers(deps: AutoExportHandlerDeps) {
  const { exporter } = deps;
  const withNames = (defs: AutoExport[], collections: Collection[]): AutoExportInfo[] => {
    const names = new Map(collections.map((c) => [c.id, c.name]));
    return defs.map((d) => ({
      ...d,
      collectionName: d.scope.kind === 'collection' ? (names.get(d.scope.collectionId) ?? null) : null,
    }));
  };
  const describe = async (defs: AutoExport[]): Promise<AutoExportInfo[]> =>
    withNames(defs, defs.some((d) => d.scope.kind === 'collection') ? await deps.library.lib.listCollections() : []);

  return {
    'autoExport.list': async () => describe(await exporter.list()),
    'autoExport.add': async ({ path, format, scope, options }) => {
      const target = await checkWritableTarget(path, {
        extensions: [AUTO_EXPORT_EXTENSIONS[format]],
        formatLabel: AUTO_EXPORT_FORMAT_LABELS[format],
        forbiddenDir: deps.dataDir,
      });
      // The store refuses a collection that does not exist, and a path another definition writes.
      const def = await exporter.add({ path: target, format, scope, ...(options ? { options } : {}) });
      const [info] = await describe([def]);
      return info!;
    },
    'autoExport.remove': async ({ id }) => {
      await exporter.remove(id);
      return null;
    },
    'autoExport.run': ({ id, force }) => exporter.runNow(id, { force }),
    'autoExport.chooseFile': async ({ format, suggestedName }) => {
      if (!deps.desktop) return { path: null, available: false };
      const extension = AUTO_EXPORT_EXTENSIONS[format];
      const name = suggestedName && suggestedName !== '' ? suggestedName : 'references';
      const path = await deps.desktop.chooseSaveFile({
        title: 'Keep this file in sync',
        defaultPath: name.toLowerCase().endsWith(`.${extension}`) ? name : `${name}.${extension}`,
        filters: [{ name: AUTO_EXPORT_FORMAT_LABELS[format], extensions: [extension] }],
      });
      return { path, available: true };
    },
  } satisfies FeatureHandlers<typeof autoExportFeature>;
}
