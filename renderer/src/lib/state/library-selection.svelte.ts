/* eslint-disable svelte/prefer-svelte-reactivity -- the sets here are values, replaced whole in $state.raw, never mutated in place */
/**
 * The table's selection, as desktop file lists do it: click selects one, Shift extends from the anchor,
 * Ctrl/Cmd toggles. "Select all" is a flag, not 100,000 ids: actions that need the ids read them then.
 */
export class Selection {
  #ids = $state.raw<ReadonlySet<number>>(new Set());
  #all = $state(false);
  #anchor = $state<number | null>(null);
  #focus = $state(0);

  get ids(): ReadonlySet<number> {
    return this.#ids;
  }
  get all() {
    return this.#all;
  }
  get focus() {
    return this.#focus;
  }
  get anchor() {
    return this.#anchor;
  }

  has(id: number): boolean {
    return this.#all || this.#ids.has(id);
  }

  size(count: number): number {
    return this.#all ? count : this.#ids.size;
  }

  /** The one selected id, or null when none or several are selected. */
  single(): number | null {
    if (this.#all || this.#ids.size !== 1) return null;
    return this.#ids.values().next().value ?? null;
  }

  /** A click (or Space) on a row; `between` reads the ids of a range of rows. */
  pick(
    index: number,
    id: number,
    mode: { range: boolean; toggle: boolean },
    between: (a: number, b: number) => number[],
  ): void {
    this.#focus = index;
    if (mode.range && this.#anchor !== null) {
      const range = between(this.#anchor, index);
      this.#ids = new Set(mode.toggle ? [...this.#materialised(), ...range] : range);
      this.#all = false;
      return;
    }
    if (mode.toggle) {
      const next = new Set(this.#materialised());
      if (next.has(id)) next.delete(id);
      else next.add(id);
      this.#ids = next;
      this.#all = false;
      this.#anchor = index;
      return;
    }
    this.#ids = new Set([id]);
    this.#all = false;
    this.#anchor = index;
  }

  /** Keyboard focus moves; with `extend` the selection follows from the anchor, else it is the focused row. */
  moveTo(index: number, id: number | undefined, extend: boolean, between: (a: number, b: number) => number[]): void {
    this.#focus = index;
    if (extend) {
      if (this.#anchor === null) this.#anchor = index;
      this.#ids = new Set(between(this.#anchor, index));
      this.#all = false;
    } else if (id !== undefined) {
      this.#ids = new Set([id]);
      this.#all = false;
      this.#anchor = index;
    }
  }

  /**
   * The ids of the range from `anchor` to `focus`, read after a Shift-selection over rows that were not
   * loaded: they replace the range's loaded ids if that range is still the selection.
   */
  completeRange(anchor: number, focus: number, ids: readonly number[]): void {
    if (this.#anchor === anchor && this.#focus === focus && !this.#all) this.#ids = new Set(ids);
  }

  selectAll(): void {
    this.#all = true;
  }

  clear(): void {
    this.#ids = new Set();
    this.#all = false;
    this.#anchor = null;
  }

  reset(): void {
    this.clear();
    this.#focus = 0;
  }

  /** Drops ids no longer in the view (after a trash or a filter change keeps the selection). */
  retain(present: (id: number) => boolean): void {
    if (this.#all) return;
    const kept = [...this.#ids].filter(present);
    if (kept.length !== this.#ids.size) this.#ids = new Set(kept);
  }

  #materialised(): Iterable<number> {
    return this.#ids;
  }
}
