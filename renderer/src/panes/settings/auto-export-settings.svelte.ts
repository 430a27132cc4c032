// Settings → Files kept in sync: the auto-exports, their status as the core reports it after every
// run (autoExport.status), and the form that sets one up. The path is typed (browser mode has no
// native dialog) or chosen with the desktop app's save dialog; the core checks it either way.
import type { AutoExportInfo, AutoExportStatusEvent, CitewiseApi, IpcError } from '../../../../shared/ipc';
import { AUTO_EXPORT_EXTENSIONS, type AutoExportFormat } from '../../../../shared/model/auto-export';
import type { Collection } from '../../../../shared/model/library';

export class AutoExportSettingsState {
  readonly #api: CitewiseApi;
  #list = $state.raw<AutoExportInfo[] | null>(null);
  #collections = $state.raw<Collection[]>([]);
  #error = $state<IpcError | null>(null);
  #formError = $state<IpcError | null>(null);
  #busy = $state(false);
  #running = $state<Record<number, boolean>>({});
  #dialogAvailable = $state(true);
  /** The form: where, which format, what. */
  path = $state('');
  format = $state<AutoExportFormat>('bibtex');
  /** 'library', or a collection id as text (the select's value). */
  scope = $state('library');
  subcollections = $state(true);
  abstracts = $state(true);
  notes = $state(false);
  /** BibTeX/BibLaTeX only: non-ASCII letters as LaTeX commands. */
  ascii = $state(false);

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get list() {
    return this.#list;
  }
  get collections() {
    return this.#collections;
  }
  get error() {
    return this.#error;
  }
  get formError() {
    return this.#formError;
  }
  get busy() {
    return this.#busy;
  }
  get dialogAvailable() {
    return this.#dialogAvailable;
  }
  isRunning(id: number): boolean {
    return this.#running[id] === true;
  }

  /** Loads and follows run results and collection changes; returns the disposer. */
  start(): () => void {
    void this.load();
    const offStatus = this.#api.on('autoExport.status', (status) => this.#apply(status));
    const offChanged = this.#api.on('library.changed', (change) => {
      if (change.kind === 'collections' || change.kind === 'all') void this.load();
    });
    return () => {
      offStatus();
      offChanged();
    };
  }

  async load(): Promise<void> {
    const [list, collections] = await Promise.all([
      this.#api.invoke('autoExport.list', {}),
      this.#api.invoke('library.collections.list', {}),
    ]);
    if (list.ok) this.#list = list.value;
    else this.#error = list.error;
    if (collections.ok) this.#collections = collections.value;
  }

  /** The desktop app's save dialog; in browser mode it says the path is to be typed. */
  async choose(): Promise<void> {
    const name = this.path.trim().split(/[\\/]/).pop() || undefined;
    const result = await this.#api.invoke('autoExport.chooseFile', {
      format: this.format,
      ...(name ? { suggestedName: name } : {}),
    });
    if (!result.ok) {
      this.#formError = result.error;
      return;
    }
    this.#dialogAvailable = result.value.available;
    if (result.value.path) this.path = result.value.path;
  }

  /** Sets up a file kept in sync; it is written at once, and its status arrives with autoExport.status. */
  async add(): Promise<boolean> {
    this.#formError = null;
    this.#busy = true;
    try {
      const scope =
        this.scope === 'library'
          ? { kind: 'library' as const }
          : { kind: 'collection' as const, collectionId: Number(this.scope), subcollections: this.subcollections };
      const options = { abstracts: this.abstracts, notes: this.notes, ascii: this.ascii && this.bib };
      const result = await this.#api.invoke('autoExport.add', { path: this.path, format: this.format, scope, options });
      if (!result.ok) {
        this.#formError = result.error;
        return false;
      }
      // The first run's status may have arrived (and been loaded) before this answer: keep the newer.
      if (!(this.#list ?? []).some((d) => d.id === result.value.id)) this.#upsert(result.value);
      this.path = '';
      return true;
    } finally {
      this.#busy = false;
    }
  }

  async run(id: number): Promise<void> {
    this.#error = null;
    this.#running = { ...this.#running, [id]: true };
    try {
      const result = await this.#api.invoke('autoExport.run', { id });
      if (!result.ok) this.#error = result.error;
      // The definition's new status arrives with autoExport.status; read it too in case that was missed.
      await this.load();
    } finally {
      const { [id]: _, ...rest } = this.#running;
      this.#running = rest;
    }
  }

  async remove(id: number): Promise<void> {
    this.#error = null;
    const result = await this.#api.invoke('autoExport.remove', { id });
    if (!result.ok) this.#error = result.error;
    else this.#list = (this.#list ?? []).filter((d) => d.id !== id);
  }

  dismissError(): void {
    this.#error = null;
  }

  /** Whether the chosen format is BibTeX or BibLaTeX (the ASCII option applies). */
  get bib(): boolean {
    return this.format === 'bibtex' || this.format === 'biblatex';
  }

  /** The extension the chosen format is written with, for the path field's hint. */
  get extension(): string {
    return AUTO_EXPORT_EXTENSIONS[this.format];
  }

  #apply({ definition }: AutoExportStatusEvent): void {
    const known = this.#list?.find((d) => d.id === definition.id);
    if (!known) {
      void this.load();
      return;
    }
    this.#upsert({ ...definition, collectionName: known.collectionName });
  }

  #upsert(info: AutoExportInfo): void {
    const list = this.#list ?? [];
    this.#list = list.some((d) => d.id === info.id) ? list.map((d) => (d.id === info.id ? info : d)) : [...list, info];
  }
}
