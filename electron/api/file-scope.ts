// Which files an editor may name to the API. collection.scanAUX reads a file and autoexport.add
// writes one, at paths the caller chooses, and any program on this computer may call the API (other
// users' programs too): scanAUX read /etc/shadow, and autoexport.add replaced package.json. So a
// path is used only inside a folder the user allowed (Settings → Editors, or `citewise api
// --allow-folder`), with the extension its use calls for, as a regular file, after its symbolic links
// are resolved (a link inside an allowed folder may not lead out of it). A path outside every allowed
// folder is refused before the disk is looked at, so the answer tells nothing about it.
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { INVALID_PARAMS, RpcError } from './json-rpc';

/** Where the user allows editors' files, for the messages that refuse others. */
export const ALLOW_FOLDER_HINT =
  'allow its folder in Settings → Editors ("Folders editors may use"), or start `citewise api --allow-folder FOLDER`';

/** True when `child` is `parent` or lies inside it. */
function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export interface ScopeRequest {
  /** The method asking, for messages ("collection.scanAUX"). */
  method: string;
  /** What the file is, for messages ("the .aux file"). */
  what: string;
  /** Extensions allowed, without the dot, lower case. */
  extensions: readonly string[];
  /** The folders the user allowed (absolute). */
  folders: readonly string[];
}

/** The allowed folders, each as written and as its real path (a folder that no longer exists is left out). */
async function allowedRoots(folders: readonly string[]): Promise<string[]> {
  const roots: string[] = [];
  for (const folder of folders) {
    if (!isAbsolute(folder)) continue;
    const real = await realpath(folder).catch(() => null);
    if (real === null) continue;
    roots.push(resolve(folder), real);
  }
  return roots;
}

function refuse(request: ScopeRequest, message: string): RpcError {
  return new RpcError(INVALID_PARAMS, `${request.method}: ${message}`);
}

/**
 * The real path of `input`, checked against the allowed folders (see the file's comment). The file
 * itself need not exist (autoexport.add may create it); its folder must. When it exists it must be a
 * regular file, not a link (so the path the user sees is the file written). Throws an RpcError
 * saying what is wrong and how to allow it.
 */
export async function scopedPath(input: unknown, request: ScopeRequest): Promise<string> {
  if (typeof input !== 'string' || input.trim() === '' || input.includes('\0') || !isAbsolute(input))
    throw refuse(request, `the path of ${request.what} must be an absolute path`);
  const path = resolve(input);
  const ext = extname(path).slice(1).toLowerCase();
  if (!request.extensions.includes(ext))
    throw refuse(
      request,
      `${request.what} must end in ${request.extensions.map((e) => `.${e}`).join(' or ')}, and ${basename(path)} does not`,
    );
  const roots = await allowedRoots(request.folders);
  if (roots.length === 0)
    throw refuse(request, `editors may not read or write files until you allow a folder: ${ALLOW_FOLDER_HINT}`);
  if (!roots.some((root) => within(root, path)))
    throw refuse(request, `${path} is not in a folder you allowed editors to use; ${ALLOW_FOLDER_HINT}`);
  // Inside an allowed folder: the disk may be looked at, and links resolved.
  const realDir = await realpath(dirname(path)).catch(() => null);
  if (realDir === null) throw refuse(request, `the folder of ${path} does not exist`);
  const real = join(realDir, basename(path));
  if (!roots.some((root) => within(root, real)))
    throw refuse(request, `${path} leads out of the folders you allowed editors to use (a symbolic link)`);
  const stat = await lstat(real).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw refuse(request, `${path} cannot be used (${err.code ?? err.message})`);
  });
  if (stat?.isSymbolicLink())
    throw refuse(request, `${path} is a symbolic link; name the file it leads to, inside an allowed folder`);
  if (stat && !stat.isFile()) throw refuse(request, `${path} is not a regular file`);
  return real;
}
