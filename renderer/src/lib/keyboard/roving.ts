// A roving tabindex (WAI-ARIA APG): a list is one tab stop, the arrow keys move within it. The last
// item the user was on keeps the tab stop, so Tab back into the list returns there.
import { shortcutFor } from './shortcuts';

/**
 * Makes `container`'s items (matched by `selector`, nested ones too) one tab stop. Returns its
 * disposer (a Svelte attachment: `{@attach roving('.tag')}`).
 */
export function roving(selector: string): (container: HTMLElement) => () => void {
  return (container) => {
    let current: HTMLElement | null = null;
    const items = (): HTMLElement[] => [...container.querySelectorAll<HTMLElement>(selector)];

    function sync(): void {
      const all = items();
      if (!current || !all.includes(current))
        current = all.find((el) => el.matches('[aria-current="page"], [aria-pressed="true"]')) ?? all[0] ?? null;
      for (const el of all) {
        const want = el === current ? '0' : '-1';
        if (el.getAttribute('tabindex') !== want) el.setAttribute('tabindex', want);
      }
    }

    function onfocusin(event: FocusEvent): void {
      const el = (event.target as HTMLElement).closest<HTMLElement>(selector);
      if (el && container.contains(el) && el !== current) {
        current = el;
        sync();
      }
    }

    function onkeydown(event: KeyboardEvent): void {
      const el = (event.target as HTMLElement).closest<HTMLElement>(selector);
      if (!el || el !== event.target) return;
      const command = shortcutFor(event, 'Lists in the sidebar')?.command;
      if (!command) return;
      const all = items();
      const at = all.indexOf(el);
      const next = {
        'list-next': all[Math.min(at + 1, all.length - 1)],
        'list-previous': all[Math.max(at - 1, 0)],
        'list-first': all[0],
        'list-last': all[all.length - 1],
      }[command];
      if (!next) return;
      event.preventDefault();
      current = next;
      sync();
      next.focus();
    }

    sync();
    // Items come and go (tags filtered, collections created): the tab stop follows.
    const observer = new MutationObserver(sync);
    observer.observe(container, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-current', 'aria-pressed'],
    });
    container.addEventListener('focusin', onfocusin);
    container.addEventListener('keydown', onkeydown);
    return () => {
      observer.disconnect();
      container.removeEventListener('focusin', onfocusin);
      container.removeEventListener('keydown', onkeydown);
    };
  };
}
