// The Styles browser's state (docs/styles.md): a search over the CSL styles repository that follows
// every keystroke (older answers dropped), filters by field and citation format, the highlighted
// result's preview on the Library selection (sample items when nothing is selected), and installing,
// removing and choosing styles.
import type { CitewiseApi, CollectionStyleInfo, IpcError, StyleCollectionPage } from '../../../../shared/ipc';

/** Results shown at once: a search narrows them, and the count of all matches is shown beside them. */
export const RESULTS_LIMIT = 100;
/** The preview formats at most this many selected items (the contract's own limit). */
export const PREVIEW_ITEMS = 20;

export interface StylePreview {
  name: string;
  bibliography: string;
  citation: string;
  sample: boolean;
}

/** The id a result is used under: the built-in id for one of the eight, else its file name. */
export const styleId = (s: CollectionStyleInfo): string => s.builtIn ?? s.name;
/** Whether a result can be chosen now (built in or already installed), not only installed. */
export const usable = (s: CollectionStyleInfo): boolean => s.builtIn !== undefined || s.installed;

export class StylesBrowserState {
  readonly #api: CitewiseApi;
  readonly #previewIds: () => number[];
  #text = $state('');
  #field = $state('');
  #format = $state('');
  #page = $state.raw<StyleCollectionPage | null>(null);
  #active = $state(0);
  #preview = $state.raw<StylePreview | null>(null);
  #previewError = $state('');
  #previewLoading = $state(false);
  #error = $state<IpcError | null>(null);
  #message = $state('');
  #busy = $state('');
  #search = 0;
  #searching = $state(false);
  #previewRequest = 0;
  /** The last style installed or chosen here: the opener may use it once the browser closes. */
  #chosen = $state<string | null>(null);

  constructor(api: CitewiseApi, previewIds: () => number[]) {
    this.#api = api;
    this.#previewIds = previewIds;
  }

  get text() {
    return this.#text;
  }
  set text(value: string) {
    this.#text = value;
  }
  get field() {
    return this.#field;
  }
  set field(value: string) {
    this.#field = value;
  }
  get format() {
    return this.#format;
  }
  set format(value: string) {
    this.#format = value;
  }
  get page() {
    return this.#page;
  }
  get results(): CollectionStyleInfo[] {
    return this.#page?.styles ?? [];
  }
  get active() {
    return this.#active;
  }
  get current(): CollectionStyleInfo | null {
    return this.results[this.#active] ?? null;
  }
  get preview() {
    return this.#preview;
  }
  get previewError() {
    return this.#previewError;
  }
  get previewLoading() {
    return this.#previewLoading;
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
  /** A search is on its way: the preview waits for it (formatting would hold up the answers). */
  get searching() {
    return this.#searching;
  }
  get chosen() {
    return this.#chosen;
  }

  /** Runs the search for the current text and filters; an answer overtaken by a newer one is dropped. */
  async search(): Promise<void> {
    const n = ++this.#search;
    this.#searching = true;
    const result = await this.#api.invoke('styles.collection.search', {
      text: this.#text,
      ...(this.#field ? { field: this.#field } : {}),
      ...(this.#format ? { format: this.#format } : {}),
      limit: RESULTS_LIMIT,
    });
    if (n !== this.#search) return;
    this.#searching = false;
    if (!result.ok) {
      this.#error = result.error;
      return;
    }
    this.#error = null;
    const before = this.current?.name;
    this.#page = result.value;
    // The highlight stays on the same style when it is still listed (after an install), else the first.
    const kept = before ? result.value.styles.findIndex((s) => s.name === before) : -1;
    this.#active = kept >= 0 ? kept : 0;
  }

  /** Moves the highlight (clamped to the list). */
  move(to: number): void {
    const last = this.results.length - 1;
    this.#active = Math.max(0, Math.min(last, to));
  }

  /** The highlighted style, formatted on the selection (or sample items) by the export engine. */
  async loadPreview(): Promise<void> {
    const style = this.current;
    const n = ++this.#previewRequest;
    if (!style) {
      this.#preview = null;
      this.#previewLoading = false;
      return;
    }
    this.#previewLoading = true;
    const ids = this.#previewIds().slice(0, PREVIEW_ITEMS);
    const result = await this.#api.invoke('styles.collection.preview', { name: style.name, ids });
    if (n !== this.#previewRequest) return;
    this.#previewLoading = false;
    if (result.ok) {
      this.#previewError = '';
      this.#preview = {
        name: style.name,
        bibliography: result.value.bibliography.html,
        citation: result.value.citation.html,
        sample: result.value.sample,
      };
    } else {
      this.#preview = null;
      this.#previewError = `No preview of “${style.title}”: ${result.error.message}`;
    }
  }

  /** Installs a style of the collection; returns its id in the library's styles, or null (error shown). */
  async install(style: CollectionStyleInfo): Promise<string | null> {
    this.#busy = style.name;
    this.#message = '';
    this.#error = null;
    try {
      const result = await this.#api.invoke('styles.collection.install', { name: style.name });
      if (!result.ok) {
        this.#error = result.error;
        return null;
      }
      this.#chosen = result.value.id;
      this.#message = `Installed “${result.value.title}”: it is in the style lists of Export, Copy and Settings.`;
      await this.search();
      return result.value.id;
    } finally {
      this.#busy = '';
    }
  }

  /** Removes an installed style from the library's styles (the collection keeps it). */
  async remove(style: CollectionStyleInfo): Promise<boolean> {
    this.#busy = style.name;
    this.#message = '';
    this.#error = null;
    try {
      const result = await this.#api.invoke('library.styles.remove', { id: style.name });
      if (!result.ok) {
        this.#error = result.error;
        return false;
      }
      if (this.#chosen === style.name) this.#chosen = null;
      this.#message = `Removed “${style.title}” from your styles.`;
      await this.search();
      return true;
    } finally {
      this.#busy = '';
    }
  }

  /** Remembers a usable style as the one chosen here. */
  choose(style: CollectionStyleInfo): string {
    this.#chosen = styleId(style);
    return this.#chosen;
  }

  say(message: string): void {
    this.#message = message;
  }
}
