// The citation styles Settings offers as the default: the eight built in (with their labels) and those
// added from .csl files, which can be removed here.
import type { CitationStyleInfo, CitewiseApi, IpcError } from '../../../../shared/ipc';
import { BUILT_IN_STYLE_CHOICES, labelledStyle } from '../../../../shared/model/csl';

export class CitationStylesState {
  readonly #api: CitewiseApi;
  #styles = $state.raw<CitationStyleInfo[]>([...BUILT_IN_STYLE_CHOICES]);
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
    if (result.ok) this.#styles = result.value.map(labelledStyle);
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
