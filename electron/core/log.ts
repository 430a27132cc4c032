export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
}

/** Logs to stderr; what reaches a log line is the caller's choice, and secrets never are. */
export const stderrLogger: Logger = {
  info: (m) => process.stderr.write(`[citewise] ${m}\n`),
  warn: (m) => process.stderr.write(`[citewise] warning: ${m}\n`),
  error: (m, err) =>
    process.stderr.write(`[citewise] error: ${m}${err instanceof Error ? `: ${err.stack ?? err.message}` : ''}\n`),
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
