// The app and the command line may have one library open at the same time. SQLite lets one of them
// write at a time; the other waits for the lock. This file says who holds it for long: a command-line
// import leaves a marker beside the library while it runs, so the app can tell the user why a change
// is not saved yet ("Saving when the import from the command line finishes") instead of failing.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const IMPORT_MARKER = 'import-in-progress.json';

/** Marks a command-line import in `dataDir`; returns the function that removes the mark. */
export function markCliImport(dataDir: string): () => void {
  const file = join(dataDir, IMPORT_MARKER);
  try {
    writeFileSync(file, JSON.stringify({ pid: process.pid, startedAt: Date.now() }));
  } catch {
    // Only a hint for the other program's message; the import does not depend on it.
    return () => undefined;
  }
  return () => rmSync(file, { force: true });
}

/** Whether a command-line import (a live process that left the mark) is running on the library in `dataDir`. */
export function cliImportRunning(dataDir: string): boolean {
  try {
    const { pid } = JSON.parse(readFileSync(join(dataDir, IMPORT_MARKER), 'utf8')) as { pid?: unknown };
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What the app says while a change waits for the write lock. */
export function waitingMessage(dataDir: string): string {
  return cliImportRunning(dataDir)
    ? 'Saving when the import from the command line finishes'
    : 'Saving when the other program using the library finishes writing';
}

/** SQLITE_BUSY (and its extended codes): another connection holds the write lock. */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code === 'SQLITE_LOCKED');
}
