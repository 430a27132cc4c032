// Migration keeps files: the PDFs (and other files) a .bib's `file` fields name are attached to the
// entries' items after the import, the way a dropped PDF is kept: read, hashed (SHA-256), not attached
// twice to one item, copied into the library folder under its checksum or linked where it is (Settings
// → PDFs), its text then indexed for full-text search. Relative paths are looked for beside the .bib
// (and in JabRef's fileDirectory); `~/` is the home folder; a Windows path is found only on Windows.
// Every file named gets a line in the report: attached, already attached, not found (with the entry
// and the path as written), or why it could not be attached.
import { readFile, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, extname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CslItem } from '../../../shared/model/csl';
import type { AttachedFile, AttachFilesReport } from '../../../shared/model/linked-files';
import { CoreError } from '../errors';
import { isPdfLink, parseFileField, type LinkedFile } from '../formats/bibtex/file-field';
import { bibtexCustomOf } from '../formats/bibtex/mapping';
import type { AsyncLibrary } from '../library/client';
import { DEFAULT_CAPTURE_LIMITS, keepCopy, sha256Of } from './capture';

export type { AttachedFile, AttachFilesReport };

export interface AttachFilesOptions {
  /** Where relative paths are looked for, in order: the .bib's folder, JabRef's fileDirectory. */
  baseDirs: readonly string[];
  /** PDFs copied into `storeDir` or linked where they are (other files are always linked). */
  mode: 'copy' | 'link';
  storeDir: string;
  signal?: AbortSignal;
  /** Larger files are not attached (the capture's limit). */
  maxBytes?: number;
  onFile?: (done: number, total: number) => void;
  /** The home folder `~/` stands for (tests give their own). */
  home?: string;
  /** The platform whose paths apply (tests give 'win32' or 'linux'). */
  platform?: NodeJS.Platform;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.epub': 'application/epub+zip',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.doc': 'application/msword',
  '.txt': 'text/plain',
  '.djvu': 'image/vnd.djvu',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.rtf': 'application/rtf',
  '.ps': 'application/postscript',
  '.mhtml': 'multipart/related',
  '.csv': 'text/csv',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

function mimeOf(file: LinkedFile, path: string, pdf: boolean): string | null {
  if (pdf) return 'application/pdf';
  if (/^[a-z]+\/[\w.+-]+$/i.test(file.type)) return file.type.toLowerCase();
  return MIME_BY_EXTENSION[extname(path).toLowerCase()] ?? null;
}

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;
/** The top folders of the absolute paths Mendeley writes without their leading slash. */
const MENDELEY_ROOTS = /^(?:home|Users|Volumes|media|mnt|opt|srv|tmp|var|data)\//;

/** The places a linked path may be, in the order they are tried. */
export function candidatePaths(
  link: string,
  baseDirs: readonly string[],
  home: string,
  platform: NodeJS.Platform = process.platform,
): { paths: string[]; windowsElsewhere: boolean } {
  let p = link.trim();
  if (/^file:\/\//i.test(p)) {
    try {
      p = fileURLToPath(p);
    } catch {
      return { paths: [], windowsElsewhere: false };
    }
  }
  const windows = platform === 'win32';
  if (p === '~' || /^~[\\/]/.test(p)) p = resolve(home, p.slice(2).replace(/\\/g, windows ? '\\' : '/'));
  if (WINDOWS_ABSOLUTE.test(p))
    return windows ? { paths: [p], windowsElsewhere: false } : { paths: [], windowsElsewhere: true };
  if (isAbsolute(p)) return { paths: [p], windowsElsewhere: false };
  const rel = windows ? p : p.replace(/\\/g, '/');
  const paths = baseDirs.map((d) => resolve(d, rel));
  // Mendeley writes absolute paths without their leading slash on Linux and macOS (home/u/…, Users/u/…).
  if (!windows && MENDELEY_ROOTS.test(rel)) paths.push(`/${rel}`);
  return { paths: [...new Set(paths)], windowsElsewhere: false };
}

async function findFile(paths: readonly string[]): Promise<string | null> {
  for (const p of paths) {
    const info = await stat(p).catch(() => null);
    if (info) return p;
  }
  return null;
}

interface Pending {
  itemId: number;
  key: string;
  title: string | null;
  file: LinkedFile;
}

/** The entries' `file` fields, read from the items an import added (or found already there). */
async function linkedFiles(
  lib: Pick<AsyncLibrary, 'cslOf' | 'getItem'>,
  itemIds: readonly number[],
): Promise<Pending[]> {
  const out: Pending[] = [];
  for (let at = 0; at < itemIds.length; at += 500) {
    const ids = itemIds.slice(at, at + 500);
    let items: (CslItem | null)[] = await lib.cslOf(ids);
    // cslOf leaves out an item that went meanwhile: then each is read on its own, to keep ids and items together.
    if (items.length !== ids.length)
      items = await Promise.all(
        ids.map((id) =>
          lib.getItem(id).then(
            (d) => d.csl,
            () => null,
          ),
        ),
      );
    ids.forEach((itemId, i) => {
      const csl = items[i];
      const field = csl ? bibtexCustomOf(csl.custom).fields?.['file'] : undefined;
      if (!csl || !field) return;
      const key = String(csl['citation-key'] ?? csl.id);
      for (const file of parseFileField(field))
        out.push({ itemId, key, title: typeof csl.title === 'string' ? csl.title : null, file });
    });
  }
  return out;
}

export async function attachLinkedFiles(
  lib: Pick<AsyncLibrary, 'cslOf' | 'getItem' | 'withLinkedFiles' | 'attachImportedFiles'>,
  itemIds: readonly number[],
  options: AttachFilesOptions,
): Promise<AttachFilesReport> {
  const report: AttachFilesReport = {
    attached: 0,
    duplicates: 0,
    missing: 0,
    failed: 0,
    online: 0,
    pdfs: 0,
    files: [],
  };
  const pending = await linkedFiles(lib, itemIds);
  const maxBytes = options.maxBytes ?? DEFAULT_CAPTURE_LIMITS.maxBytes;
  const home = options.home ?? homedir();
  let done = 0;
  for (const p of pending) {
    if (options.signal?.aborted)
      throw new CoreError('CANCELLED', 'Attaching the files was cancelled; what was attached is kept.');
    const base = { itemId: p.itemId, key: p.key, title: p.title, written: p.file.link, pdf: isPdfLink(p.file) };
    const outcome = await attachOne(lib, p, base, options, maxBytes, home);
    report.files.push(outcome);
    if (outcome.status === 'attached') {
      report.attached++;
      if (outcome.pdf) report.pdfs++;
    } else if (outcome.status === 'duplicate') report.duplicates++;
    else if (outcome.status === 'missing') report.missing++;
    else if (outcome.status === 'online') report.online++;
    else report.failed++;
    options.onFile?.(++done, pending.length);
  }
  return report;
}

async function attachOne(
  lib: Pick<AsyncLibrary, 'attachImportedFiles'>,
  p: Pending,
  base: Omit<AttachedFile, 'path' | 'status'>,
  options: AttachFilesOptions,
  maxBytes: number,
  home: string,
): Promise<AttachedFile> {
  if (p.file.online)
    return { ...base, path: null, status: 'online', reason: 'a link to a web page, not a file; it stays in the entry' };
  const where = candidatePaths(p.file.link, options.baseDirs, home, options.platform);
  if (where.windowsElsewhere)
    return { ...base, path: null, status: 'missing', reason: 'a Windows path, which is not on this computer' };
  const found = await findFile(where.paths);
  if (!found)
    return {
      ...base,
      path: null,
      status: 'missing',
      reason: `not found (looked for ${where.paths.slice(0, 3).join(', ')}${where.paths.length > 3 ? ', …' : ''})`,
    };
  const fail = (reason: string): AttachedFile => ({ ...base, path: found, status: 'failed', reason });
  // Documents only: a .bib from someone else could name any file (a key, a script); it is not attached.
  const extension = extname(found).toLowerCase();
  if (!base.pdf && !(extension in MIME_BY_EXTENSION))
    return fail(
      `only documents are attached (${Object.keys(MIME_BY_EXTENSION).join(' ')}); ${extension === '' ? 'this file has no extension' : `not ${extension} files`}`,
    );
  const info = await stat(found);
  if (!info.isFile()) return fail('it is not a file');
  if (info.size === 0) return fail('the file is empty');
  if (info.size > maxBytes)
    return fail(
      `it is ${(info.size / 1048576).toFixed(1)} MB; files larger than ${maxBytes / 1048576} MB are not attached`,
    );
  const bytes = await readFile(found);
  const sha256 = await sha256Of(bytes);
  const isPdf = bytes.subarray(0, 5).toString('latin1') === '%PDF-';
  if (base.pdf && !isPdf) return fail('it is named a PDF but is not one (it does not start with %PDF-)');
  let path = found;
  let wrote = false;
  if (isPdf && options.mode === 'copy') {
    const kept = await keepCopy(found, info, sha256, options.storeDir);
    if (!kept) return fail('it changed while it was being copied; import the file again once it is complete');
    ({ stored: path, wrote } = kept);
  }
  let stored: Awaited<ReturnType<AsyncLibrary['attachImportedFiles']>>;
  try {
    stored = await lib.attachImportedFiles([
      {
        itemId: p.itemId,
        path,
        sha256,
        size: info.size,
        mime: mimeOf(p.file, found, isPdf),
        stored: path === found ? 'linked' : 'copied',
        originalName: basename(found),
      },
    ]);
  } catch (err) {
    if (wrote) await rm(path, { force: true });
    throw err;
  }
  const r = stored[0]!;
  if (r.status === 'duplicate')
    return { ...base, pdf: isPdf, path: found, status: 'duplicate', reason: 'the item has this file already' };
  return { ...base, pdf: isPdf, path: found, status: 'attached', ...(r.alsoOn !== null ? { alsoOn: r.alsoOn } : {}) };
}

/**
 * Where JabRef keeps the files a .bib's relative paths start from: `@Comment{jabref-meta: fileDirectory:…;}`
 * (and the user-specific `fileDirectory-<user>-<host>:…;`), relative to the .bib's folder when relative.
 */
export function jabrefFileDirectories(text: string, bibDir: string | null): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/@comment\s*\{\s*jabref-meta:\s*fileDirectory(?:-[^:]*)?:((?:\\.|[^;\\])*);\s*\}/gi)) {
    const dir = m[1]!.replace(/\\(.)/g, '$1').trim();
    if (dir === '') continue;
    if (isAbsolute(dir) || WINDOWS_ABSOLUTE.test(dir)) out.push(dir);
    else if (bibDir !== null) out.push(resolve(bibDir, dir));
  }
  return out;
}
