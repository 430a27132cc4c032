import type { CitewiseApi, PdfAddOutcome } from '../../../../shared/ipc';
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
export const isPdfFile = (f: Pick<File, 'name' | 'type'>): boolean => f.type === 'application/pdf' || /\.pdf$/i.test(f.name);

/**
 * Adding PDFs as Zotero does on a drop: each file becomes an item with the PDF attached, one after
 * another (one file's bytes per request), with progress, Cancel, and a summary of what became of each.
 */
export class PdfAddFlow {
  readonly #api: CitewiseApi;
  #state = $state.raw<PdfAddStep>({ step: 'idle' });
  #cancel = false;

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get state(): PdfAddStep {
    return this.#state;
  }

  get busy(): boolean {
    return this.#state.step === 'running';
  }

  async add(files: readonly File[]): Promise<void> {
    if (files.length === 0 || this.busy) return;
    this.#cancel = false;
    const outcomes: PdfAddOutcome[] = [];
    const total = files.length;
    let cancelled = 0;
    for (const [i, file] of files.entries()) {
      if (this.#cancel) {
        cancelled = total - i;
        break;
      }
      this.#state = { step: 'running', total, done: i, current: file.name, outcomes: [...outcomes], cancelling: false };
      const outcome = await this.#one(file);
      if (outcome === 'cancelled') {
        cancelled = total - i;
        break;
      }
      outcomes.push(outcome);
    }
    this.#state = { step: 'summary', total, outcomes, cancelled };
  }

  async #one(file: File): Promise<PdfAddOutcome | 'cancelled'> {
    const name = uploadName(file.name);
    const fail = (message: string): PdfAddOutcome => ({ name, status: 'failed', code: 'INVALID_INPUT', message });
    if (file.size === 0) return fail(`${name} was not added: it is empty.`);
    if (file.size > MAX_PDF_UPLOAD_BYTES) {
      return fail(`${name} was not added: it is ${(file.size / 1048576).toFixed(1)} MB; the app takes PDFs up to ${MAX_PDF_UPLOAD_BYTES / 1048576} MB (larger ones: citewise import on the command line).`);
    }
    let base64: string;
    try {
      base64 = toBase64(new Uint8Array(await file.arrayBuffer()));
    } catch (err) {
      return fail(`${name} was not added: it could not be read (${err instanceof Error ? err.message : String(err)}).`);
    }
    const result = await this.#api.invoke('pdfs.add', { name, base64 });
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
