// The library's side of the watched folder (migration 0021): which files it has shown Citewise and
// what became of each, read and written in the library worker (Library.watchedFiles and the rest).
import { sql, type ReadDb, type WriteDb } from './sql';

export type WatchedOutcome = 'added' | 'attached' | 'duplicate' | 'failed';

export interface WatchedFile {
  path: string;
  folder: string;
  size: number;
  mtimeMs: number;
  sha256: string | null;
  outcome: WatchedOutcome;
  itemId: number | null;
  /** Why it failed (failed only). */
  message: string | null;
  seenAt: number;
}

interface Row {
  path: string;
  folder: string;
  size: number;
  mtime_ms: number;
  sha256: string | null;
  outcome: WatchedOutcome;
  item_id: number | null;
  message: string | null;
  seen_at: number;
}

const fromRow = (r: Row): WatchedFile => ({
  path: r.path,
  folder: r.folder,
  size: r.size,
  mtimeMs: r.mtime_ms,
  sha256: r.sha256,
  outcome: r.outcome,
  itemId: r.item_id,
  message: r.message,
  seenAt: r.seen_at,
});

export function watchedFiles(db: ReadDb, folder: string): WatchedFile[] {
  return db.all<Row>(sql`SELECT * FROM pdf_watch_files WHERE folder = ${folder} ORDER BY path`).map(fromRow);
}

/** Whether a file with this checksum was seen in a watched folder before (under any name). */
export function watchedChecksum(db: ReadDb, sha256: string): boolean {
  return db.get(sql`SELECT 1 FROM pdf_watch_files WHERE sha256 = ${sha256} LIMIT 1`) !== undefined;
}

export function recordWatchedFile(db: WriteDb, file: WatchedFile): void {
  db.run(sql`INSERT INTO pdf_watch_files (path, folder, size, mtime_ms, sha256, outcome, item_id, message, seen_at)
    VALUES (${file.path}, ${file.folder}, ${file.size}, ${Math.floor(file.mtimeMs)}, ${file.sha256}, ${file.outcome}, ${file.itemId}, ${file.message}, ${file.seenAt})
    ON CONFLICT(path) DO UPDATE SET folder = excluded.folder, size = excluded.size, mtime_ms = excluded.mtime_ms, sha256 = excluded.sha256,
      outcome = excluded.outcome, item_id = excluded.item_id, message = excluded.message, seen_at = excluded.seen_at`);
}

/** What the watched folder has brought in: PDFs captured as items (added or attached) and files that failed. */
export function watchCounts(db: ReadDb, folder: string): { captured: number; failed: number } {
  const row = db.get<{ captured: number | null; failed: number | null }>(
    sql`SELECT SUM(outcome IN ('added', 'attached')) AS captured, SUM(outcome = 'failed') AS failed FROM pdf_watch_files WHERE folder = ${folder}`,
  );
  return { captured: row?.captured ?? 0, failed: row?.failed ?? 0 };
}
