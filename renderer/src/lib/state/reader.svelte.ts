// Which PDF the reader shows (panes/reader/ReaderView.svelte), if any: opened from an item's
// attachment or from a `fulltext:` hit at its page. The reader stands in for the pane while it is open.

export interface ReaderTarget {
  itemId: number;
  attachmentId: number;
  /** What the reader's header says until the file's name is known (the item's title). */
  title: string;
  /** Open at this page (a search hit) instead of the last page read. */
  page?: number;
  /** Words to find and highlight (the hit's match). */
  find?: string;
}

export class ReaderRequest {
  #current = $state<ReaderTarget | null>(null);

  get current(): ReaderTarget | null {
    return this.#current;
  }

  open(target: ReaderTarget): void {
    this.#current = target;
  }

  close(): void {
    this.#current = null;
  }
}

/** The window's one reader. */
export const reader = new ReaderRequest();
