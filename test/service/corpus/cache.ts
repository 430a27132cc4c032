// Finds or generates the corpus database for a seed and size. Generated files are cached in the OS
// temporary directory and written under a temporary name first, so parallel starts never see half a file.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { generateCorpus } from './generate';
import { SCHEMA_VERSION } from './schema';

export function defaultCachePath(papers: number, seed: number): string {
  return join(tmpdir(), 'citewise-service-cache', `corpus-v${SCHEMA_VERSION}-s${seed}-n${papers}.db`);
}

/** Size and seed of an existing corpus file of the current schema, or null. */
export function corpusMeta(path: string): { papers: number; seed: number } | null {
  if (!existsSync(path)) return null;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const meta = new Map(
        (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [
          r.key,
          r.value,
        ]),
      );
      if (meta.get('schemaVersion') !== String(SCHEMA_VERSION)) return null;
      return { papers: Number(meta.get('papers')), seed: Number(meta.get('seed')) };
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

function matches(path: string, papers: number, seed: number): boolean {
  if (!existsSync(path)) return false;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const meta = new Map(
        (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [
          r.key,
          r.value,
        ]),
      );
      return (
        meta.get('schemaVersion') === String(SCHEMA_VERSION) &&
        meta.get('seed') === String(seed >>> 0) &&
        meta.get('papers') === String(papers)
      );
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** The path of a ready corpus database, generating it when needed; says whether it was generated. */
export function ensureCorpus(options: { papers: number; seed: number; dbPath?: string; log?: (m: string) => void }): {
  path: string;
  generated: boolean;
} {
  const papers = Math.max(50, Math.floor(options.papers));
  const path = options.dbPath ?? defaultCachePath(papers, options.seed);
  if (matches(path, papers, options.seed)) return { path, generated: false };
  mkdirSync(join(path, '..'), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    generateCorpus(tmp, { papers, seed: options.seed, log: options.log });
    rmSync(path, { force: true });
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
  return { path, generated: true };
}
