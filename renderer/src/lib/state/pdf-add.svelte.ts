import type { CitewiseApi, PdfAddOutcome, PdfSelection, Result } from '../../../../shared/ipc';
import { MAX_PDF_UPLOAD_BYTES, uploadName } from '../../../../shared/model/pdf-capture';
import { toBase64 } from '../../panes/assistant/reference-check.svelte';

export type PdfAddStep =
  | { step: 'idle' }
  | { step: 'running'; total: number; done: number; current: string; outcomes: PdfAddOutcome[]; cancelling: boolean }
  | { step: 'summary'; total: number; outcomes: PdfAddOutcome[]; cancelled: number };

/** What a run came to, in the summary's groups. */
export interface PdfAddSummary {
  /** New items, and PDFs attached to the item of their DOI, that stand. */
  added: PdfAddOutcome[];
  /** Added, but the identification is unsure (or waits for the service): the Needs review list. */
  review: PdfAddOutcome[];
  /** Already in the library (same file, or the same DOI's item already has its PDF). */
  duplicates: PdfAddOutcome[];
  failed: PdfAddOutcome[];
}

export function summarise(outcomes: readonly PdfAddOutcome[]): PdfAddSummary {
  const s: PdfAddSummary = { added: [], review: [], duplicates: [], failed: [] };
  for (const o of outcomes) {
    if (o.status === 'failed') s.failed.push(o);
    else if (o.status === 'duplicate') s.duplicates.push(o);
    else if (o.state === 'needs-review' || o.state === 'pending') s.review.push(o);
    else s.added.push(o);
  }
  return s;
}

/** Whether a chosen or dropped file is meant as a PDF (its type, or its name when the type is unknown). */
export const isPdfFile = (f: Pick<File, 'name' | 'type'>): boolean =>
  f.type === 'application/pdf' || /\.pdf$/i.test(f.name);

/**
 * Adding PDFs as Zotero does on a drop: each file becomes an item with the PDF attached, one after
 * another (one file per request), with progress, Cancel, and a summary of what became of each. Files
 * come either as bytes (uploads: browser mode) or, in the desktop app, by path: from the system's
 * open dialog, which the core opens, or from a drop, whose paths the preload reads; either way the
 * core keeps the paths and the flow sees only the names.
 */
export class PdfAddFlow {
  readonly #api: CitewiseApi;
  #state = $state.raw<PdfAddStep>({ step: 'idle' });
  #cancel = false;
  #choosing = false;

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get state(): PdfAddStep {
    return this.#state;
  }

  get busy(): boolean {
    return this.#state.step === 'running' || this.#choosing;
  }

  /** Uploads: each file's bytes are sent, and copied into the library folder. */
  async add(files: readonly File[]): Promise<void> {
    if (files.length === 0 || this.busy) return;
    await this.#run(
      files.map((f) => f.name),
      (i) => this.#upload(files[i]!),
    );
  }

  /** The desktop app: the system's open dialog; the core captures the chosen files by path (copied or linked, as Settings → PDFs says). */
  async choose(): Promise<void> {
    if (this.busy) return;
    this.#choosing = true;
    let chosen;
    try {
      chosen = await this.#api.invoke('pdfs.choose', {});
    } finally {
      this.#choosing = false;
    }
    if (!chosen.ok) {
      this.#state = {
        step: 'summary',
        total: 1,
        outcomes: [{ name: 'Add → PDFs…', status: 'failed', code: chosen.error.code, message: chosen.error.message }],
        cancelled: 0,
      };
      return;
    }
    if (chosen.value !== null) await this.#addChosen(chosen.value);
  }

  #addChosen(selection: PdfSelection): Promise<void> {
    return this.#run(selection.names, (index) =>
      this.#outcome(
        selection.names[index]!,
        this.#api.invoke('pdfs.addChosen', { selection: selection.selection, index }),
      ),
    );
  }

  /**
   * A drop. In the desktop app the preload reads the dropped files' paths and the core captures them
   * there (copied or linked, as Settings → PDFs says); a file without a path (and browser mode) is
   * uploaded instead.
   */
  async drop(files: readonly File[], desktop: boolean): Promise<void> {
    if (files.length === 0 || this.busy) return;
    if (desktop) {
      this.#choosing = true;
      let chosen;
      try {
        chosen = await this.#api.invoke('pdfs.chooseDropped', { files: [...files] });
      } finally {
        this.#choosing = false;
      }
      if (chosen.ok && chosen.value) return this.#addChosen(chosen.value);
    }
    return this.add(files);
  }

  async #run(names: readonly string[], one: (index: number) => Promise<PdfAddOutcome | 'cancelled'>): Promise<void> {
    this.#cancel = false;
    const outcomes: PdfAddOutcome[] = [];
    const total = names.length;
    let cancelled = 0;
    for (const [i, name] of names.entries()) {
      if (this.#cancel) {
        cancelled = total - i;
        break;
      }
      this.#state = { step: 'running', total, done: i, current: name, outcomes: [...outcomes], cancelling: false };
      const outcome = await one(i);
      if (outcome === 'cancelled') {
        cancelled = total - i;
        break;
      }
      outcomes.push(outcome);
    }
    this.#state = { step: 'summary', total, outcomes, cancelled };
  }

  async #upload(file: File): Promise<PdfAddOutcome | 'cancelled'> {
    const name = uploadName(file.name);
    const fail = (message: string): PdfAddOutcome => ({ name, status: 'failed', code: 'INVALID_INPUT', message });
    if (file.size === 0) return fail(`${name} was not added: it is empty.`);
    if (file.size > MAX_PDF_UPLOAD_BYTES) {
      return fail(
        `${name} was not added: it is ${(file.size / 1048576).toFixed(1)} MB; the app takes PDFs up to ${MAX_PDF_UPLOAD_BYTES / 1048576} MB (larger ones: citewise import on the command line).`,
      );
    }
    let base64: string;
    try {
      base64 = toBase64(new Uint8Array(await file.arrayBuffer()));
    } catch (err) {
      return fail(`${name} was not added: it could not be read (${err instanceof Error ? err.message : String(err)}).`);
    }
    return this.#outcome(name, this.#api.invoke('pdfs.add', { name, base64 }));
  }

  async #outcome(name: string, request: Promise<Result<PdfAddOutcome>>): Promise<PdfAddOutcome | 'cancelled'> {
    const result = await request;
    if (result.ok) return result.value;
    if (result.error.code === 'CANCELLED') return 'cancelled';
    return { name, status: 'failed', code: result.error.code, message: result.error.message };
  }

  /** Stops after the file being read (whose job `jobId` is also cancelled, when given). */
  cancel(jobId?: string): void {
    if (this.#state.step !== 'running') return;
    this.#cancel = true;
    this.#state = { ...this.#state, cancelling: true };
    if (jobId) void this.#api.invoke('jobs.cancel', { id: jobId });
  }

  close(): void {
    if (this.#state.step === 'summary') this.#state = { step: 'idle' };
  }
}
