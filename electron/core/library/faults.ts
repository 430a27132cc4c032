// Storage faults: the disk holding the library is full (SQLITE_FULL, ENOSPC, EDQUOT) or failed to
// write (SQLITE_IOERR_*, EIO). SQLite rolls the transaction back by itself on some of these, so code
// that caught the error and went on would write outside any transaction: every write path stops at
// the first one, and the user reads one plain sentence instead of an SQLite message and a stack.
// SQLite often meets a full disk as an I/O error (SQLITE_IOERR_SHMSIZE when the -shm file cannot grow,
// SQLITE_IOERR_WRITE, _FSYNC, _TRUNCATE, ...), never saying why: such an error on a disk with less than
// FULL_BELOW_BYTES left is told as the full disk it is, and SQLITE_IOERR_SHMSIZE always is (the one
// reason SQLite gives for it is a volume out of space).
import { statfsSync } from 'node:fs';
import { CoreError } from '../errors';

export type StorageFaultKind = 'full' | 'io';

/** SQLite's extended code or Node's errno of a storage fault, or null for any other error. */
export function storageFaultCode(err: unknown): { kind: StorageFaultKind; code: string } | null {
  if (err instanceof CoreError) {
    const d = err.details as { fault?: unknown; cause?: unknown } | undefined;
    if ((d?.fault === 'full' || d?.fault === 'io') && typeof d.cause === 'string')
      return { kind: d.fault, code: d.cause };
    return null;
  }
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG')
    return { kind: 'full', code };
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return { kind: 'io', code };
  return null;
}

/** An I/O error on a disk with less room than this left is a full disk (a WAL frame, a -shm page or a
 * journal write did not fit). */
export const FULL_BELOW_BYTES = 1024 * 1024;

/** The bytes an unprivileged writer may still use on the disk holding `where`, or null when unknown. */
function freeBytes(where: string): number | null {
  try {
    const fs = statfsSync(where);
    return fs.bavail * fs.bsize;
  } catch {
    return null;
  }
}

/** Whether an I/O fault met at `where` is the disk being full. */
function ioFaultIsFull(code: string, where: string): boolean {
  if (code === 'SQLITE_IOERR_SHMSIZE') return true;
  const free = freeBytes(where);
  return free !== null && free < FULL_BELOW_BYTES;
}

export function isStorageFault(err: unknown): boolean {
  return storageFaultCode(err) !== null;
}

/**
 * The error the user reads for a storage fault (`where`: the folder holding the library), or null when
 * `err` is not one. The write that met it was rolled back, so "nothing was changed" holds.
 */
export function storageFault(err: unknown, where: string): CoreError | null {
  if (err instanceof CoreError) return storageFaultCode(err) ? err : null;
  const found = storageFaultCode(err);
  if (!found) return null;
  const fault = found.kind === 'io' && ioFaultIsFull(found.code, where) ? { ...found, kind: 'full' as const } : found;
  const message =
    fault.kind === 'full'
      ? `The disk holding your library is full (${fault.code} in ${where}): nothing was changed. Free some space and try again.`
      : `The disk holding your library could not be written (${fault.code} in ${where}): nothing was changed. Check the disk and try again.`;
  return new CoreError('INTERNAL', message, { fault: fault.kind, cause: fault.code });
}

/** `err` as the storage-fault error when it is one, else unchanged (for a rethrow). */
export function asStorageFault(err: unknown, where: string): unknown {
  return storageFault(err, where) ?? err;
}
