import { DEFAULT_SETTINGS, settingsPatch, type Settings } from '../../../shared/ipc';
import type { Db } from '../library/database';

/** Preferences, kept in the library database so they travel with it. */
export class SettingsStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  get(): Settings {
    const rows = this.#db.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[];
    const stored: Record<string, unknown> = {};
    for (const row of rows) {
      try {
        stored[row.key] = JSON.parse(row.value);
      } catch {
        // An unreadable value falls back to its default rather than blocking start-up.
      }
    }
    // Values that no longer pass validation (an older or hand-edited file) fall back to their defaults.
    const known = settingsPatch.safeParse(Object.fromEntries(Object.keys(settingsPatch.shape).filter((k) => k in stored).map((k) => [k, stored[k]])));
    return { ...DEFAULT_SETTINGS, ...(known.success ? known.data : {}) } as Settings;
  }

  update(patch: Partial<Settings>): Settings {
    const upsert = this.#db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
    this.#db.transaction(() => {
      for (const [key, value] of Object.entries(patch)) {
        if (value !== undefined) upsert.run(key, JSON.stringify(value));
      }
    })();
    return this.get();
  }
}
