// Restoring a backup from the app: the core checks the backup, keeps a 'pre-restore' backup of the
// library as it is, swaps the file atomically under a closed library worker and reopens it; the
// renderer then hears library.changed { kind: 'all' } (and settings.changed: settings live in the file).
import { z } from 'zod';
import type { BackupInfo } from '../model/library';
import { feature, request } from './define';

export interface RestoreReport {
  /** The backup now in use. */
  restoredFrom: string;
  /** Items in the restored library (outside the trash). */
  items: number;
  /** The library as it was just before, kept as a backup: restoring it undoes this. */
  previous: BackupInfo;
}

export const restoreFeature = feature({
  requests: {
    /** `file` must be one of the backups library.backups lists. */
    'library.backups.restore': request(
      z.object({ file: z.string().min(1).max(4096) }).strict(),
    ).returns<RestoreReport>(),
  },
  events: {},
});
