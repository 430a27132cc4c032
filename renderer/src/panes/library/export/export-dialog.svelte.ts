// The export dialog's state: the chosen format, style and locale, a live preview that follows them
// (stale answers dropped), and saving or copying the result.
import type { CitationStyleInfo, CitewiseApi, ExportOutput, ExportScope, IpcError } from '../../../../../shared/ipc';
import { BUILT_IN_STYLE_CHOICES, labelledStyle } from '../../../../../shared/model/csl';
import { DEFAULT_CITATION_STYLE } from '../../../../../shared/model/settings';
import type { CitationLocale } from '../../../../../shared/model/settings';
import { isBibliography, notesPlace, type ExportFormat } from './choices';
import { copyRich, copyText } from './clipboard';

/** Longer previews are cut: the file gets everything, the dialog shows the start. */
export const PREVIEW_CHARS = 60_000;
/** The preview formats this many items of the scope; saving and copying export all of them. */
export const PREVIEW_ITEMS = 50;
/** Where "Include notes" is kept between exports (this browser profile or Electron window's storage). */
export const NOTES_KEY = 'citewise.export.notes';

function storedNotes(): boolean {
  try {
    return globalThis.localStorage?.getItem(NOTES_KEY) === 'true';
  } catch {
    return false;
  }
}

export class ExportDialogState {
  readonly #api: CitewiseApi;
  readonly #scope: ExportScope;
  #format = $state<ExportFormat>('bibtex');
  /** A built-in style id or the id of a style added from a .csl file. */
  #style = $state<string>(DEFAULT_CITATION_STYLE);
  #styles = $state.raw<CitationStyleInfo[]>([...BUILT_IN_STYLE_CHOICES]);
  #styleError = $state('');
  #locale = $state<CitationLocale>('en-US');
  /** "Include notes": asked for once, kept for the next export; applies where the format has a place for them. */
  #notes = $state(storedNotes());
  #preview = $state<ExportOutput | null>(null);
  /** How many items the scope holds, from the last preview: it does not change with format or style. */
  #total = $state<number | null>(null);
  #loading = $state(false);
  #error = $state<IpcError | null>(null);
  #message = $state('');
  #busy = $state<'' | 'save' | 'copy'>('');
  #request = 0;
  #previewIsBibliography = false;

  #bibliography = $derived(isBibliography(this.#format));

  constructor(api: CitewiseApi, scope: ExportScope, defaults: { style?: string; locale?: CitationLocale } = {}) {
    this.#api = api;
    this.#scope = scope;
    if (defaults.style) this.#style = defaults.style;
    if (defaults.locale) this.#locale = defaults.locale;
  }

  get format() {
    return this.#format;
  }
  set format(value: ExportFormat) {
    this.#format = value;
  }
  get style() {
    return this.#style;
  }
  set style(value: string) {
    this.#style = value;
  }
  /** The built-in styles (with their labels), then those added from .csl files. */
  get styles() {
    return this.#styles;
  }
  get styleError() {
    return this.#styleError;
  }
  get locale() {
    return this.#locale;
  }
  set locale(value: CitationLocale) {
    this.#locale = value;
  }
  get notes() {
    return this.#notes;
  }
  set notes(value: boolean) {
    this.#notes = value;
    try {
      globalThis.localStorage?.setItem(NOTES_KEY, String(value));
    } catch {
      // Storage refused (private mode, quota): the choice lasts for this dialog.
    }
  }
  /** Where the chosen format puts notes ("N1 lines", "annote"), or undefined when it has no place for them. */
  get notesPlace(): string | undefined {
    return notesPlace(this.#format);
  }
  get preview() {
    return this.#preview;
  }
  /**
   * The scope's item count once a preview has answered, kept while the next preview loads: Save and
   * Copy export on their own, so they stay usable (not flickering off) when the format changes.
   */
  get total() {
    return this.#total;
  }
  get loading() {
    return this.#loading;
  }
  get error() {
    return this.#error;
  }
  get message() {
    return this.#message;
  }
  get busy() {
    return this.#busy;
  }
  /** Whether style and locale apply (a bibliography rather than a data file). */
  get bibliography() {
    return this.#bibliography;
  }
  /** The preview shows part of what will be exported. */
  get truncated() {
    return (
      (this.#preview?.content.length ?? 0) > PREVIEW_CHARS ||
      (this.#preview !== null && this.#preview.items < this.#preview.total)
    );
  }
  get previewText() {
    return this.#preview?.content.slice(0, PREVIEW_CHARS) ?? '';
  }

  async loadStyles(): Promise<void> {
    const result = await this.#api.invoke('library.styles.list', {});
    if (result.ok) this.#styles = result.value.map(labelledStyle);
  }

  /** Adds a style from a .csl file's text and chooses it; says why when the file is not a usable style. */
  async addStyle(fileName: string, xml: string): Promise<void> {
    this.#styleError = '';
    const result = await this.#api.invoke('library.styles.add', { xml });
    if (!result.ok) {
      this.#styleError = `${fileName} was not added: ${result.error.message}`;
      return;
    }
    await this.loadStyles();
    this.#style = result.value.id;
    this.#message = `Added the style “${result.value.title}”.`;
  }

  /** Fetches the preview for the current choices; an older answer arriving late is ignored. */
  async refresh(): Promise<void> {
    const n = ++this.#request;
    this.#loading = true;
    // A data file's text must never be shown as a bibliography (or the reverse) while the next loads.
    if (this.#previewIsBibliography !== this.#bibliography) this.#preview = null;
    const asBibliography = this.#bibliography;
    // A bibliography is previewed as HTML whatever its file format; a data file as its own text.
    const result = await this.#export(this.#bibliography ? 'html' : this.#format, PREVIEW_ITEMS);
    if (n !== this.#request) return;
    this.#loading = false;
    if (result.ok) {
      this.#preview = result.value;
      this.#total = result.value.total;
      this.#previewIsBibliography = asBibliography;
      this.#error = null;
    } else {
      this.#preview = null;
      this.#error = result.error;
    }
  }

  /** The export in the chosen format, for saving. */
  async output(): Promise<ExportOutput | null> {
    const result = await this.#export(this.#format);
    if (!result.ok) {
      this.#error = result.error;
      return null;
    }
    return result.value;
  }

  async copy(): Promise<void> {
    this.#busy = 'copy';
    try {
      if (this.#bibliography) {
        const [html, text] = await Promise.all([this.#export('html'), this.#export('text')]);
        if (!html.ok || !text.ok) {
          this.#error = !html.ok ? html.error : !text.ok ? text.error : null;
          return;
        }
        const how = await copyRich(html.value.content, text.value.content);
        this.#message =
          how === 'rich' ? 'Bibliography copied (formatted and plain text).' : 'Bibliography copied as plain text.';
      } else {
        const out = await this.output();
        if (!out) return;
        await copyText(out.content);
        this.#message = `Copied ${out.items} ${out.items === 1 ? 'entry' : 'entries'}.`;
      }
    } catch {
      this.#message = 'Could not use the clipboard here; save to a file instead.';
    } finally {
      this.#busy = '';
    }
  }

  setMessage(message: string): void {
    this.#message = message;
  }

  setBusy(busy: '' | 'save' | 'copy'): void {
    this.#busy = busy;
  }

  #export(format: ExportFormat, limit?: number) {
    return this.#api.invoke('library.export', {
      scope: this.#scope,
      format,
      style: this.#style,
      locale: this.#locale,
      ...(limit ? { limit } : {}),
      ...(this.#notes && this.notesPlace ? { notes: true } : {}),
    });
  }
}
