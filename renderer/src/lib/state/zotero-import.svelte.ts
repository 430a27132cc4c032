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
  /**
   * Zotero's Linked Attachment Base Directory, as typed when the one in Zotero's prefs.js is not the
   * right one (or none was found); empty: the one prefs.js names.
   */
  base = $state('');
  /** The base folder the shown preview was read with ('' for prefs.js's), which the import then uses. */
  #appliedBase = '';
  #baseError = $state<string | null>(null);
  #baseBusy = $state(false);

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get state(): ZoteroImportStep {
    return this.#state;
  }
  /** Why the base folder typed could not be used (said beside its field); the preview stays as it was. */
  get baseError(): string | null {
    return this.#baseError;
  }
  get baseBusy(): boolean {
    return this.#baseBusy;
  }
  /** The base folder the preview shown was read with, when one was typed. */
  get appliedBase(): string {
    return this.#appliedBase;
  }

  open(): void {
    this.#state = { step: 'choose', error: null, busy: false };
    this.base = '';
    this.#appliedBase = '';
    this.#baseError = null;
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
    const base = this.base.trim();
    const result = await this.#api.invoke('zotero.import.preview', { path, ...(base ? { base } : {}) });
    if (result.ok) this.#appliedBase = base;
    if (this.#state.step !== 'choose') return;
    if (result.ok) this.#state = { step: 'preview', preview: result.value };
    else if (['NOT_FOUND', 'INVALID_INPUT', 'VALIDATION'].includes(result.error.code))
      this.#state = { step: 'choose', error: result.error.message, busy: false };
    else this.#state = { step: 'failed', error: result.error };
  }

  /**
   * Reads the folder again with the base folder typed (empty: the one Zotero's prefs.js names), so the
   * files found and not found follow it. A base folder the core refuses (not a folder, not a full
   * path) is said beside its field, and the preview shown stays the one read before.
   */
  async rebase(): Promise<void> {
    const s = this.#state;
    if ((s.step !== 'preview' && s.step !== 'choose') || this.#baseBusy) return;
    if (s.step === 'choose') return this.preview();
    const base = this.base.trim();
    this.#baseBusy = true;
    this.#baseError = null;
    try {
      const result = await this.#api.invoke('zotero.import.preview', {
        path: s.preview.folder,
        ...(base ? { base } : {}),
      });
      if (this.#state !== s) return;
      if (result.ok) {
        this.#appliedBase = base;
        this.#state = { step: 'preview', preview: result.value };
      } else if (['NOT_FOUND', 'INVALID_INPUT', 'VALIDATION'].includes(result.error.code))
        this.#baseError = result.error.message;
      else this.#state = { step: 'failed', error: result.error };
    } finally {
      this.#baseBusy = false;
    }
  }

  back(): void {
    this.#state = { step: 'choose', error: null, busy: false };
    this.#baseError = null;
  }

  async confirm(): Promise<void> {
    if (this.#state.step !== 'preview') return;
    const { preview } = this.#state;
    this.#state = { step: 'importing', preview };
    const base = this.#appliedBase;
    const result = await this.#api.invoke('zotero.import', { path: preview.folder, ...(base ? { base } : {}) });
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
