import type { CitewiseApi, IpcError, ZoteroImportPreview, ZoteroImportReport } from '../../../../shared/ipc';

export type ZoteroImportStep =
  | { step: 'idle' }
  /** The path typed; `error` says beside the field what is wrong with the last one tried. */
  | { step: 'choose'; error: string | null; busy: boolean }
  /** `cancelled`: an import was started from here and cancelled (nothing was written). */
  | { step: 'preview'; preview: ZoteroImportPreview; cancelled?: boolean }
  | { step: 'importing'; preview: ZoteroImportPreview }
  | { step: 'report'; report: ZoteroImportReport; undoId: number | null; undone: string | null }
  | { step: 'failed'; error: IpcError };

/** The folder Zotero uses unless told otherwise (Zotero → Settings → Advanced → Files and Folders). */
export const ZOTERO_FOLDER_EXAMPLE = '/home/you/Zotero';

/**
 * Importing a Zotero data folder as a user moving from Zotero expects: say where the folder is, see
 * what it holds and what will be skipped before anything is written, import it as a job that can be
 * cancelled, then read what came and what did not, with Undo for the whole import.
 */
export class ZoteroImportFlow {
  readonly #api: CitewiseApi;
  #state = $state<ZoteroImportStep>({ step: 'idle' });
  /** The data folder's path, as typed (the browser has no folder dialog that gives a path). */
  path = $state('');

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get state(): ZoteroImportStep {
    return this.#state;
  }

  open(): void {
    this.#state = { step: 'choose', error: null, busy: false };
  }

  /** Reads the folder (read-only) and shows what it holds; a folder that is not Zotero's is said beside the field. */
  async preview(): Promise<void> {
    if (this.#state.step !== 'choose' || this.#state.busy) return;
    const path = this.path.trim();
    if (path === '') {
      this.#state = {
        step: 'choose',
        error: 'Type the path of Zotero’s data folder (the one holding zotero.sqlite).',
        busy: false,
      };
      return;
    }
    this.#state = { step: 'choose', error: null, busy: true };
    const result = await this.#api.invoke('zotero.import.preview', { path });
    if (this.#state.step !== 'choose') return;
    if (result.ok) this.#state = { step: 'preview', preview: result.value };
    else if (['NOT_FOUND', 'INVALID_INPUT', 'VALIDATION'].includes(result.error.code))
      this.#state = { step: 'choose', error: result.error.message, busy: false };
    else this.#state = { step: 'failed', error: result.error };
  }

  back(): void {
    this.#state = { step: 'choose', error: null, busy: false };
  }

  async confirm(): Promise<void> {
    if (this.#state.step !== 'preview') return;
    const { preview } = this.#state;
    this.#state = { step: 'importing', preview };
    const result = await this.#api.invoke('zotero.import', { path: preview.folder });
    if (!result.ok) {
      this.#state =
        result.error.code === 'CANCELLED'
          ? { step: 'preview', preview, cancelled: true }
          : { step: 'failed', error: result.error };
      return;
    }
    // The import is one undo step: offered here while it is still the last change.
    const tops = await this.#api.invoke('library.undo.tops', {});
    const step = tops.ok ? tops.value.undo : null;
    const undoId = result.value.ids.length > 0 && step && / from Zotero$/.test(step.label) ? step.id : null;
    this.#state = { step: 'report', report: result.value, undoId, undone: null };
  }

  async undo(): Promise<void> {
    if (this.#state.step !== 'report' || this.#state.undoId === null) return;
    const s = this.#state;
    const result = await this.#api.invoke('library.undo', { id: s.undoId! });
    this.#state = {
      ...s,
      undoId: null,
      undone: result.ok
        ? `Undone: the ${s.report.added.toLocaleString('en')} items it added are in the Trash.`
        : result.error.message,
    };
  }

  close(): void {
    this.#state = { step: 'idle' };
  }
}
