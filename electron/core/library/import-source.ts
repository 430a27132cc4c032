// One import from a source (a file, its bytes, or pasted text) into the library: parsed in the formats
// worker, streamed chunk by chunk into the library worker, committed there in one transaction. The
// thread that calls this only relays chunks, so it keeps answering the UI. Used by IPC and the CLI.
import type { CslItem } from '../../../shared/model/csl';
import type { ImportReport } from '../../../shared/ipc/library';
import { CoreError } from '../errors';
import { importInWorker, type ImportFormat, type ImportedItem, type WorkerSource } from '../formats';
import type { LibraryClient } from './client';

export interface ImportSourceOptions {
  /** For format detection by extension, for messages, and kept on each item as its source. */
  fileName?: string | undefined;
  format?: ImportFormat | undefined;
  signal?: AbortSignal | undefined;
  /** Entries parsed and stored so far. */
  onProgress?: ((stored: number) => void) | undefined;
}

/** Chunks handed from the parser's callback to the store's async iteration, in order. */
class ChunkChannel implements AsyncIterable<readonly CslItem[]> {
  readonly #queue: (readonly CslItem[])[] = [];
  #wake: (() => void) | null = null;
  #done = false;

  push(chunk: readonly CslItem[]): void {
    this.#queue.push(chunk);
    this.#signal();
  }

  end(): void {
    this.#done = true;
    this.#signal();
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<readonly CslItem[]> {
    for (;;) {
      const next = this.#queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.#done) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

/**
 * Imports one source. Entry problems (parser's and store's) are in the report with their lines; a
 * source that cannot be read as a whole throws (CoreError with the line when there is one) and leaves
 * the library untouched, as does cancelling.
 */
export async function importSource(client: LibraryClient, source: WorkerSource, options: ImportSourceOptions = {}): Promise<ImportReport> {
  const channel = new ChunkChannel();
  // Aborted when the source turns out unreadable midway, so the store rolls back what it already has.
  const failed = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, failed.signal]) : failed.signal;
  // Line and source key of every entry, by its index in the import: numbers and short strings only.
  const lines: number[] = [];
  const keys: (string | undefined)[] = [];
  const onItems = (chunk: ImportedItem[]): void => {
    for (const i of chunk) {
      lines.push(i.line);
      keys.push(i.sourceKey);
    }
    channel.push(chunk.map((i) => i.item));
  };
  const stored = client.importItems(channel, {
    ...(options.fileName ? { source: options.fileName } : {}),
    signal,
    ...(options.onProgress ? { onProgress: (done: number) => options.onProgress!(done) } : {}),
  });
  // The store's promise must not reject unobserved while the parser is still running.
  stored.catch(() => undefined);
  let parsed;
  try {
    parsed = await importInWorker(source, {
      onItems,
      ...(options.fileName ? { fileName: options.fileName } : {}),
      ...(options.format ? { format: options.format } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (err) {
    failed.abort();
    channel.end();
    await stored.catch(() => undefined);
    throw err;
  }
  channel.end();
  let result;
  try {
    result = await stored;
  } catch (err) {
    if (options.signal?.aborted) throw new CoreError('CANCELLED', 'The import was cancelled; nothing was added.');
    throw err;
  }
  const lineOf = (index: number): number => lines[index] ?? 0;
  const report: ImportReport = {
    format: parsed.format,
    entries: parsed.count,
    added: result.added,
    ids: result.ids,
    duplicates: result.duplicates.map((d) => {
      const key = keys[d.index];
      return { line: lineOf(d.index), ...(key ? { key } : {}), existingId: d.existingId, reason: d.reason };
    }),
    errors: [...parsed.errors.map((e) => ({ line: e.line, reason: e.reason, ...(e.excerpt ? { excerpt: e.excerpt } : {}) })), ...result.errors.map((e) => ({ line: lineOf(e.index), reason: e.reason }))],
    warnings: [...parsed.warnings.map((w) => ({ line: w.line, reason: w.reason })), ...result.warnings.map((w) => ({ line: lineOf(w.index), reason: w.message }))],
    dois: (parsed.dois ?? []).map((d) => d.doi),
  };
  report.errors.sort((a, b) => a.line - b.line);
  report.warnings.sort((a, b) => a.line - b.line);
  return report;
}
