// The citation styles Settings offers as the default: the eight built in (with their labels) and those
// added from .csl files, which can be removed here.
import type { CitationStyleInfo, CitewiseApi, IpcError } from '../../../../shared/ipc';
import { CITATION_STYLE_IDS, isBuiltInStyle, STYLE_LABELS } from '../../../../shared/model/csl';

const label = (s: CitationStyleInfo): CitationStyleInfo =>
  s.builtIn && isBuiltInStyle(s.id) ? { ...s, title: STYLE_LABELS[s.id] } : s;

export class CitationStylesState {
  readonly #api: CitewiseApi;
  #styles = $state.raw<CitationStyleInfo[]>(
    CITATION_STYLE_IDS.map((id) => ({ id, title: STYLE_LABELS[id], builtIn: true })),
  );
  #error = $state<IpcError | null>(null);

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  get styles() {
    return this.#styles;
  }
  get added() {
    return this.#styles.filter((s) => !s.builtIn);
  }
  get error() {
    return this.#error;
  }

  async load(): Promise<void> {
    const result = await this.#api.invoke('library.styles.list', {});
    if (result.ok) this.#styles = result.value.map(label);
    else this.#error = result.error;
  }

  /** Removes an added style (the default goes back to APA if it was this one). */
  async remove(id: string): Promise<void> {
    this.#error = null;
    const result = await this.#api.invoke('library.styles.remove', { id });
    if (!result.ok) this.#error = result.error;
    await this.load();
  }
}
