// Zotero's "Linked Attachment Base Directory": linked files under it are stored in zotero.sqlite as
// "attachments:rel/path" (itemAttachments.path), relative to a folder named only in the Zotero
// profile's prefs.js (user_pref("extensions.zotero.baseAttachmentPath", "…")), not in the data
// folder. Zotero joins the two and turns the slashes into the platform's (Zotero.Attachments
// .resolveRelativePath / fixPathSlashes); this does the same. The base folder is the one the user
// gives (import dialog, `citewise import --zotero-base DIR`), else the one in the prefs.js of the
// Zotero profile that uses this data folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export const BASE_PATH_PREFIX = 'attachments:';
const BASE_PREF = 'extensions.zotero.baseAttachmentPath';
const DATA_DIR_PREF = 'extensions.zotero.dataDir';

/** The user_pref lines of a prefs.js, as Firefox writes them: user_pref("name", value); one a line. */
export function readPrefs(text: string): Map<string, string | number | boolean> {
  const prefs = new Map<string, string | number | boolean>();
  const line = /^\s*user_pref\(\s*("(?:[^"\\]|\\.)*")\s*,\s*("(?:[^"\\]|\\.)*"|true|false|-?\d+)\s*\);\s*$/gm;
  for (const m of text.matchAll(line)) {
    try {
      prefs.set(JSON.parse(m[1]!) as string, JSON.parse(m[2]!) as string | number | boolean);
    } catch {
      // An escape JSON does not know (\x41): not a pref Citewise needs to read exactly.
    }
  }
  return prefs;
}

/** Where Zotero keeps its profiles on each system (the folder with profiles.ini). */
export function profileRoots(platform: NodeJS.Platform, home: string, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') return [join(home, 'Library', 'Application Support', 'Zotero')];
  if (platform === 'win32') {
    const appData = env.APPDATA ?? join(home, 'AppData', 'Roaming');
    return [join(appData, 'Zotero', 'Zotero')];
  }
  return [join(home, '.zotero', 'zotero')];
}

/** The profile folders under a root: those profiles.ini names (relative or absolute), else every *.default*. */
function profilesUnder(root: string): string[] {
  const found = new Set<string>();
  try {
    const ini = readFileSync(join(root, 'profiles.ini'), 'utf8');
    let relative = true;
    for (const raw of ini.split(/\r?\n/)) {
      const l = raw.trim();
      if (l.startsWith('[')) relative = true;
      else if (/^IsRelative=0$/i.test(l)) relative = false;
      else if (l.startsWith('Path=')) {
        const p = l.slice('Path='.length);
        found.add(relative && !isAbsolute(p) ? join(root, p) : p);
      }
    }
  } catch {
    // No profiles.ini: look at the folders.
  }
  for (const dir of [root, join(root, 'Profiles')])
    try {
      for (const name of readdirSync(dir)) if (/\.default/i.test(name)) found.add(join(dir, name));
    } catch {
      // Not there.
    }
  // profiles.ini's paths are relative with / even on Windows; with IsRelative it may name Profiles/x.
  return [...found].map((p) => resolve(p)).filter((p) => existsSync(join(p, 'prefs.js')));
}

export interface BaseDirectory {
  path: string;
  /** Where it came from: the user, or a profile's prefs.js (its path). */
  from: 'given' | string;
}

/**
 * The base folder for this data folder's relative links: `given` when there is one, else the
 * baseAttachmentPath of the Zotero profile whose dataDir is this folder (a profile without dataDir
 * uses ~/Zotero), else of the only profile that has one; null when none can be found.
 */
export function findBaseDirectory(
  dataFolder: string,
  options: { given?: string; home?: string; platform?: NodeJS.Platform; env?: NodeJS.ProcessEnv } = {},
): BaseDirectory | null {
  if (options.given) return { path: resolve(options.given), from: 'given' };
  const home = options.home ?? homedir();
  const folder = resolve(dataFolder);
  const candidates: { path: string; prefsFile: string; mine: boolean }[] = [];
  for (const root of profileRoots(options.platform ?? process.platform, home, options.env ?? process.env))
    for (const profile of profilesUnder(root)) {
      const prefsFile = join(profile, 'prefs.js');
      let prefs: Map<string, string | number | boolean>;
      try {
        prefs = readPrefs(readFileSync(prefsFile, 'utf8'));
      } catch {
        continue;
      }
      const base = prefs.get(BASE_PREF);
      if (typeof base !== 'string' || base === '') continue;
      const dataDir = prefs.get(DATA_DIR_PREF);
      const uses = typeof dataDir === 'string' && dataDir !== '' ? resolve(dataDir) : join(home, 'Zotero');
      candidates.push({ path: base, prefsFile, mine: uses === folder });
    }
  const pick = candidates.find((c) => c.mine) ?? (candidates.length === 1 ? candidates[0] : undefined);
  return pick ? { path: pick.path, from: pick.prefsFile } : null;
}

/** The file an "attachments:" path names under `base`, with either kind of slash; null without a base. */
export function resolveBasePath(path: string, base: string | null): string | null {
  if (!path.startsWith(BASE_PATH_PREFIX) || base === null) return null;
  const rel = path
    .slice(BASE_PATH_PREFIX.length)
    .split(/[\\/]+/)
    .filter(Boolean);
  if (rel.length === 0) return null;
  return join(base, ...rel);
}

/** Whether a folder exists (the base folder given may be a typo). */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
