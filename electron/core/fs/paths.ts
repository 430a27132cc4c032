// Checks of paths the user types (or a dialog returns) before the core stores or uses them: each
// failure says what is wrong and where, as a CoreError the renderer shows as is.
import { constants, createReadStream } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename, dirname, extname, isAbsolute, relative, resolve } from 'node:path';
import { CoreError } from '../errors';
import { refuseDataFolderTarget } from './data-folder-guard';

function requireAbsolute(path: string, what: string): string {
  const trimmed = path.trim();
  if (trimmed === '') throw new CoreError('INVALID_INPUT', `The path of ${what} is empty.`);
  if (trimmed.includes('\0')) throw new CoreError('INVALID_INPUT', `The path of ${what} contains a NUL character.`);
  if (!isAbsolute(trimmed))
    throw new CoreError(
      'INVALID_INPUT',
      `The path of ${what} must be a full path from the root of the disk (got "${trimmed}").`,
    );
  return resolve(trimmed);
}

/** True when `child` is `parent` or lies inside it. */
function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function realOrSelf(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

export interface WritableTargetOptions {
  /** Extensions the file may have, without the dot (the first is the one suggested). */
  extensions: readonly string[];
  /** What the format is called, for the message about the extension. */
  formatLabel: string;
  /** A folder the file must not be in (Citewise's data folder: its library, backups and caches). */
  forbiddenDir?: string;
}

/**
 * A file the core is to write again and again (an auto-export): absolute, with an extension that fits
 * its format, in an existing folder Citewise may write to, not a folder itself, and not inside the
 * app's data folder. Returns the normalised path.
 */
export async function checkWritableTarget(input: string, options: WritableTargetOptions): Promise<string> {
  const path = requireAbsolute(input, 'the file to write');
  const ext = extname(path).slice(1).toLowerCase();
  if (!options.extensions.includes(ext)) {
    const wanted = options.extensions.map((e) => `.${e}`).join(' or ');
    throw new CoreError(
      'INVALID_INPUT',
      `A ${options.formatLabel} file ends in ${wanted}, but "${basename(path)}" ${ext ? `ends in .${ext}` : 'has no extension'}.`,
    );
  }
  const dir = dirname(path);
  const dirStat = await stat(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR')
      throw new CoreError('NOT_FOUND', `The folder ${dir} does not exist; create it first or choose another one.`);
    if (err.code === 'EACCES' || err.code === 'EPERM')
      throw new CoreError('FORBIDDEN', `Citewise is not allowed to look into ${dir}.`);
    throw new CoreError('INVALID_INPUT', `The folder ${dir} cannot be used: ${err.message}`);
  });
  if (!dirStat.isDirectory()) throw new CoreError('INVALID_INPUT', `${dir} is a file, not a folder.`);
  await access(dir, constants.W_OK).catch(() => {
    throw new CoreError('FORBIDDEN', `Citewise is not allowed to write in ${dir}.`);
  });
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory())
    throw new CoreError('CONFLICT', `${path} is a folder; give the name of a file inside it.`);
  if (existing && existing.isFile()) {
    await access(path, constants.W_OK).catch(() => {
      throw new CoreError('FORBIDDEN', `${path} exists and Citewise is not allowed to replace it.`);
    });
  }
  // Where the write would really land (through links, hard links too): never the data folder.
  if (options.forbiddenDir !== undefined) refuseDataFolderTarget(path, options.forbiddenDir);
  return path;
}

export interface ReadableFile {
  path: string;
  size: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
  mtimeMs: number;
}

function readProblem(err: NodeJS.ErrnoException, path: string): CoreError {
  switch (err.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new CoreError('NOT_FOUND', `There is no file at ${path}.`);
    case 'EACCES':
    case 'EPERM':
      return new CoreError('FORBIDDEN', `Citewise is not allowed to read ${path}.`);
    case 'EISDIR':
      return new CoreError('INVALID_INPUT', `${path} is a folder, not a file.`);
    default:
      return new CoreError('INVALID_INPUT', `${path} cannot be read: ${err.message}`);
  }
}

/** Streams a file through SHA-256 (never holding it in memory), with its size; throws a CoreError saying why it cannot. */
export async function hashFile(input: string, what = 'the file'): Promise<ReadableFile> {
  const path = requireAbsolute(input, what);
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    throw readProblem(err, path);
  });
  if (info.isDirectory()) throw new CoreError('INVALID_INPUT', `${path} is a folder, not a file.`);
  if (!info.isFile()) throw new CoreError('INVALID_INPUT', `${path} is not a regular file.`);
  const hash = createHash('sha256');
  await new Promise<void>((done, fail) => {
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => done())
      .on('error', (err: NodeJS.ErrnoException) => fail(readProblem(err, path)));
  });
  return { path, size: info.size, sha256: hash.digest('hex'), mtimeMs: info.mtimeMs };
}

/**
 * A folder the core is to read again and again (the watched folder): absolute, existing, a folder,
 * one Citewise may list and read, and not inside the app's data folder (its copies of PDFs live
 * there, so watching it would capture them again). Returns the normalised path.
 */
export async function checkReadableFolder(input: string, options: { forbiddenDir?: string } = {}): Promise<string> {
  const path = requireAbsolute(input, 'the folder');
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR')
      throw new CoreError('NOT_FOUND', `The folder ${path} does not exist.`);
    if (err.code === 'EACCES' || err.code === 'EPERM')
      throw new CoreError('FORBIDDEN', `Citewise is not allowed to look into ${path}.`);
    throw new CoreError('INVALID_INPUT', `The folder ${path} cannot be used: ${err.message}`);
  });
  if (!info.isDirectory()) throw new CoreError('INVALID_INPUT', `${path} is a file, not a folder.`);
  await access(path, constants.R_OK | constants.X_OK).catch(() => {
    throw new CoreError('FORBIDDEN', `Citewise is not allowed to read the folder ${path}.`);
  });
  if (options.forbiddenDir !== undefined) {
    const [real, realForbidden] = await Promise.all([realOrSelf(path), realOrSelf(resolve(options.forbiddenDir))]);
    if (within(realForbidden, real)) {
      throw new CoreError(
        'INVALID_INPUT',
        `${path} is inside Citewise's own data folder (${options.forbiddenDir}), where it keeps its copies of PDFs; choose a folder of your own.`,
      );
    }
  }
  return path;
}
