// The one check every writer of a file the user names runs first (export -o, manuscript --write-bib,
// an auto-export when it is added and each time it runs): the file must not be, or lead to, anything
// in Citewise's data folder, which holds the library with its -wal and -shm, its backups and the
// attached PDFs. Replacing citewise.sqlite with a BibTeX file left a library the next open found
// damaged, and started empty. The path is judged by where a write would really land: through
// symbolic links (to the file, or to a folder on the way), for a file that does not exist yet in a
// linked folder, and for a hard link to a file of the data folder.
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CoreError } from '../errors';
import { LIBRARY_FILE } from '../paths';

/** Symbolic links followed before a path counts as a loop (Linux's own limit). */
const MAX_LINKS = 40;
/** Files of the data folder looked at for a hard link (it may hold many thousands of PDFs). */
const MAX_SCANNED = 200_000;

/** Where a write to `path` lands: every symbolic link on the way resolved, the file itself too when it is one. */
export function realTarget(path: string): string {
  let p = resolve(path);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    try {
      return realpathSync(p);
    } catch {
      // Not there yet, or a link that leads nowhere yet (a write would create what it points to).
    }
    const link = lstatSync(p, { throwIfNoEntry: false });
    if (link?.isSymbolicLink()) {
      p = resolve(dirname(p), readlinkSync(p));
      continue;
    }
    return join(realFolder(dirname(p)), basename(p));
  }
  throw new CoreError('INVALID_INPUT', `${path} is a loop of symbolic links; it leads to no file.`);
}

/** A folder's real path; for one that does not exist, its nearest existing parent's, with the rest as given. */
function realFolder(dir: string): string {
  const rest: string[] = [];
  let at = dir;
  for (;;) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      const up = dirname(at);
      if (up === at) return join(at, ...rest.reverse());
      rest.push(basename(at));
      at = up;
    }
  }
}

/** Whether `child` is `parent` or lies inside it (case-blind where the file systems usually are). */
function within(parent: string, child: string): boolean {
  const fold = process.platform === 'win32' || process.platform === 'darwin';
  const rel = fold ? relative(parent.toLowerCase(), child.toLowerCase()) : relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** What the data folder's file at `real` is, for the message. */
function whatIs(real: string, folder: string): string {
  const name = relative(folder, real);
  if (name === LIBRARY_FILE) return 'the library itself';
  if (name.startsWith(LIBRARY_FILE)) return "a file of the library's";
  if (name === 'backups' || name.startsWith(`backups${sep}`)) return 'a backup of the library';
  if (name === 'attachments' || name.startsWith(`attachments${sep}`)) return 'an attached file';
  return 'a file';
}

/** A file of the data folder that is the same file as `target` (a hard link), or null; looked for only when the file has more than one name. */
function sameFileIn(dataDir: string, target: Stats): string | null {
  if (target.nlink < 2) return null;
  const pending = [dataDir];
  let scanned = 0;
  while (pending.length > 0 && scanned < MAX_SCANNED) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++scanned > MAX_SCANNED) break;
      const p = join(dir, e.name);
      if (e.isDirectory()) pending.push(p);
      else if (e.isFile()) {
        const s = statSync(p, { throwIfNoEntry: false });
        if (s && s.ino === target.ino && s.dev === target.dev) return p;
      }
    }
  }
  return null;
}

/**
 * Refuses (INVALID_INPUT, saying what the file is and where it leads) a file to write that is, or
 * leads to, anything in the data folder `dataDir`; returns where the write will land otherwise.
 */
export function refuseDataFolderTarget(path: string, dataDir: string): string {
  const real = realTarget(path);
  const folder = realFolder(resolve(dataDir));
  const leads = real === resolve(path) ? 'is' : `leads to ${real}, which is`;
  const kept =
    'which holds the library, its backups and attachments; writing there would destroy them. Choose a file of your own.';
  if (within(folder, real))
    throw new CoreError(
      'INVALID_INPUT',
      `${path} ${leads} ${whatIs(real, folder)} in Citewise's data folder (${dataDir}), ${kept}`,
    );
  const stat = statSync(real, { throwIfNoEntry: false });
  const twin = stat?.isFile() ? sameFileIn(folder, stat) : null;
  if (twin !== null)
    throw new CoreError(
      'INVALID_INPUT',
      `${path} is another name (a hard link) for ${twin}, ${whatIs(twin, folder)} in Citewise's data folder (${dataDir}), ${kept}`,
    );
  return real;
}
