// Settings → Editors → Folders editors may use (renderer/src/panes/settings/editor-folders.svelte.ts)
// in Node against a real in-process core: a folder that is not there, a file, or the library's own
// folder refused with the core's reason (nothing stored, the typed path kept); real ones stored
// normalised, once each; at most MAX_EDITOR_API_FOLDERS (at and above); removed one at a time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EDITOR_API_FOLDERS } from '../../../shared/ipc';
import { EditorFoldersState } from '../../../renderer/src/panes/settings/editor-folders.svelte';
import { tempDir } from '../../helpers/tmp';
import { coreForTests, offlineCore } from './helpers';

let root: ReturnType<typeof tempDir>;
const env = coreForTests(() => offlineCore('editor-folders'));

beforeAll(() => {
  root = tempDir('citewise-editor-folders-');
});
afterAll(() => root?.remove());

const stored = async (): Promise<string[]> => {
  const r = await env.t.api.invoke('settings.get', {});
  if (!r.ok) throw new Error(r.error.message);
  return r.value.editorApiFolders ?? [];
};

describe('EditorFoldersState against the core', () => {
  it('refuses what is not a readable folder outside the library, and stores nothing', async () => {
    const state = new EditorFoldersState(env.t.api);
    const file = join(root.path, 'notes.txt');
    writeFileSync(file, 'x');
    for (const path of [join(root.path, 'not-there'), file, env.t.dataDir]) {
      state.path = path;
      await state.allow([]);
      expect(state.busy).toBe(false);
      expect(state.error?.message, path).toBeTruthy();
      expect(state.path).toBe(path);
      expect(await stored()).toEqual([]);
    }
    state.path = join(root.path, 'not-there');
    await state.allow([]);
    expect(state.error?.message).toContain('not-there');
  });

  it('stores real folders normalised and once, and removes one at a time', async () => {
    const state = new EditorFoldersState(env.t.api);
    const thesis = join(root.path, 'thesis');
    const notes = join(root.path, 'notes');
    mkdirSync(thesis);
    mkdirSync(notes);
    state.path = `${thesis}/./`;
    await state.allow(await stored());
    expect(state.error).toBeNull();
    expect(state.path).toBe('');
    expect(await stored()).toEqual([thesis]);
    state.path = thesis;
    await state.allow(await stored());
    expect(await stored()).toEqual([thesis]);
    state.path = notes;
    await state.allow(await stored());
    expect(await stored()).toEqual([thesis, notes]);
    await state.remove(await stored(), thesis);
    expect(await stored()).toEqual([notes]);
    await state.remove(await stored(), notes);
    expect(await stored()).toEqual([]);
  });

  it(`takes at most ${MAX_EDITOR_API_FOLDERS} folders`, async () => {
    const folders = Array.from({ length: MAX_EDITOR_API_FOLDERS + 1 }, (_, i) => {
      const f = join(root.path, `f${i}`);
      mkdirSync(f);
      return f;
    });
    const state = new EditorFoldersState(env.t.api);
    state.path = folders[MAX_EDITOR_API_FOLDERS - 1]!;
    await state.allow(folders.slice(0, MAX_EDITOR_API_FOLDERS - 1));
    expect(state.error).toBeNull();
    expect(await stored()).toHaveLength(MAX_EDITOR_API_FOLDERS);
    state.path = folders[MAX_EDITOR_API_FOLDERS]!;
    await state.allow(await stored());
    expect(state.error?.message).toContain(`at most ${MAX_EDITOR_API_FOLDERS} folders`);
    expect(await stored()).toHaveLength(MAX_EDITOR_API_FOLDERS);
  });
});
