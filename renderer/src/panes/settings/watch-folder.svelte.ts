// Settings → Watch a folder: the folder (the watchFolder setting, checked by the core when it is set:
// browser mode has no folder dialog, so the path is typed) and what the watcher reports
// (pdfWatch.changed: watching, how many captured, the last problem).
import type { CitewiseApi, IpcError, PdfWatchStatus } from '../../../../shared/ipc';

export class WatchFolderState {
  readonly #api: CitewiseApi;
  #status = $state.raw<PdfWatchStatus | null>(null);
  #error = $state<IpcError | null>(null);
  #busy = $state(false);
  /** The path typed in the field. */
  path = $state('');

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get status() {
    return this.#status;
  }
  get error() {
    return this.#error;
  }
  get busy() {
    return this.#busy;
  }

  /** Loads the status and follows it; returns the disposer. */
  start(): () => void {
    void this.load();
    return this.#api.on('pdfWatch.changed', (s) => this.#apply(s));
  }

  async load(): Promise<void> {
    const r = await this.#api.invoke('pdfWatch.status', {});
    if (r.ok) {
      this.#apply(r.value);
      this.path = r.value.folder ?? '';
    }
  }

  #apply(s: PdfWatchStatus): void {
    this.#status = s;
  }

  /** Watches the typed folder; the core says what is wrong with it if it cannot. */
  async watch(): Promise<void> {
    await this.#set(this.path.trim());
  }

  async stop(): Promise<void> {
    await this.#set(null);
  }

  async #set(folder: string | null): Promise<void> {
    this.#busy = true;
    try {
      const r = await this.#api.invoke('settings.update', { watchFolder: folder });
      if (!r.ok) {
        this.#error = r.error;
        return;
      }
      this.#error = null;
      this.path = r.value.watchFolder ?? '';
      await this.load();
    } finally {
      this.#busy = false;
    }
  }
}
