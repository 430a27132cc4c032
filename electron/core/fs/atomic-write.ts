// Replacing a file so that readers see the old content or the new, never a part: write a temporary
// file in the same directory (a rename is atomic only within one file system), fsync it, rename it
// over the target, then fsync the directory so the rename itself survives a crash. On any failure the
// temporary file is removed and the target is left as it was.
import * as nodeFs from 'node:fs';
import { copyFile, open, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** The file-system calls the write needs: a platform edge that tests replace to fail at any step. */
export interface AtomicWriteFs {
  openSync(path: string, flags: string, mode?: number): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { force: boolean }): void;
  statSync(path: string, options: { throwIfNoEntry: false }): { mode: number; isDirectory(): boolean } | undefined;
}

export const nodeAtomicFs: AtomicWriteFs = {
  openSync: (p, f, m) => nodeFs.openSync(p, f, m),
  writeSync: (fd, b, o, l) => nodeFs.writeSync(fd, b, o, l),
  fsyncSync: (fd) => nodeFs.fsyncSync(fd),
  closeSync: (fd) => nodeFs.closeSync(fd),
  renameSync: (a, b) => nodeFs.renameSync(a, b),
  rmSync: (p, o) => nodeFs.rmSync(p, o),
  statSync: (p, o) => nodeFs.statSync(p, o),
};

/** The name of a temporary file beside `target`: hidden, and recognisable as ours. */
export function tempNameFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Writes `data` to `target` atomically; throws the file system's error after cleaning up. */
export function writeFileAtomic(path: string, data: string | Uint8Array, fs: AtomicWriteFs = nodeAtomicFs): void {
  // Through a symbolic link, the file it points to is replaced (a link into a synced folder stays a link).
  let target = path;
  try {
    target = nodeFs.realpathSync(path);
  } catch {
    // Not there yet (or a dangling link): written where it was asked for.
  }
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  // The new file keeps the permissions the user gave the old one.
  const mode = fs.statSync(target, { throwIfNoEntry: false })?.mode;
  const temp = tempNameFor(target);
  let fd: number | null = null;
  try {
    fd = fs.openSync(temp, 'wx', mode === undefined ? 0o666 : mode & 0o7777);
    for (let off = 0; off < bytes.length;) off += fs.writeSync(fd, bytes, off, Math.min(bytes.length - off, 1 << 20));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(temp, target);
  } catch (err) {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already failing; the removal below matters more.
      }
    }
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // Nothing more can be done; the error below says what went wrong.
    }
    throw err;
  }
  syncDirectory(dirname(target), fs);
}

/** Flushes a file that was written by other means (SQLite's VACUUM INTO, a copy) to the disk. */
export function syncFile(path: string, fs: AtomicWriteFs = nodeAtomicFs): void {
  const fd = fs.openSync(path, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes a rename or a new file in `dir` durable; best effort where folders cannot be opened. */
export function syncDirectory(dir: string, fs: AtomicWriteFs = nodeAtomicFs): void {
  // Not supported everywhere (Windows cannot open a directory); the data is already durable there.
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Best effort.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** The file-system calls of the asynchronous write (node:fs/promises by default); tests replace them to fail or wait at any step. */
export interface AtomicWriteFsAsync {
  realpath(path: string): Promise<string>;
  stat(path: string): Promise<{ mode: number }>;
  open(path: string, flags: string, mode?: number): Promise<Pick<FileHandle, 'writeFile' | 'sync' | 'close'>>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: boolean }): Promise<void>;
}

export const nodeAtomicFsAsync: AtomicWriteFsAsync = { realpath, stat, open, rename, rm };

/**
 * writeFileAtomic without holding the calling thread: the writes and the fsyncs run on libuv's
 * threads, so a large file or a slow disk does not stall the thread that answers the UI.
 */
export async function writeFileAtomicAsync(
  path: string,
  data: Uint8Array,
  fs: AtomicWriteFsAsync = nodeAtomicFsAsync,
): Promise<void> {
  const target = await fs.realpath(path).catch(() => path);
  const mode = (await fs.stat(target).catch(() => undefined))?.mode;
  const temp = tempNameFor(target);
  let handle: Awaited<ReturnType<AtomicWriteFsAsync['open']>> | null = null;
  try {
    handle = await fs.open(temp, 'wx', mode === undefined ? 0o666 : mode & 0o7777);
    await handle.writeFile(data);
    await handle.sync();
    const closing = handle;
    handle = null;
    await closing.close();
    await fs.rename(temp, target);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
  await syncDirectoryAsync(dirname(target), fs);
}

async function syncDirectoryAsync(dir: string, fs: Pick<AtomicWriteFsAsync, 'open'>): Promise<void> {
  // Best effort, as in syncDirectory.
  const handle = await fs.open(dir, 'r').catch(() => null);
  if (handle) {
    await handle.sync().catch(() => undefined);
    await handle.close().catch(() => undefined);
  }
}

/**
 * Copies `from` to a new file `to` as writeFileAtomicAsync writes one (a temporary file, fsync, rename,
 * fsync of the folder), the bytes copied by the OS on libuv's threads and never held by the calling
 * thread. `to` must not exist yet.
 */
export async function copyFileAtomicAsync(from: string, to: string): Promise<void> {
  const temp = tempNameFor(to);
  try {
    await copyFile(from, temp, nodeFs.constants.COPYFILE_EXCL);
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, to);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
  await syncDirectoryAsync(dirname(to), nodeAtomicFsAsync);
}
