// F6 and Shift+F6 move between the regions of a pane (in the Library: sidebar, search, table,
// details), as in Zotero, Outlook and the browsers. A region is an element with `data-region`; F6
// returns to the element last focused in it, or else its first tab stop.

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]';

const lastFocused = new WeakMap<HTMLElement, HTMLElement>();

function regions(root: ParentNode): HTMLElement[] {
  // No filter on layout: a region may be `display: contents`; a region with nothing to focus is skipped below.
  return [...root.querySelectorAll<HTMLElement>('[data-region]')];
}

function visible(el: HTMLElement): boolean {
  return el.getClientRects().length > 0 && !el.closest('[inert], [hidden]');
}

function targetIn(region: HTMLElement): HTMLElement | null {
  const last = lastFocused.get(region);
  if (last?.isConnected && region.contains(last) && visible(last)) return last;
  if (region.hasAttribute('tabindex') && visible(region)) return region;
  return [...region.querySelectorAll<HTMLElement>(TABBABLE)].find((el) => el.tabIndex >= 0 && visible(el)) ?? null;
}

/** Remembers, per region, where the focus was (call on every focusin). */
export function noteFocus(target: EventTarget | null): void {
  const el = target as HTMLElement | null;
  const region = el?.closest?.<HTMLElement>('[data-region]');
  if (region && el && el !== region) lastFocused.set(region, el);
}

/** Moves the focus to the next (or previous) region; returns the region's name, or null when there is none. */
export function cycleRegion(direction: 1 | -1, root: ParentNode = document): string | null {
  const all = regions(root);
  if (all.length === 0) return null;
  const active = document.activeElement;
  const at = all.findIndex((r) => r.contains(active));
  for (let step = 1; step <= all.length; step++) {
    const index =
      at === -1
        ? direction === 1
          ? step - 1
          : all.length - step
        : (at + direction * step + all.length * 2) % all.length;
    const region = all[index]!;
    const target = targetIn(region);
    if (target) {
      target.focus();
      return region.dataset.region ?? null;
    }
  }
  return null;
}
