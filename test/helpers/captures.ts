// How an item's captured PDFs were identified, as the library file keeps them (pdf_captures), read on
// a read-only connection of the test's own through capture-store.ts's reader. The app shows captures
// through other paths (the Needs review list, the item's attachments), so the stores offer no such call.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { CaptureRecord } from '../../shared/model/pdf-capture';
import { capturesOf } from '../../electron/core/library/capture-store';
import { readHandle } from '../../electron/core/library/sql';
import { LIBRARY_FILE } from '../../electron/core/paths';

/** The item's captures in a library file (or a data directory's library, `{ dataDir }`), by attachment. */
export function storedCaptures(where: string | { dataDir: string }, itemId: number): CaptureRecord[] {
  const file = typeof where === 'string' ? where : join(where.dataDir, LIBRARY_FILE);
  const db = new Database(file, { readonly: true });
  try {
    return capturesOf(readHandle(db), itemId);
  } finally {
    db.close();
  }
}

/** The same through a connection a test already has (an opened library's `db`). */
export function capturesIn(db: Database.Database, itemId: number): CaptureRecord[] {
  return capturesOf(readHandle(db), itemId);
}
