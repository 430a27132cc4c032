import type { ErrorCode, IpcError } from '../../shared/ipc';

/** An error a handler means to report: it crosses IPC as `{ code, message, details }`. */
export class CoreError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'CoreError';
    this.code = code;
    this.details = details;
  }
}

/**
 * Turns anything thrown into IPC error data. Unexpected errors become INTERNAL with a generic message:
 * their text can carry paths or secrets, so it goes to the log (through `report`), never to the renderer.
 */
export function toIpcError(err: unknown, report: (err: unknown) => void): IpcError {
  if (err instanceof CoreError) {
    return err.details === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, details: err.details };
  }
  if (err instanceof Error && err.name === 'AbortError') {
    return { code: 'CANCELLED', message: 'The operation was cancelled.' };
  }
  report(err);
  return { code: 'INTERNAL', message: 'Citewise hit an unexpected error; details are in the log.' };
}
