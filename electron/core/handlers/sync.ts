// Settings → Sharing, the status bar's sync status and the Conflicts view: the IPC side of the sync
// engine (core/sync). Member changes go to the server, which checks the caller's role.
import type { SyncOptions, syncFeature } from '../../../shared/ipc';
import { CoreError } from '../errors';
import type { FeatureHandlers } from '../registry';
import type { SyncEngine } from '../sync/engine';
import { listMembers, removeMember, setMember } from '../sync/server/members';
import type { LibraryClient } from '../library/client';

export interface SyncHandlerDeps {
  engine: SyncEngine;
  library: Pick<LibraryClient, 'sync'>;
  /** Told when a resolution or a fetched file changed the library. */
  changed: (ids?: readonly number[]) => void;
}

const MIB = 1024 * 1024;

export function syncHandlers(deps: SyncHandlerDeps) {
  const options = async (): Promise<SyncOptions> => {
    const o = await deps.library.sync.options();
    return { fetchFilesAhead: o.fetchFilesAhead, maxFileMegabytes: Math.round(o.maxFileBytes / MIB) };
  };
  return {
    'sync.status': () => deps.engine.status(),
    'sync.connect': ({ url, password }) => deps.engine.connect(url, password ?? null),
    'sync.disconnect': ({ leave }) => deps.engine.disconnect({ leave }),
    'sync.now': () => deps.engine.syncNow(),
    'sync.conflicts': () => deps.library.sync.conflicts(),
    'sync.resolve': async ({ kind, uid, choices }) => {
      const result = await deps.library.sync.resolve(kind, uid, choices);
      deps.changed();
      deps.engine.localChange();
      return result;
    },
    'sync.log': ({ limit }) => deps.library.sync.log(limit),
    'sync.options.get': () => options(),
    'sync.options.set': async ({ fetchFilesAhead, maxFileMegabytes }) => {
      await deps.library.sync.setOptions({
        ...(fetchFilesAhead !== undefined ? { fetchFilesAhead } : {}),
        ...(maxFileMegabytes !== undefined ? { maxFileBytes: maxFileMegabytes * MIB } : {}),
      });
      deps.engine.localChange();
      return options();
    },
    'sync.fetchFile': async ({ attachmentId }) => {
      const want = await deps.library.sync.wantFile(attachmentId);
      if (!want) return { fetched: false };
      if (!want.path) throw new CoreError('NOT_FOUND', 'The attachment is not in the library.');
      const fetched = await deps.engine.download(want.sha256, want.path);
      if (!fetched)
        throw new CoreError(
          'NOT_FOUND',
          'The server does not have this file yet; the member who attached it has not sent it.',
        );
      deps.changed();
      return { fetched };
    },
    'sync.members.list': () => deps.engine.withConnection((c) => listMembers(c)),
    'sync.members.set': async ({ login, role, password }) => ({
      result: await deps.engine.withConnection((c) => setMember(c, login, role, password ?? null)),
    }),
    'sync.members.remove': async ({ login }) => ({
      removed: await deps.engine.withConnection((c) => removeMember(c, login)),
    }),
  } satisfies FeatureHandlers<typeof syncFeature>;
}
