import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CoreError } from './errors';

export const APP_DIR_NAME = 'Citewise';
export const LIBRARY_FILE = 'citewise.sqlite';

/**
 * The data directory: `--data-dir`, else CITEWISE_DATA_DIR, else the platform's per-user folder
 * (the same one Electron's userData uses, so the app, host mode and the CLI share one library).
 */
export function resolveDataDir(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (flag) return resolve(flag);
  if (env.CITEWISE_DATA_DIR) return resolve(env.CITEWISE_DATA_DIR);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_DIR_NAME);
}

/**
 * Makes sure `dir` can hold a library: created if missing, a folder, and writable. Anything else (a
 * file, /proc/1, a loop of symbolic links, a read-only place) is refused with what is wrong with it,
 * before SQLite meets it as "unable to open database file".
 */
export function ensureDataDir(dir: string): void {
  const refuse = (why: string): never => {
    throw new CoreError(
      'INVALID_INPUT',
      `The data folder ${dir} ${why}. Choose another with --data-dir or CITEWISE_DATA_DIR.`,
    );
  };
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') refuse('is a file (or lies under one), not a folder');
    if (code === 'ELOOP') refuse('is a loop of symbolic links');
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      refuse('cannot be created here (permission denied or read-only)');
    refuse(`cannot be created (${code ?? 'error'})`);
  }
  let stat;
  try {
    stat = statSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return refuse(code === 'ELOOP' ? 'is a loop of symbolic links' : `cannot be read (${code ?? 'error'})`);
  }
  if (!stat.isDirectory()) refuse('is not a folder');
  const probe = join(dir, `.citewise-write-test-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    refuse(`is not a place Citewise can write its library (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
