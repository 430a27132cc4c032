// Limits every parser runs under, so a hostile or broken file costs bounded time and memory and ends
// in a clear message instead of a hang or a crash.
import { CoreError } from '../errors';

export interface ImportLimits {
  /** Largest file or paste accepted, in bytes. */
  maxBytes: number;
  /** Longest single field value, in characters; a longer one rejects its entry. */
  maxFieldLength: number;
  /** Deepest brace (BibTeX) or bracket (JSON) nesting; deeper rejects the entry or file. */
  maxDepth: number;
  /** Most entries in one file. */
  maxEntries: number;
  /** Wall-time budget of one parse, in milliseconds. */
  timeBudgetMs: number;
}

export const DEFAULT_LIMITS: ImportLimits = {
  maxBytes: 256 * 1024 * 1024,
  maxFieldLength: 1_000_000,
  maxDepth: 64,
  maxEntries: 2_000_000,
  timeBudgetMs: 60_000,
};

export function resolveLimits(partial?: Partial<ImportLimits>): ImportLimits {
  return { ...DEFAULT_LIMITS, ...stripUndefined(partial ?? {}) };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * A problem that stops the whole file (too large, not text, over the time budget, not parseable at all).
 * Entry-level problems never throw: they go to `errors` with their line.
 */
export class FormatError extends CoreError {
  readonly line: number;
  constructor(message: string, line = 0) {
    super('INVALID_INPUT', line > 0 ? `Line ${line}: ${message}` : message, line > 0 ? { line } : undefined);
    this.name = 'FormatError';
    this.line = line;
  }
}

/** A time budget as a person reads it: "60 s", "1.5 s", "200 ms". */
export function formatBudget(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${ms} ms`;
}

/** What a user reads when a parse ran over its time limit, naming the file (or the pasted text). */
export function timeLimitMessage(budgetMs: number, fileName?: string): string {
  const what = fileName ? `Reading ${fileName}` : 'Reading the pasted text';
  return `${what} took longer than the import time limit of ${formatBudget(budgetMs)} and was stopped; nothing was imported. Split it into smaller files and import them one by one.`;
}

/** A parse stopped by its Deadline: still INVALID_INPUT in the same thread, TIMEOUT from the worker. */
export class TimeLimitError extends FormatError {
  readonly budgetMs: number;
  constructor(budgetMs: number, line: number) {
    super(
      `Parsing took longer than ${formatBudget(budgetMs)} and was stopped; nothing was imported. Split the file or raise the time limit.`,
      line,
    );
    this.name = 'TimeLimitError';
    this.budgetMs = budgetMs;
  }
}

/** Checked every few entries: cheap enough for the hot loop, frequent enough to stop within the budget. */
export class Deadline {
  private readonly end: number;
  private readonly budgetMs: number;
  constructor(budgetMs: number) {
    this.budgetMs = budgetMs;
    this.end = performance.now() + budgetMs;
  }
  check(line: number): void {
    if (performance.now() > this.end) throw new TimeLimitError(this.budgetMs, line);
  }
}
