// Settings → Editors → Folders editors may use: the editorApiFolders setting, one folder added or
// removed at a time. The core checks each folder when it is set (exists, a folder, readable, not the
// library folder) and says what is wrong; browser mode has no folder dialog, so the path is typed.
import type { CitewiseApi, IpcError, Settings } from '../../../../shared/ipc';

export class EditorFoldersState {
  readonly #api: CitewiseApi;
  #error = $state<IpcError | null>(null);
  #busy = $state(false);
  /** The path typed in the field. */
  path = $state('');

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get error() {
    return this.#error;
  }
  get busy() {
    return this.#busy;
  }

  /** Allows the typed folder besides `current` (the settings' list). */
  async allow(current: readonly string[]): Promise<void> {
    const folder = this.path.trim();
    if (folder === '') return;
    if (await this.#set([...current, folder])) this.path = '';
  }

  /** Stops allowing `folder`. */
  async remove(current: readonly string[], folder: string): Promise<void> {
    await this.#set(current.filter((f) => f !== folder));
  }

  async #set(folders: string[]): Promise<boolean> {
    this.#busy = true;
    try {
      // settings.changed brings the stored list (normalised) to the app's settings.
      const r = await this.#api.invoke('settings.update', { editorApiFolders: folders } satisfies Partial<Settings>);
      if (!r.ok) {
        this.#error = r.error;
        return false;
      }
      this.#error = null;
      return true;
    } finally {
      this.#busy = false;
    }
  }
}
