// One stored setting, read before the library is open: `citewise import` starts parsing its first
// file while the library worker opens the library, and the parse needs Settings → Import.
import Database from 'better-sqlite3';

/**
 * The value stored under `key` in the library file's settings, or undefined when there is none (no
 * library yet, no such setting, a file that cannot be read now: the caller uses the default). Opened
 * read-only; it never creates, migrates or locks the library.
 */
export function peekSetting(file: string, key: string): unknown {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.value) as unknown);
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}
