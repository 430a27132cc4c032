// The manuscript check in the Assistant pane: a file the user picks (with a LaTeX file's .aux) or text
// they paste, checked offline against the library by the core (manuscript.check); the report is shown
// as text (shared/model/manuscript.ts).
import type { CitewiseApi, IpcError } from '../../../../shared/ipc';
import { toBase64 } from './reference-check.svelte';
import {
  manuscriptFormatOf,
  MANUSCRIPT_EXTENSIONS,
  MAX_MANUSCRIPT_BYTES,
  reportText,
  type ManuscriptReport,
} from '../../../../shared/model/manuscript';

export const PASTE_FORMATS = [
  { name: 'pasted.md', label: 'Markdown / Quarto' },
  { name: 'pasted.tex', label: 'LaTeX' },
  { name: 'pasted.typ', label: 'Typst' },
] as const;

export const MANUSCRIPT_ACCEPT = [...Object.keys(MANUSCRIPT_EXTENSIONS).map((e) => `.${e}`)].join(',');

interface Picked {
  name: string;
  base64: string;
}

export class ManuscriptCheckState {
  readonly #api: CitewiseApi;
  #file = $state.raw<Picked | null>(null);
  #aux = $state.raw<Picked | null>(null);
  #report = $state.raw<ManuscriptReport | null>(null);
  #error = $state<IpcError | null>(null);
  #running = $state(false);
  /** 'file' or 'paste'. */
  mode = $state<'file' | 'paste'>('file');
  pasted = $state('');
  pasteAs = $state<(typeof PASTE_FORMATS)[number]['name']>('pasted.md');

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get file() {
    return this.#file;
  }
  get aux() {
    return this.#aux;
  }
  get report() {
    return this.#report;
  }
  get error() {
    return this.#error;
  }
  get running() {
    return this.#running;
  }
  get text() {
    return this.#report ? reportText(this.#report) : '';
  }
  get ready() {
    return this.mode === 'file' ? this.#file !== null : this.pasted.trim() !== '';
  }

  /** The manuscript, and an .aux among the files chosen with it. */
  async choose(files: readonly File[]): Promise<void> {
    this.#error = null;
    let file: Picked | null = null;
    let aux: Picked | null = null;
    for (const f of files) {
      if (!manuscriptFormatOf(f.name)) {
        this.#error = {
          code: 'INVALID_INPUT',
          message: `${f.name} cannot be checked: choose a ${MANUSCRIPT_ACCEPT.split(',').join(', ')} file.`,
        };
        return;
      }
      if (f.size > MAX_MANUSCRIPT_BYTES) {
        this.#error = {
          code: 'INVALID_INPUT',
          message: `${f.name} is ${(f.size / 1024 / 1024).toFixed(1)} MB; the largest manuscript the check takes is ${MAX_MANUSCRIPT_BYTES / 1024 / 1024} MB.`,
        };
        return;
      }
      const picked = { name: f.name, base64: toBase64(new Uint8Array(await f.arrayBuffer())) };
      if (/\.aux$/i.test(f.name) && files.length > 1) aux = picked;
      else file = picked;
    }
    this.#file = file;
    this.#aux = aux;
  }

  async run(): Promise<void> {
    if (this.#running || !this.ready) return;
    this.#running = true;
    this.#error = null;
    try {
      const source =
        this.mode === 'file'
          ? {
              kind: 'file' as const,
              name: this.#file!.name,
              base64: this.#file!.base64,
              ...(this.#aux && /\.(tex|ltx)$/i.test(this.#file!.name) ? { aux: this.#aux } : {}),
            }
          : { kind: 'text' as const, name: this.pasteAs, text: this.pasted };
      const r = await this.#api.invoke('manuscript.check', { source });
      if (r.ok) this.#report = r.value;
      else {
        this.#report = null;
        this.#error = r.error;
      }
    } finally {
      this.#running = false;
    }
  }
}
