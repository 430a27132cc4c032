// Keeps the keyboard focus where the user is when a view re-renders the element that had it (the
// details column rebuilds its fields after a save): without this the focus falls back to <body>, and
// the next Tab starts again from the top of the page.

/** A selector that finds the same control again after it is re-created, or null when there is none. */
function selectorFor(el: Element): string | null {
  if (el.id) return `#${CSS.escape(el.id)}`;
  const label = el.getAttribute('aria-label');
  return label ? `${el.tagName.toLowerCase()}[aria-label="${CSS.escape(label)}"]` : null;
}

/**
 * Notes the focused control inside `within` before an update; the returned function, called once the
 * DOM is updated, focuses the control found again by the same selector if the focus was lost.
 */
export function holdFocus(within: HTMLElement | undefined): () => void {
  const active = document.activeElement;
  const selector = within && active && active !== within && within.contains(active) ? selectorFor(active) : null;
  return () => {
    if (!within || !selector) return;
    const now = document.activeElement;
    if (now && now !== document.body && now.isConnected) return;
    within.querySelector<HTMLElement>(selector)?.focus();
  };
}
