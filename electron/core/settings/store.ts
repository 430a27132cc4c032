import { DEFAULT_SETTINGS, settingsPatch, type Settings } from '../../../shared/ipc';
import { CoreError } from '../errors';
import type { Db } from '../library/database';

/** Preferences, kept in the library database so they travel with it. */
export class SettingsStore {
  #db: Db | null;
  /** What get() answers while the connection is closed (the library file is being replaced). */
  #snapshot: Settings | null = null;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Stops using the connection (it is about to be closed); reads answer the last settings meanwhile. */
  detach(): void {
    if (this.#db) this.#snapshot = this.get();
    this.#db = null;
  }

  /** Uses this connection from now on (the library file was replaced: its settings may differ). */
  attach(db: Db): void {
    this.#db = db;
    this.#snapshot = null;
  }

  get(): Settings {
    if (!this.#db) return this.#snapshot!;
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
    const db = this.#db;
    if (!db)
      throw new CoreError(
        'CONFLICT',
        'The library is being restored from a backup; change the settings again in a moment.',
      );
    const upsert = db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
    db.transaction(() => {
      for (const [key, value] of Object.entries(patch)) {
        if (value !== undefined) upsert.run(key, JSON.stringify(value));
      }
    })();
    return this.get();
  }
}
