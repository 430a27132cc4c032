// The Settings pane's view of the library: where its file and backups are, the backups made so far,
// and a sample citation in the default style, taken from the library itself.
import type { CitewiseApi, IpcError, LibraryStatus, RestoreReport } from '../../../../shared/ipc';
import type { BackupInfo } from '../../../../shared/model/library';
import type { CitationLocale } from '../../../../shared/model/settings';

export class LibrarySettingsState {
  readonly #api: CitewiseApi;
  #status = $state<LibraryStatus | null>(null);
  #backups = $state.raw<BackupInfo[] | null>(null);
  #busy = $state(false);
  #error = $state<IpcError | null>(null);
  #lastBackup = $state<BackupInfo | null>(null);
  #sample = $state<{ html: string; text: string } | null>(null);
  #restoring = $state(false);
  #lastRestore = $state<RestoreReport | null>(null);
  #sampleRequest = 0;

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get status() {
    return this.#status;
  }
  get backups() {
    return this.#backups;
  }
  get busy() {
    return this.#busy;
  }
  get error() {
    return this.#error;
  }
  get lastBackup() {
    return this.#lastBackup;
  }
  get sample() {
    return this.#sample;
  }
  get restoring() {
    return this.#restoring;
  }
  get lastRestore() {
    return this.#lastRestore;
  }

  /** Loads and follows changes to the library (an import elsewhere changes its counts); returns the disposer. */
  start(): () => void {
    void this.load();
    return this.#api.on('library.changed', (change) => {
      if (change.kind === 'all' || change.kind === 'items' || change.kind === 'trash') void this.#loadStatus();
    });
  }

  async load(): Promise<void> {
    await Promise.all([this.#loadStatus(), this.#loadBackups()]);
  }

  async backUp(): Promise<void> {
    this.#busy = true;
    this.#error = null;
    try {
      const result = await this.#api.invoke('library.backup', {});
      if (!result.ok) {
        this.#error = result.error;
        return;
      }
      this.#lastBackup = result.value;
      await this.#loadBackups();
    } finally {
      this.#busy = false;
    }
  }

  /**
   * Replaces the library with a backup. The core keeps a 'pre-restore' backup of the library as it is
   * first; every view reloads on the library.changed that follows. On failure nothing was changed.
   */
  async restore(file: string): Promise<void> {
    this.#restoring = true;
    this.#error = null;
    this.#lastRestore = null;
    try {
      const result = await this.#api.invoke('library.backups.restore', { file });
      if (!result.ok) {
        this.#error = result.error;
        return;
      }
      this.#lastRestore = result.value;
      await this.load();
    } finally {
      this.#restoring = false;
    }
  }

  /** The first item of the library cited in the style, or null when the library is empty. */
  async loadSample(style: string, locale: CitationLocale): Promise<void> {
    const n = ++this.#sampleRequest;
    const page = await this.#api.invoke('library.list', { limit: 1, sort: { column: 'dateAdded', direction: 'asc' } });
    if (n !== this.#sampleRequest) return;
    const first = page.ok ? page.value.rows[0] : undefined;
    if (!first) {
      this.#sample = null;
      return;
    }
    const cite = await this.#api.invoke('library.cite', { ids: [first.id], style, locale, kind: 'bibliography' });
    if (n !== this.#sampleRequest) return;
    this.#sample = cite.ok ? cite.value : null;
  }

  dismissError(): void {
    this.#error = null;
  }

  async #loadStatus(): Promise<void> {
    const result = await this.#api.invoke('library.status', {});
    if (result.ok) this.#status = result.value;
    else this.#error = result.error;
  }

  async #loadBackups(): Promise<void> {
    const result = await this.#api.invoke('library.backups', {});
    if (result.ok) this.#backups = [...result.value].sort((a, b) => b.createdAt - a.createdAt);
    else this.#error = result.error;
  }
}
