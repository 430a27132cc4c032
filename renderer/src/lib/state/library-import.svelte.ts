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

/** A file chosen for import, as the core knows it: the `index`th of a selection (see sendFile). */
export interface ChosenImport {
  selection: string;
  index: number;
}

/**
 * Hands a chosen file to the core without its text crossing the IPC: the desktop app names it by its
 * path (the preload reads it), browser mode uploads its bytes to the host (sendByUpload). Null: this
 * file cannot go that way, and is read as text instead.
 */
export type FileSender = (
  file: File,
) => Promise<{ ok: true; value: ChosenImport | null } | { ok: false; error: IpcError }>;

export class ImportFlow {
  readonly #api: CitewiseApi;
  readonly #send: FileSender | undefined;
  #state = $state<ImportStep>({ step: 'idle' });
  /** What the preview read, for the import to read again: a chosen file, or text. */
  #source: { file: ChosenImport } | { text: string } | null = null;
  /** The folder a .bib's relative file paths start from (typed in the preview when they need one). */
  baseDir = $state('');
  #ids = $state<{ busy: boolean; report: AddIdentifiersReport | null; error: IpcError | null }>({
    busy: false,
    report: null,
    error: null,
  });

  /** `send`: how a chosen file reaches the core by path; without one, files are read as text. */
  constructor(api: CitewiseApi, send?: FileSender) {
    this.#api = api;
    this.#send = send;
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
    if (file.size === 0) {
      this.#state = { step: 'failed', fileName, error: { code: 'INVALID_INPUT', message: `${fileName} is empty.` } };
      return;
    }
    this.#state = { step: 'reading', fileName };
    const sent = this.#send ? await this.#send(file) : { ok: true as const, value: null };
    if (this.#state.step !== 'reading' || this.#state.fileName !== fileName) return;
    if (!sent.ok) {
      this.#state = { step: 'failed', fileName, error: sent.error };
      return;
    }
    if (sent.value !== null) return this.#preview({ file: sent.value }, fileName);
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
    await this.#preview({ text }, fileName);
  }

  async #preview(source: { file: ChosenImport } | { text: string }, fileName: string): Promise<void> {
    this.#source = source;
    this.#state = { step: 'reading', fileName };
    const result = await this.#api.invoke('library.import.preview', { ...source, fileName, sample: 8 });
    if (this.#state.step !== 'reading') return;
    this.#state = result.ok
      ? { step: 'preview', fileName, preview: result.value }
      : { step: 'failed', fileName, error: result.error };
    // JabRef names the folder its relative paths start from, and a file chosen where it is has its own:
    // the best first guesses.
    this.baseDir = result.ok ? (result.value.files?.folders[0] ?? '') : '';
  }

  async confirm(): Promise<void> {
    if (this.#state.step !== 'preview' || this.#source === null) return;
    const { fileName, preview } = this.#state;
    this.#state = { step: 'importing', fileName, entries: importable(preview) };
    const baseDir =
      preview.files && preview.files.relative > 0 && this.baseDir.trim() !== '' ? this.baseDir.trim() : undefined;
    const result = await this.#api.invoke('library.import', {
      ...this.#source,
      fileName,
      ...(baseDir ? { baseDir } : {}),
    });
    if (!result.ok && (result.error.details as { field?: string } | undefined)?.field === 'baseDir') {
      // The folder typed is not one: back to the preview, which says so beside it; nothing was imported.
      this.#state = { step: 'preview', fileName, preview: { ...preview }, folderError: result.error.message };
      return;
    }
    this.#source = null;
    this.#state = result.ok
      ? { step: 'report', fileName, report: result.value }
      : { step: 'failed', fileName, error: result.error };
  }

  close(): void {
    this.#source = null;
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

/** The host's route for a file to import (electron/host/uploads.ts). */
const UPLOAD_ROUTE = '/uploads/import';

/**
 * How the app hands a chosen file to the core: the desktop app by its path (the preload reads a File's
 * path: `pdfs.chooseDropped` names any dropped or chosen file, not only PDFs), browser mode by
 * uploading its bytes to the host, which keeps them in a temporary file.
 */
export function fileSender(api: CitewiseApi, desktop: () => boolean): FileSender {
  return async (file) => {
    if (!desktop()) return sendByUpload(file);
    const chosen = await api.invoke('pdfs.chooseDropped', { files: [file] });
    if (!chosen.ok) return chosen;
    return { ok: true, value: chosen.value ? { selection: chosen.value.selection, index: 0 } : null };
  };
}

/** Browser mode: POSTs the file's bytes to the host; its answer names the selection, or says why not. */
async function sendByUpload(file: File): ReturnType<FileSender> {
  let res: Response;
  try {
    res = await fetch(`${UPLOAD_ROUTE}?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      body: file,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/octet-stream' },
    });
  } catch {
    return {
      ok: false,
      error: { code: 'OFFLINE', message: `${file.name} could not be sent: the connection to Citewise was lost.` },
    };
  }
  if (!res.ok) {
    const said = (await res.text().catch(() => '')).replace(/^Citewise: /, '').trim();
    const code =
      res.status === 401 || res.status === 403 ? 'UNAUTHORIZED' : res.status >= 500 ? 'INTERNAL' : 'INVALID_INPUT';
    return { ok: false, error: { code, message: said || `${file.name} could not be sent (HTTP ${res.status}).` } };
  }
  const body = (await res.json().catch(() => null)) as { selection?: unknown } | null;
  if (typeof body?.selection !== 'string')
    return {
      ok: false,
      error: { code: 'INTERNAL', message: `${file.name} was sent, but Citewise gave no answer for it.` },
    };
  return { ok: true, value: { selection: body.selection, index: 0 } };
}
