import type { AddIdentifiersReport, CitewiseApi, ImportPreview, ImportReport, IpcError } from '../../../../shared/ipc';
import {
  MAX_IDENTIFIER_INPUT_CHARS,
  MAX_IDENTIFIERS_PER_CALL,
  type IdentifierOutcome,
} from '../../../../shared/model/add-by-identifier';
import {
  identifierLabel,
  MAX_IDENTIFIER_LENGTH,
  parseIdentifier,
  splitIdentifiers,
} from '../../../../shared/model/identifiers';
import { MAX_IMPORT_CHARS } from '../../../../shared/ipc/wire';

/** What an import would add: the entries read, less those already in the library. */
export const importable = (p: ImportPreview): number => p.entries - p.errors.length - p.duplicates;

export { MAX_IMPORT_CHARS };

export type ImportStep =
  | { step: 'idle' }
  | { step: 'reading'; fileName: string }
  | { step: 'preview'; fileName: string; preview: ImportPreview; folderError?: string }
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
  /** The folder a .bib's relative file paths start from (typed in the preview when they need one). */
  baseDir = $state('');
  #ids = $state<{ busy: boolean; report: AddIdentifiersReport | null; error: IpcError | null }>({
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
  /** Add by identifier: busy, its report, or what went wrong. */
  get identifiers() {
    return this.#ids;
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
    // JabRef names the folder its relative paths start from; it is the best first guess.
    this.baseDir = result.ok ? (result.value.files?.folders[0] ?? '') : '';
  }

  async confirm(): Promise<void> {
    if (this.#state.step !== 'preview' || this.#text === null) return;
    const { fileName, preview } = this.#state;
    this.#state = { step: 'importing', fileName, entries: importable(preview) };
    const baseDir =
      preview.files && preview.files.relative > 0 && this.baseDir.trim() !== '' ? this.baseDir.trim() : undefined;
    const result = await this.#api.invoke('library.import', {
      text: this.#text,
      fileName,
      ...(baseDir ? { baseDir } : {}),
    });
    if (!result.ok && (result.error.details as { field?: string } | undefined)?.field === 'baseDir') {
      // The folder typed is not one: back to the preview, which says so beside it; nothing was imported.
      this.#state = { step: 'preview', fileName, preview: { ...preview }, folderError: result.error.message };
      return;
    }
    this.#text = null;
    this.#state = result.ok
      ? { step: 'report', fileName, report: result.value }
      : { step: 'failed', fileName, error: result.error };
  }

  close(): void {
    this.#text = null;
    this.#state = { step: 'idle' };
  }

  /** Adds by identifier: one or a pasted list of DOIs, arXiv ids, PMIDs, PMCIDs and ISBNs, with what happened to each. */
  async addIdentifiers(text: string): Promise<void> {
    const inputs = splitIdentifiers(text);
    if (inputs.length === 0) {
      this.#ids = {
        busy: false,
        report: null,
        error: {
          code: 'INVALID_INPUT',
          message: 'Paste one or more identifiers, such as 10.1038/nature12373 or arXiv:2101.00001.',
        },
      };
      return;
    }
    this.#ids = { busy: true, report: null, error: null };
    // A longer list goes in parts, so every input gets its line; an input longer than a call carries is
    // cut just past the longest identifier, for the core to refuse it as too long.
    const sent = inputs.map((i) => (i.length > MAX_IDENTIFIER_INPUT_CHARS ? i.slice(0, MAX_IDENTIFIER_LENGTH + 1) : i));
    const outcomes: IdentifierOutcome[] = [];
    for (let at = 0; at < sent.length; at += MAX_IDENTIFIERS_PER_CALL) {
      const result = await this.#api.invoke('library.addIdentifiers', {
        inputs: sent.slice(at, at + MAX_IDENTIFIERS_PER_CALL),
      });
      if (result.ok) {
        outcomes.push(...result.value.outcomes);
        continue;
      }
      if (at === 0) {
        this.#ids = { busy: false, report: null, error: result.error };
        return;
      }
      // What the earlier parts added stays added; the rest is reported with the error, not dropped.
      for (const input of sent.slice(at)) {
        const id = parseIdentifier(input);
        outcomes.push({
          input,
          kind: id.kind,
          label: identifierLabel(id),
          status: 'not-added',
          code: result.error.code,
          reason: result.error.message,
        });
      }
      break;
    }
    this.#ids = { busy: false, report: { outcomes }, error: null };
  }

  resetIdentifiers(): void {
    this.#ids = { busy: false, report: null, error: null };
  }
}
