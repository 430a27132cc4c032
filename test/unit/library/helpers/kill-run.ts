// Runs the import child and kills it with SIGKILL after `killAfterMs` (from the moment its
// transaction opened), then checks the library file: integrity_check must be ok and the import must be
// all there or not there at all.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';

const ROOT = resolve(import.meta.dirname, '../../../..');
const CHILD = resolve(import.meta.dirname, 'import-child.ts');

export interface KillOutcome {
  killed: boolean;
  committed: boolean;
  integrity: string;
  itemsBefore: number;
  itemsAfter: number;
  /** From the open transaction to the commit, when the import got that far. */
  importMs: number | null;
}

export function countItems(file: string): number {
  const db = new Database(file);
  try {
    return (db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'items'").pluck().get() as number)
      ? (db.prepare('SELECT count(*) FROM items').pluck().get() as number)
      : 0;
  } finally {
    db.close();
  }
}

export async function killDuringImport(
  file: string,
  count: number,
  seed: number,
  killAfterMs: number,
): Promise<KillOutcome> {
  const itemsBefore = existsSync(file) ? countItems(file) : 0;
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file, String(count), String(seed)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  let killed = false;
  let openedAt = 0;
  let importMs: number | null = null;
  await new Promise<void>((res) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('committed') && importMs === null) importMs = performance.now() - openedAt;
      if (out.includes('importing') && !killed) {
        killed = true;
        openedAt = performance.now();
        setTimeout(() => {
          child.kill('SIGKILL');
          res();
        }, killAfterMs);
      }
    });
    void exited.then(() => res());
  });
  const code = await exited;
  if (!out.includes('importing')) throw new Error(`import child failed before importing (exit ${code}): ${err}`);
  const db = new Database(file);
  try {
    const integrity = (db.pragma('integrity_check', { simple: true }) as string) ?? 'no answer';
    const itemsAfter = db.prepare('SELECT count(*) FROM items').pluck().get() as number;
    return {
      killed: !out.includes('committed'),
      committed: out.includes('committed'),
      integrity,
      itemsBefore,
      itemsAfter,
      importMs,
    };
  } finally {
    db.close();
  }
}
