import { basename } from 'node:path';
import type { RestoreReport, restoreFeature } from '../../../shared/ipc';
import { CoreError } from '../errors';
import type { JobRegistry } from '../jobs/registry';
import { listBackups, replaceLibraryFile } from '../library/backup';
import type { LibraryClient } from '../library/client';
import type { FeatureHandlers } from '../registry';

export interface RestoreHandlerDeps {
  library: Pick<LibraryClient, 'backupDir' | 'backup' | 'inspectBackup' | 'replaceFile'>;
  /** The library file. */
  file: string;
  jobs: Pick<JobRegistry, 'list'>;
  /** Closes the core's other connection to the file (settings) before the swap. */
  beforeSwap: () => void;
  /** Reopens it after the swap (or after the previous file was put back). */
  afterSwap: () => void;
  /** Told once the restored library is open: tell the renderer, rewrite auto-exports. */
  onRestored: () => void;
}

/** Jobs that write the library as they go: a restore under them would lose or misplace their work. */
const WRITING_JOBS = new Set(['library.import', 'zotero.import', 'enrich']);

export function restoreHandlers(deps: RestoreHandlerDeps) {
  let restoring = false;
  return {
    'library.backups.restore': async ({ file }): Promise<RestoreReport> => {
      if (restoring) throw new CoreError('CONFLICT', 'A restore is already under way.');
      const backup = listBackups(deps.library.backupDir).find((b) => b.file === file);
      if (!backup)
        throw new CoreError(
          'NOT_FOUND',
          `"${basename(file)}" is not one of the backups in ${deps.library.backupDir}; nothing was changed.`,
        );
      const busy = deps.jobs.list().find((j) => j.state === 'running' && WRITING_JOBS.has(j.kind));
      if (busy)
        throw new CoreError(
          'CONFLICT',
          `"${busy.label}" is still running; wait for it to finish (or cancel it), then restore. Nothing was changed.`,
        );
      restoring = true;
      try {
        // Nothing is touched until the backup is proven good.
        const inspection = await deps.library.inspectBackup(backup.file);
        if (inspection.problem !== null) {
          throw new CoreError(
            'VALIDATION',
            `${basename(backup.file)} is not a good backup (${inspection.problem}); nothing was changed.`,
          );
        }
        const previous = await deps.library.backup('pre-restore');
        deps.beforeSwap();
        try {
          await deps.library.replaceFile(
            () => replaceLibraryFile(backup.file, deps.file),
            () => replaceLibraryFile(previous.file, deps.file),
          );
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          throw new CoreError(
            'INTERNAL',
            `Could not restore ${basename(backup.file)}: ${why}. The library was put back as it was (a copy is also kept as ${basename(previous.file)}).`,
          );
        } finally {
          deps.afterSwap();
        }
        deps.onRestored();
        return { restoredFrom: backup.file, items: inspection.items, previous };
      } finally {
        restoring = false;
      }
    },
  } satisfies FeatureHandlers<typeof restoreFeature>;
}
