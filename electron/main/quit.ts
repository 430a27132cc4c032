// Quitting: Electron ends the process as soon as 'will-quit' returns, which would cut off the core's
// close (the auto-export of the last edit, the library worker's checkpoint). The handler holds the
// quit until the core has closed, then exits. A close that never ends must not leave an invisible
// process holding the library's single-instance lock, so after `timeoutMs` it exits anyway, with 1.

export interface QuitOptions {
  /** Disposes what must stop first (the IPC bridge), then closes the core. */
  close(): Promise<void>;
  exit(code: number): void;
  timeoutMs: number;
  onError(message: string, err?: unknown): void;
}

export const QUIT_TIMEOUT_MS = 60_000;

/** The 'will-quit' listener. */
export function holdQuitUntilClosed(options: QuitOptions): (event: { preventDefault(): void }) => void {
  let closing = false;
  return (event) => {
    event.preventDefault();
    if (closing) return;
    closing = true;
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.exit(code);
    };
    const timer = setTimeout(() => {
      options.onError(`closing the library took longer than ${options.timeoutMs / 1000} s; quitting without waiting`);
      finish(1);
    }, options.timeoutMs);
    Promise.resolve()
      .then(() => options.close())
      .then(
        () => finish(0),
        (err: unknown) => {
          options.onError('closing the library failed', err);
          finish(1);
        },
      );
  };
}
