import { join } from 'node:path';
import type { CslItem } from '../../../../shared/model/csl';
import type { ImportedItem } from '../../../../electron/core/formats';
import { portItemOf } from '../../../../electron/core/formats/import-port';
import type { Library } from '../../../../electron/core/library/library';
import { openLibrary, type OpenedLibrary } from '../../../../electron/core/library/open';
import type { ImportOptions, ImportResult } from '../../../../electron/core/library/types';
import { tempDir } from '../../../helpers/tmp';

export interface TestLibrary extends OpenedLibrary {
  dir: string;
  file: string;
  dispose(): void;
}

/**
 * A fresh library in its own directory, with a controllable clock. These tests do not test
 * durability, so commits do not wait for fsync (durability 'off'): on a loaded machine that wait made
 * a test of a few hundred commits take more than 30 s. Tests of crashes and full disks open theirs
 * with the default, 'full'.
 */
export function testLibrary(options: { now?: () => number; paging?: { window?: number } } = {}): TestLibrary {
  const dir = tempDir('citewise-lib-');
  const file = join(dir.path, 'citewise.sqlite');
  const opened = openLibrary(file, {
    now: options.now ?? clock(),
    durability: 'off',
    ...(options.paging ? { paging: options.paging } : {}),
  });
  return {
    ...opened,
    dir: dir.path,
    file,
    dispose() {
      opened.close();
      dir.remove();
    },
  };
}

/**
 * Imports items into a library opened in this thread, through the import session the library worker
 * drives for every import of the app (Library.beginImport, one transaction): all of them (minus
 * duplicates and bad entries) or, on an error or abort, none. The app itself imports through
 * LibraryClient.importItems or the import port, never in the thread that answers the UI.
 */
export function importItems(library: Library, items: readonly CslItem[], options: ImportOptions = {}): ImportResult {
  const session = library.beginImport(options);
  try {
    session.add(items);
    return session.commit();
  } catch (err) {
    session.rollback();
    throw err;
  }
}

/** A clock that moves 1 ms per reading, so date order is deterministic. */
export function clock(start = Date.UTC(2025, 0, 1)): () => number {
  let t = start;
  return () => t++;
}

export function article(title: string, family: string, year: number, extra: Partial<CslItem> = {}): CslItem {
  return {
    id: title,
    type: 'article-journal',
    title,
    author: [{ family, given: 'A.' }],
    issued: { 'date-parts': [[year]] },
    ...extra,
  };
}

/**
 * Imports parsed entries (importFile's items) as the library worker stores a file's entries off the
 * import port: prepared as the parser prepares them, with their lines, keys and origins, in one
 * transaction. The same session as the app's, without the threads (import-port-content.test.ts
 * checks that both store the same).
 */
export function importParsed(
  library: Library,
  items: readonly ImportedItem[],
  options: ImportOptions = {},
): ImportResult {
  const session = library.beginImport(options);
  try {
    session.addPrepared(items.map(portItemOf));
    return session.commit();
  } catch (err) {
    session.rollback();
    throw err;
  }
}
