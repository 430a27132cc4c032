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
    // Each value that no longer passes validation (an older or hand-edited file) falls back to its
    // default on its own, so one bad value does not reset the others.
    const known: Record<string, unknown> = {};
    for (const [key, schema] of Object.entries(settingsPatch.shape)) {
      if (!(key in stored)) continue;
      const parsed = schema.safeParse(stored[key]);
      if (parsed.success && parsed.data !== undefined) known[key] = parsed.data;
    }
    return { ...DEFAULT_SETTINGS, ...known } as Settings;
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
