// A reference check: a manuscript file (or a library collection) sent to the service, its progress,
// and the references it found with their matches, tallies and notices. The report page's address
// carries a token, so it is asked for only when the user opens it.
import type { Citation, CitewiseApi, IpcError, TaskFinished } from '../../../../shared/ipc';
import {
  DEFAULT_CITATION_LOCALE,
  DEFAULT_CITATION_STYLE,
  type CitationLocale,
} from '../../../../shared/model/settings';
import type { TaskProgress } from '../../../../shared/model/service';
import { MAX_REFCHECK_BYTES, REFCHECK_EXTENSIONS } from '../../../../shared/model/assistant';
import { referenceCheckRows, type ReferenceCheckRow } from '../../../../shared/model/reference-check';
import { safeUrl } from '../library/details/fields';

export type RefCheckSource =
  { kind: 'file'; name: string; size: number; base64: string } | { kind: 'collection'; collectionId: number };

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export class ReferenceCheckState {
  readonly #api: CitewiseApi;
  #file = $state.raw<{ name: string; size: number; base64: string } | null>(null);
  /** The chosen file itself: read again at each check, so an edited file is checked as it is now. */
  #chosen: File | null = null;
  #taskId = $state<string | null>(null);
  #progress = $state.raw<TaskProgress | null>(null);
  #rows = $state.raw<ReferenceCheckRow[] | null>(null);
  #title = $state<string | null>(null);
  #status = $state<'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled'>('idle');
  #error = $state<IpcError | null>(null);
  source = $state<'file' | string>('file');
  /** Each matched reference formatted in the user's default style, by row index. */
  #citations = $state.raw<Readonly<Record<number, Citation>>>({});
  #style: string = DEFAULT_CITATION_STYLE;
  #locale: CitationLocale = DEFAULT_CITATION_LOCALE;
  /** Finished checks heard before their start answered (a fast check can end first). */
  #early: Record<string, TaskFinished> = {};

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get file() {
    return this.#file;
  }
  get progress() {
    return this.#progress;
  }
  get rows() {
    return this.#rows;
  }
  get title() {
    return this.#title;
  }
  get status() {
    return this.#status;
  }
  get error() {
    return this.#error;
  }
  get taskId() {
    return this.#taskId;
  }
  get citations() {
    return this.#citations;
  }

  /** The style and locale the references are formatted in (the user's defaults); reformats shown rows. */
  useStyle(style: string | undefined, locale: CitationLocale | undefined): void {
    const next = { style: style ?? DEFAULT_CITATION_STYLE, locale: locale ?? DEFAULT_CITATION_LOCALE };
    if (next.style === this.#style && next.locale === this.#locale) return;
    this.#style = next.style;
    this.#locale = next.locale;
    void this.#format();
  }

  /** One core call formats every matched row; a row it cannot format keeps its plain match line. */
  async #format(): Promise<void> {
    const rows = (this.#rows ?? []).filter((r) => r.csl);
    if (rows.length === 0) return;
    const asked = this.#rows;
    const r = await this.#api.invoke('library.citeRecords', {
      records: rows.slice(0, 1000).map((x) => ({ ...x.csl! })),
      style: this.#style,
      locale: this.#locale,
    });
    if (asked !== this.#rows || !r.ok) return;
    this.#citations = Object.fromEntries(rows.slice(0, 1000).map((x, i) => [x.index, r.value[i]!]));
  }
  get running() {
    return this.#status === 'starting' || this.#status === 'running';
  }

  start(): () => void {
    const offProgress = this.#api.on('service.task.progress', (p) => {
      if (p.kind === 'reference-check' && p.taskId === this.#taskId) this.#progress = p;
    });
    const offFinished = this.#api.on('service.task.finished', (f) => {
      if (f.kind !== 'reference-check') return;
      if (f.taskId === this.#taskId) this.#finish(f);
      else if (this.#status === 'starting') this.#early[f.taskId] = f;
    });
    return () => {
      offProgress();
      offFinished();
    };
  }

  #finish(f: TaskFinished): void {
    if (f.status === 'SUCCESS' && f.referenceCheck) {
      this.#rows = referenceCheckRows(f.referenceCheck);
      this.#citations = {};
      void this.#format();
      this.#title = f.referenceCheck.result?.metadata?.title ?? null;
      this.#status = 'done';
    } else {
      this.#status = f.status === 'CANCELLED' ? 'cancelled' : 'failed';
      this.#error = f.error ?? { code: 'SERVICE_ERROR', message: `The reference check ended as ${f.status}.` };
    }
  }

  async choose(file: File): Promise<void> {
    this.#error = null;
    const ext = file.name.toLowerCase().split('.').pop() ?? '';
    if (!(REFCHECK_EXTENSIONS as readonly string[]).includes(ext)) {
      this.#file = null;
      this.#error = {
        code: 'INVALID_INPUT',
        message: `${file.name} cannot be checked: choose a ${REFCHECK_EXTENSIONS.map((e) => `.${e}`).join(', ')} file.`,
      };
      return;
    }
    if (file.size > MAX_REFCHECK_BYTES) {
      this.#file = null;
      this.#error = {
        code: 'INVALID_INPUT',
        message: `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; the largest file a check takes is ${MAX_REFCHECK_BYTES / 1024 / 1024} MB.`,
      };
      return;
    }
    if (file.size === 0) {
      this.#file = null;
      this.#error = { code: 'INVALID_INPUT', message: `${file.name} is empty.` };
      return;
    }
    this.#chosen = file;
    this.#file = { name: file.name, size: file.size, base64: toBase64(new Uint8Array(await file.arrayBuffer())) };
  }

  /** The chosen file read now; null (with the error set) when it can no longer be read. */
  async #reread(): Promise<{ name: string; base64: string } | null> {
    const file = this.#chosen;
    if (!file) return this.#file;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      this.#file = { name: file.name, size: bytes.length, base64: toBase64(bytes) };
      return this.#file;
    } catch {
      // The browser refuses to read a file changed on disk since it was chosen: choosing it again reads it.
      this.#chosen = null;
      this.#file = null;
      this.#error = {
        code: 'INVALID_INPUT',
        message: `${file.name} changed since it was chosen: choose it again to check it as it is now.`,
      };
      return null;
    }
  }

  async run(): Promise<void> {
    this.#error = null;
    this.#rows = null;
    this.#progress = null;
    this.#title = null;
    let source: { kind: 'file'; name: string; base64: string } | { kind: 'collection'; collectionId: number };
    if (this.source === 'file') {
      if (!this.#file) {
        this.#error = { code: 'INVALID_INPUT', message: 'Choose a manuscript or bibliography file first.' };
        return;
      }
      const file = await this.#reread();
      if (!file) return;
      source = { kind: 'file', name: file.name, base64: file.base64 };
    } else source = { kind: 'collection', collectionId: Number(this.source) };
    this.#status = 'starting';
    const r = await this.#api.invoke('assistant.referenceCheck.start', { source });
    if (!r.ok) {
      this.#status = 'failed';
      this.#error = r.error;
      return;
    }
    this.#taskId = r.value.taskId;
    this.#status = 'running';
    const early = this.#early[r.value.taskId];
    this.#early = {};
    if (early) this.#finish(early);
  }

  async cancel(): Promise<void> {
    if (!this.#taskId) return;
    const r = await this.#api.invoke('service.referenceCheck.cancel', { taskId: this.#taskId });
    if (!r.ok) this.#error = r.error;
  }

  /** Opens the service's report page in the browser (the OS browser in the desktop app). */
  async openReport(): Promise<void> {
    if (!this.#taskId) return;
    const r = await this.#api.invoke('service.referenceCheck.reportUrl', { taskId: this.#taskId });
    if (!r.ok) {
      this.#error = r.error;
      return;
    }
    // The same check the DOI links use: only http(s) pages open (the desktop shell checks again before
    // it hands the link to the OS browser).
    const url = safeUrl(r.value.reportUrl);
    if (!url) {
      this.#error = {
        code: 'SERVICE_ERROR',
        message: 'The service gave a report address that is not a web page; it was not opened.',
      };
      return;
    }
    window.open(url, '_blank', 'noopener,noreferrer');
  }
}
