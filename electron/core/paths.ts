import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_DIR_NAME = 'Citewise';
export const LIBRARY_FILE = 'citewise.sqlite';

/**
 * The data directory: `--data-dir`, else CITEWISE_DATA_DIR, else the platform's per-user folder
 * (the same one Electron's userData uses, so the app, host mode and the CLI share one library).
 */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (flag) return resolve(flag);
  if (env.CITEWISE_DATA_DIR) return resolve(env.CITEWISE_DATA_DIR);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_DIR_NAME);
}
