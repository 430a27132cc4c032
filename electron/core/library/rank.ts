// Search ranking: FTS5's bm25, or cw_bm25 from the small SQLite extension beside it (cw_rank.c, built
// by `npm run build` into out/native). cw_bm25 is the same formula with the same scores; it keeps each
// row's length in tokens between queries instead of looking it up in the index for every match, which
// was over half of bm25's cost on a broad word. Without the extension (no C compiler where Citewise was
// built) search ranks with bm25 itself: the same order, more slowly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

export type RankFunction = 'cw_bm25' | 'bm25';

const ENTRY_POINT = 'sqlite3_cwrank_init';

/** The extension's file name on this platform. */
export function rankExtensionFile(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return 'cw_rank.dll';
  if (platform === 'darwin') return 'cw_rank.dylib';
  return 'cw_rank.so';
}

/**
 * Where the built extension is: out/native beside the bundles (out/cli, out/main, or a chunk folder
 * below them), or under out/ of the checkout when running from sources. Null when it was not built.
 */
export function findRankExtension(from: string = import.meta.url): string | null {
  const file = rankExtensionFile();
  for (const candidate of [`../native/${file}`, `../../native/${file}`, `../../../out/native/${file}`]) {
    const url = new URL(candidate, from);
    if (url.protocol !== 'file:') continue;
    const path = fileURLToPath(url);
    if (existsSync(path)) return path;
  }
  return null;
}

/**
 * Loads the extension into a connection. `path`: the file; undefined: look for it (findRankExtension);
 * null: do not use it. Returns the rank function the connection has, and why it is not cw_bm25.
 */
export function loadRankFunction(
  db: Database.Database,
  path: string | null | undefined,
): { fn: RankFunction; reason?: string } {
  if (path === null) return { fn: 'bm25', reason: 'turned off' };
  const file = path ?? findRankExtension();
  if (!file) return { fn: 'bm25', reason: 'the extension was not built (npm run build needs a C compiler)' };
  try {
    // better-sqlite3 takes the entry point as a second argument; its type declarations lag behind.
    const load = db.loadExtension.bind(db) as (file: string, entryPoint: string) => unknown;
    load(file, ENTRY_POINT);
    return { fn: 'cw_bm25' };
  } catch (err) {
    return { fn: 'bm25', reason: `${file} could not be loaded: ${err instanceof Error ? err.message : String(err)}` };
  }
}
