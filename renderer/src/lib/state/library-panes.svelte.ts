import { clampPane, sanitizePanes, type PaneSizes } from '../library/layout';
import type { LibraryLayout } from '../../../../shared/ipc/settings';
import { read, store, type LayoutSaver } from './library-columns.svelte';

const KEY = 'citewise.library.panes';

/** The widths of the Library's sidebar and details column, kept beside the columns (localStorage and the library's settings). */
export class PanePrefs {
  #sizes = $state.raw<PaneSizes>(sanitizePanes(read(KEY)));
  readonly #saveLayout: LayoutSaver;

  constructor(saveLayout: LayoutSaver = () => {}) {
    this.#saveLayout = saveLayout;
  }

  /** Takes the widths kept in the library's settings. */
  adopt(layout: LibraryLayout): void {
    if (layout.panes) this.#sizes = sanitizePanes(layout.panes);
  }

  get sidebar() {
    return this.#sizes.sidebar;
  }
  get details() {
    return this.#sizes.details;
  }

  /** Sets a pane's width (clamped); `save` false while a drag is still going on. */
  resize(which: keyof PaneSizes, px: number, save = true): void {
    const next = clampPane(which, px);
    if (this.#sizes[which] !== next) this.#sizes = { ...this.#sizes, [which]: next };
    if (save) {
      store(KEY, this.#sizes);
      this.#saveLayout({ panes: { ...this.#sizes } });
    }
  }
}
