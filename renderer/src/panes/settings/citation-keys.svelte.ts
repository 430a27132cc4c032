// Settings → Citation keys: the formula new keys are made with, typed with a live preview on items of
// the library (compiled here with the same shared code the core uses, so the preview is the key an
// item would get, before a, b… suffixes), saved to the settings when it compiles.
import type { CitewiseApi, IpcError } from '../../../../shared/ipc';
import {
  compileKeyFormula,
  DEFAULT_KEY_FORMULA,
  isDefaultFormula,
  type FormulaError,
} from '../../../../shared/model/citekey-formula';
import type { CslItem } from '../../../../shared/model/csl';

/** Items the preview shows. */
export const PREVIEW_ITEMS = 5;

export interface KeyPreviewRow {
  id: number;
  title: string;
  current: string;
  next: string;
}

export class CitationKeysState {
  readonly #api: CitewiseApi;
  /** The formula as typed (the saved one until the user types). */
  text = $state(DEFAULT_KEY_FORMULA);
  #saved = $state(DEFAULT_KEY_FORMULA);
  #items = $state.raw<CslItem[]>([]);
  #saving = $state(false);
  #error = $state<IpcError | null>(null);
  #justSaved = $state(false);

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get saved(): string {
    return this.#saved;
  }
  get saving(): boolean {
    return this.#saving;
  }
  get error(): IpcError | null {
    return this.#error;
  }
  get justSaved(): boolean {
    return this.#justSaved;
  }
  get dirty(): boolean {
    return this.text !== this.#saved;
  }
  get isDefault(): boolean {
    return isDefaultFormula(this.text);
  }

  /** What is wrong with the formula typed, and where; null when it compiles. */
  get problem(): FormulaError | null {
    const parsed = compileKeyFormula(this.text);
    return parsed.ok ? null : parsed.error;
  }

  /** The items of the preview with the key they have and the one the formula typed gives. */
  get preview(): KeyPreviewRow[] {
    const parsed = compileKeyFormula(this.text);
    if (!parsed.ok) return [];
    return this.#items.map((csl) => ({
      id: Number(csl.id),
      title: typeof csl.title === 'string' ? csl.title : '(untitled)',
      current: String(csl['citation-key'] ?? ''),
      next: parsed.formula.keyOf(csl),
    }));
  }

  /** Follows the saved setting (another window, the command line) unless the user is typing a change. */
  follow(saved: string | undefined): void {
    const next = saved ?? DEFAULT_KEY_FORMULA;
    if (!this.dirty) this.text = next;
    this.#saved = next;
  }

  /** The newest items of the library, for the preview. */
  async loadItems(): Promise<void> {
    const page = await this.#api.invoke('library.list', {
      limit: PREVIEW_ITEMS,
      sort: { column: 'dateAdded', direction: 'desc' },
    });
    if (!page.ok) return;
    const details = await Promise.all(page.value.rows.map((r) => this.#api.invoke('library.item.get', { id: r.id })));
    this.#items = details.flatMap((d) =>
      d.ok ? [{ ...d.value.csl, id: String(d.value.id), 'citation-key': d.value.citationKey }] : [],
    );
  }

  async save(): Promise<boolean> {
    if (this.problem) return false;
    this.#saving = true;
    this.#error = null;
    const result = await this.#api.invoke('settings.update', { citekeyFormula: this.text.trim() });
    this.#saving = false;
    if (!result.ok) {
      this.#error = result.error;
      return false;
    }
    this.#saved = result.value.citekeyFormula ?? DEFAULT_KEY_FORMULA;
    this.text = this.#saved;
    this.#justSaved = true;
    return true;
  }

  useDefault(): void {
    this.text = DEFAULT_KEY_FORMULA;
    this.#justSaved = false;
  }

  typed(): void {
    this.#justSaved = false;
  }
}
