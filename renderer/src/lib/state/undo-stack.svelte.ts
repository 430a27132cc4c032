// The step undo (and redo) would revert now, followed through library.undoChanged. Every Undo the UI
// offers (a toast, the details column) remembers the step it was offered for and shows only while
// that step is still the one undo would revert: once another change comes after it, or it was undone
// (by Ctrl+Z, another pane, another offer), the offer disappears instead of undoing something else.
import type { CitewiseApi } from '../../../../shared/ipc';
import type { ItemId, UndoEntry, UndoTops } from '../../../../shared/model/library';

/** An Undo (or Redo) offered for one step. */
export interface UndoOffer {
  kind: 'undo' | 'redo';
  id: number;
  label: string;
}

export class UndoStack {
  readonly #api: CitewiseApi;
  #undo = $state.raw<UndoEntry | null>(null);
  #redo = $state.raw<UndoEntry | null>(null);
  /** Bumped by every answer, so a slower older answer never overwrites a newer one. */
  #seen = 0;

  constructor(api: CitewiseApi) {
    this.#api = api;
  }

  /** The step undo would revert, null when there is none. */
  get undo() {
    return this.#undo;
  }
  get redo() {
    return this.#redo;
  }

  /** Follows the stack; returns the disposer. */
  start(): () => void {
    const off = this.#api.on('library.undoChanged', (tops) => {
      this.#seen++;
      this.#set(tops);
    });
    void this.refresh();
    return off;
  }

  /** Reads the tops now (after a change this window made, before its event arrives). */
  async refresh(): Promise<UndoTops | null> {
    const asked = ++this.#seen;
    const result = await this.#api.invoke('library.undo.tops', {});
    if (!result.ok) return null;
    if (asked === this.#seen) this.#set(result.value);
    return result.value;
  }

  /**
   * The offer for the change just made to these items: the step undo would now revert, when it
   * touches them (null otherwise: something else came first, nothing to offer).
   */
  async offerFor(ids: readonly ItemId[], kind: 'undo' | 'redo' = 'undo'): Promise<UndoOffer | null> {
    const tops = await this.refresh();
    const step = tops?.[kind] ?? null;
    if (!step) return null;
    const listed = step.itemIds.length === step.itemCount;
    if (ids.length > 0 && listed && !ids.every((id) => step.itemIds.includes(id))) return null;
    return { kind, id: step.id, label: step.label };
  }

  /** Whether an offer still reverts the step it was made for. */
  current(offer: UndoOffer | null): boolean {
    if (!offer) return false;
    return (offer.kind === 'undo' ? this.#undo : this.#redo)?.id === offer.id;
  }

  #set(tops: UndoTops): void {
    this.#undo = tops.undo;
    this.#redo = tops.redo;
  }
}

const byApi = new WeakMap<CitewiseApi, UndoStack>();

/** The one UndoStack of a window: the Library pane and the details column share it. */
export function undoStackFor(api: CitewiseApi): UndoStack {
  let stack = byApi.get(api);
  if (!stack) byApi.set(api, (stack = new UndoStack(api)));
  return stack;
}
