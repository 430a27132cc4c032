// A disk that fills up, for the fault tests: a small tmpfs when this process may mount one (root),
// else SQLite's max_page_count on the library connection, which fails writes with SQLITE_FULL as a
// full disk does.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export interface SmallDisk {
  kind: 'tmpfs' | 'max_page_count';
  dataDir: string;
  /** Fills the disk (tmpfs: a filler file up to ENOSPC; otherwise the page cap is what the library now uses). */
  fill(libraryFile: string): void;
  /** tmpfs only: fills the disk, then frees exactly `bytes` (a multiple of 4096) of it. */
  leaveFree(bytes: number): void;
  /** Frees it again. */
  free(): void;
  /** The max_page_count a client opened now must use (undefined on a tmpfs). */
  maxPageCount(): number | undefined;
  remove(): void;
}

function tryMount(dir: string, sizeBytes: number): boolean {
  if (process.getuid?.() !== 0 || process.env.CITEWISE_TEST_NO_TMPFS === '1') return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function smallDisk(sizeBytes = 4 * 1024 * 1024): SmallDisk {
  const root = mkdtempSync(join(tmpdir(), 'citewise-disk-'));
  const mounted = tryMount(root, sizeBytes);
  const dataDir = join(root, 'data');
  let cap: number | undefined;
  const filler = join(root, 'filler');
  return {
    kind: mounted ? 'tmpfs' : 'max_page_count',
    dataDir,
    fill(libraryFile) {
      if (mounted) {
        const fd = openSync(filler, 'w');
        const block = Buffer.alloc(64 * 1024, 1);
        try {
          for (;;) writeSync(fd, block);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        } finally {
          closeSync(fd);
        }
        // Fill the last partial block too.
        const fd2 = openSync(filler, 'a');
        try {
          for (;;) writeSync(fd2, Buffer.alloc(512, 1));
        } catch {
          // ENOSPC: full to the last byte
        } finally {
          closeSync(fd2);
        }
      } else {
        const db = new Database(libraryFile);
        db.pragma('wal_checkpoint(TRUNCATE)');
        cap = db.pragma('page_count', { simple: true }) as number;
        db.close();
      }
    },
    leaveFree(bytes) {
      if (!mounted) throw new Error('leaveFree needs a tmpfs');
      this.fill('');
      truncateSync(filler, statSync(filler).size - bytes);
    },
    free() {
      if (mounted) rmSync(filler, { force: true });
      else cap = undefined;
    },
    maxPageCount: () => cap,
    remove() {
      if (mounted) execFileSync('umount', [root], { stdio: 'ignore' });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Files whose name says they are half-written (a backup's .partial, a restore's .tmp). */
export function halfWritten(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.partial') || f.endsWith('.tmp'),
    );
  } catch {
    return [];
  }
}

export function bibtex(count: number, prefix: string, abstractBytes = 400): string {
  const words = 'reliability durability transaction journal checkpoint sector'.split(' ');
  let out = '';
  for (let i = 0; i < count; i++) {
    const abstract = Array.from(
      { length: Math.ceil(abstractBytes / 10) },
      (_, k) => words[(i + k) % words.length],
    ).join(' ');
    out += `@article{${prefix}${i},\n  title = {${prefix} paper number ${i}},\n  author = {Writer, Ann and Other, Bob},\n  journal = {Journal of Faults},\n  year = {2020},\n  doi = {10.1234/${prefix}.${i}},\n  abstract = {${abstract}}\n}\n\n`;
  }
  return out;
}

/** Items, and whether the search index holds exactly them (read straight from the file). */
export function libraryState(file: string): { items: number; indexed: number; unindexed: number; titles: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    const n = (q: string) => db.prepare(q).pluck().get() as number;
    return {
      items: n('SELECT count(*) FROM items'),
      indexed: n('SELECT count(*) FROM items_fts'),
      unindexed: n('SELECT count(*) FROM items WHERE id NOT IN (SELECT rowid FROM items_fts)'),
      titles: db.prepare('SELECT title FROM items ORDER BY id').pluck().all() as string[],
    };
  } finally {
    db.close();
  }
}
