// Settings → Watch a folder (renderer/src/panes/settings/watch-folder.svelte.ts) in Node against a
// real in-process core that watches folders: a folder that is not there refused with the core's reason
// (busy cleared, the typed path kept), a real one watched and a PDF that appears in it counted, stop.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WatchFolderState } from '../../../renderer/src/panes/settings/watch-folder.svelte';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';
import { coreForTests, enrichmentSettled, offlineCore, until } from './helpers';

let folder: ReturnType<typeof tempDir>;

const env = coreForTests(() =>
  offlineCore('watch', { watchFolder: true, pdfWatch: { stableMs: 50, pollMs: 50, rescanMs: 200 } }),
);

beforeAll(async () => {
  folder = tempDir('citewise-watched-');
});

afterAll(async () => {
  folder?.remove();
});

describe('WatchFolderState against the core', () => {
  it('refuses a folder that is not there, watches a real one, counts a PDF put in it, and stops', async () => {
    const state = new WatchFolderState(env.t.api);
    const stop = state.start();
    try {
      await until(() => state.status !== null, 'the status');
      expect(state.status?.state).toBe('off');

      state.path = join(folder.path, 'not-there');
      await state.watch();
      expect(state.busy).toBe(false);
      expect(state.error?.code).toBe('NOT_FOUND');
      expect(state.error?.message).toContain('not-there');
      expect(state.path).toBe(join(folder.path, 'not-there'));
      expect(state.status?.state).toBe('off');

      state.path = `  ${folder.path}  `;
      await state.watch();
      expect(state.error).toBeNull();
      expect(state.path).toBe(folder.path);
      await until(() => state.status?.state === 'watching', 'the watcher');

      writeFileSync(
        join(folder.path, 'dropped.pdf'),
        await makePdf({ title: 'A Paper Put in the Folder', byline: 'Al Alone', xmpDoi: '10.5555/watched.1' }),
      );
      await until(() => state.status?.captured === 1, 'the PDF to be captured', 30_000);
      await enrichmentSettled(env.t.api);

      await state.stop();
      expect(state.path).toBe('');
      await until(() => state.status?.state === 'off', 'the watcher to stop');
    } finally {
      stop();
    }
  });
});
