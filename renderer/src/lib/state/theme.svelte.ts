import type { ThemePreference } from '../../../../shared/ipc';

/** The theme: the user's preference, or the OS's when the preference is "system". */
export class ThemeState {
  #preference = $state<ThemePreference>('system');
  #osDark = $state(false);
  #resolved = $derived<'light' | 'dark'>(
    this.#preference === 'system' ? (this.#osDark ? 'dark' : 'light') : this.#preference,
  );

  get preference(): ThemePreference {
    return this.#preference;
  }

  set preference(value: ThemePreference) {
    this.#preference = value;
  }

  get resolved(): 'light' | 'dark' {
    return this.#resolved;
  }

  /** Follows the OS setting; returns the disposer. */
  watchOs(): () => void {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    this.#osDark = query.matches;
    const onChange = (e: MediaQueryListEvent) => {
      this.#osDark = e.matches;
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }
}
