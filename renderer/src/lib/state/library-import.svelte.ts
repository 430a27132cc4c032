import type { AddDoisReport, CitewiseApi, ImportPreview, ImportReport, IpcError } from '../../../../shared/ipc';
import { splitDoiInput } from '../../../../shared/model/add-by-doi';
import { MAX_IMPORT_CHARS } from '../../../../shared/ipc/wire';

/** What an import would add: the entries read, less those already in the library. */
export const importable = (p: ImportPreview): number => p.entries - p.errors.length - p.duplicates;

export { MAX_IMPORT_CHARS };

export type ImportStep =
  | { step: 'idle' }
  | { step: 'reading'; fileName: string }
  | { step: 'preview'; fileName: string; preview: ImportPreview }
  | { step: 'importing'; fileName: string; entries: number }
  | { step: 'report'; fileName: string; report: ImportReport }
  | { step: 'failed'; fileName: string; error: IpcError };

/**
 * Importing a file as researchers expect from Zotero/JabRef: read it, show what it holds (a dry run),
 * then import it in one transaction and report what was skipped and why, line by line.
 */
function tooLarge(fileName: string): { code: 'INVALID_INPUT'; message: string } {
  const mb = MAX_IMPORT_CHARS / (1024 * 1024);
  return {
    code: 'INVALID_INPUT',
    message: `${fileName} holds more than the ${mb} MB of text the app imports at once. Split it and import the parts, or import it with citewise import.`,
  };
}

export class ImportFlow {
  readonly #api: CitewiseApi;
  #state = $state<ImportStep>({ step: 'idle' });
  #text: string | null = null;
  #dois = $state<{ busy: boolean; report: AddDoisReport | null; error: IpcError | null }>({
    busy: false,
    report: null,
    error: null,
  });

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get state() {
    return this.#state;
  }
  get dois() {
    return this.#dois;
  }

  async open(file: File): Promise<void> {
    const fileName = file.name;
    // The bound is on characters; UTF-8 takes at most 3 bytes for one (a pair of them for 4), so a
    // file over 3 × the bound in bytes is over it in characters too, and is refused unread.
    if (file.size > 3 * MAX_IMPORT_CHARS) {
      this.#state = { step: 'failed', fileName, error: tooLarge(fileName) };
      return;
    }
    this.#state = { step: 'reading', fileName };
    const text = await file.text();
    if (this.#state.step !== 'reading' || this.#state.fileName !== fileName) return;
    await this.openText(text, fileName);
  }

  async openText(text: string, fileName: string): Promise<void> {
    if (text.length > MAX_IMPORT_CHARS) {
      this.#state = { step: 'failed', fileName, error: tooLarge(fileName) };
      return;
    }
    if (!text.trim()) {
      this.#state = { step: 'failed', fileName, error: { code: 'INVALID_INPUT', message: `${fileName} is empty.` } };
      return;
    }
    this.#text = text;
    this.#state = { step: 'reading', fileName };
    const result = await this.#api.invoke('library.import.preview', { text, fileName, sample: 8 });
    if (this.#state.step !== 'reading') return;
    this.#state = result.ok
      ? { step: 'preview', fileName, preview: result.value }
      : { step: 'failed', fileName, error: result.error };
  }

  async confirm(): Promise<void> {
    if (this.#state.step !== 'preview' || this.#text === null) return;
    const { fileName, preview } = this.#state;
    this.#state = { step: 'importing', fileName, entries: importable(preview) };
    const result = await this.#api.invoke('library.import', { text: this.#text, fileName });
    this.#text = null;
    this.#state = result.ok
      ? { step: 'report', fileName, report: result.value }
      : { step: 'failed', fileName, error: result.error };
  }

  close(): void {
    this.#text = null;
    this.#state = { step: 'idle' };
  }

  /** Adds papers by DOI: one or a pasted list (any separators), with what happened to each. */
  async addDois(text: string): Promise<void> {
    const dois = splitDoiInput(text);
    if (dois.length === 0) {
      this.#dois = {
        busy: false,
        report: null,
        error: { code: 'INVALID_INPUT', message: 'Paste one or more DOIs, such as 10.1038/nature12373.' },
      };
      return;
    }
    this.#dois = { busy: true, report: null, error: null };
    const result = await this.#api.invoke('library.addDois', { dois: dois.slice(0, 5000) });
    this.#dois = result.ok
      ? { busy: false, report: result.value, error: null }
      : { busy: false, report: null, error: result.error };
  }

  resetDois(): void {
    this.#dois = { busy: false, report: null, error: null };
  }
}
