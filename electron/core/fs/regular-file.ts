// Reading a file the user (or a program) names, without trusting what the name leads to: it is opened
// non-blocking, so a pipe with no writer is refused instead of waited on forever; its kind is checked
// on the open descriptor, so /dev/zero (size 0, endless) or a link to it is refused as the device it
// is; its size is checked before a byte is read, and reading stops at the limit even when the file
// grows meanwhile (a sparse file, a log being written). Import, the manuscript check and the editor
// API's .aux scan all read files this way.
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** Why a path could not be read as a regular file of at most the size allowed. */
export type FileProblem =
  | { kind: 'loop' | 'permission' | 'folder' }
  | { kind: 'not-regular'; what: string }
  | { kind: 'too-large'; size: number; max: number };

/** Turns a problem into the error the caller throws (each caller words its own). */
export type FileProblemError = (problem: FileProblem) => Error;

/** What a path is when it is not a regular file, for the message that refuses it. */
export function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a pipe (FIFO)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Opens `path` for reading if it is a regular file of at most `maxBytes`; the caller closes the fd.
 * Other open errors (ENOENT…) are thrown as they are.
 */
export function openRegularFile(path: string, maxBytes: number, fail: FileProblemError): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw fail({ kind: 'loop' });
    if (code === 'EACCES' || code === 'EPERM') throw fail({ kind: 'permission' });
    if (code === 'EISDIR') throw fail({ kind: 'folder' });
    // Anything else (ENOENT above all) is the caller's to word: it knows whether a missing file is news.
    throw err;
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    throw fail(stat.isDirectory() ? { kind: 'folder' } : { kind: 'not-regular', what: kindOf(stat) });
  }
  if (stat.size > maxBytes) {
    closeSync(fd);
    throw fail({ kind: 'too-large', size: stat.size, max: maxBytes });
  }
  return { fd, size: stat.size };
}

/** The file's bytes, read to its end but never past `maxBytes` (a file that grows while read is stopped there). */
export function readCapped(fd: number, maxBytes: number, sizeHint: number, fail: FileProblemError): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(sizeHint, 64 * 1024) + 1, maxBytes + 1));
  let got = 0;
  for (;;) {
    if (got === buffer.length) {
      if (buffer.length > maxBytes) throw fail({ kind: 'too-large', size: got, max: maxBytes });
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(bigger, 0, 0, got);
      buffer = bigger;
    }
    const n = readSync(fd, buffer, got, buffer.length - got, null);
    if (n === 0) break;
    got += n;
  }
  if (got > maxBytes) throw fail({ kind: 'too-large', size: got, max: maxBytes });
  return buffer.subarray(0, got);
}

/** A regular file's bytes, at most `maxBytes` of them; anything else is refused through `fail`. */
export function readRegularFile(path: string, maxBytes: number, fail: FileProblemError): Buffer {
  const { fd, size } = openRegularFile(path, maxBytes, fail);
  try {
    return readCapped(fd, maxBytes, size, fail);
  } finally {
    closeSync(fd);
  }
}
