// Storage faults: the disk holding the library is full (SQLITE_FULL, ENOSPC, EDQUOT) or failed to
// write (SQLITE_IOERR_*, EIO). SQLite rolls the transaction back by itself on some of these, so code
// that caught the error and went on would write outside any transaction: every write path stops at
// the first one, and the user reads one plain sentence instead of an SQLite message and a stack.
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

export function isStorageFault(err: unknown): boolean {
  return storageFaultCode(err) !== null;
}

/**
 * The error the user reads for a storage fault (`where`: the folder holding the library), or null when
 * `err` is not one. The write that met it was rolled back, so "nothing was changed" holds.
 */
export function storageFault(err: unknown, where: string): CoreError | null {
  if (err instanceof CoreError) return storageFaultCode(err) ? err : null;
  const fault = storageFaultCode(err);
  if (!fault) return null;
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
