import { clampPane, sanitizePanes, type PaneSizes } from '../library/layout';
import { read, store } from './library-columns.svelte';

const KEY = 'citewise.library.panes';

/** The widths of the Library's sidebar and details column, kept in localStorage beside the columns. */
export class PanePrefs {
  #sizes = $state.raw<PaneSizes>(sanitizePanes(read(KEY)));

  get sidebar() { return this.#sizes.sidebar; }
  get details() { return this.#sizes.details; }

  /** Sets a pane's width (clamped); `save` false while a drag is still going on. */
  resize(which: keyof PaneSizes, px: number, save = true): void {
    const next = clampPane(which, px);
    if (this.#sizes[which] !== next) this.#sizes = { ...this.#sizes, [which]: next };
    if (save) store(KEY, this.#sizes);
  }
}
