// What a process killed with the library open (kill -9, a crash, a power cut) leaves behind, removed
// at the next open: the hidden temporary files of an atomic write it was making (a PDF being copied
// into attachments/, up to the PDF's size; an auto-export being written in the user's own folder) and
// a command-line import's marker, which would otherwise make the app tell the user, for as long as
// its process id is reused, that an import is running. Only when a process did die with the library
// open (a stale open mark) and no other process has it open now: a live one may be writing exactly
// those files. Finished PDF copies no item uses are kept: a backup or an undo may bring their item back.
import { readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { IMPORT_MARKER } from './shared-use';

/** A temporary file of fs/atomic-write.ts (tempNameFor): `.<name>.<12 hex>.tmp`. */
const TEMP = /^\..+\.[0-9a-f]{12}\.tmp$/;

export interface LeftoversCleaned {
  /** Files removed, with their paths. */
  files: string[];
  bytes: number;
}

function remove(path: string, into: LeftoversCleaned): void {
  try {
    const size = statSync(path).size;
    rmSync(path, { force: true });
    into.files.push(path);
    into.bytes += size;
  } catch {
    // Gone already, or not ours to remove: nothing to do.
  }
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Removes the leftovers of a process that died with the library in `dataDir` open. `exportPaths` are
 * the library's auto-export files (their temporary files sit beside them, or beside the file a link
 * leads to).
 */
export function cleanLeftovers(dataDir: string, exportPaths: readonly string[]): LeftoversCleaned {
  const cleaned: LeftoversCleaned = { files: [], bytes: 0 };
  remove(join(dataDir, IMPORT_MARKER), cleaned);
  const attachments = join(dataDir, 'attachments');
  for (const sub of names(attachments)) {
    const dir = join(attachments, sub);
    for (const name of names(dir)) if (TEMP.test(name)) remove(join(dir, name), cleaned);
  }
  for (const path of exportPaths) {
    const places = new Set([path]);
    try {
      places.add(realpathSync(path));
    } catch {
      // Not there (yet): its temporary files are beside the path itself.
    }
    for (const place of places) {
      const prefix = `.${basename(place)}.`;
      for (const name of names(dirname(place))) {
        if (name.startsWith(prefix) && TEMP.test(name) && name.length === prefix.length + 16) {
          remove(join(dirname(place), name), cleaned);
        }
      }
    }
  }
  return cleaned;
}
