// One import from a source (a file, its bytes, or pasted text) into the library: parsed in the formats
// worker, written by the library worker as the parser posts to it, committed there in one transaction.
// Used by IPC and the CLI.
import { basename } from 'node:path';
import type { ImportPreview, ImportReport } from '../../../shared/ipc/library';
import { nameText } from './derive';
import type { CslItem } from '../../../shared/model/csl';
import { titlesAsWritten } from '../formats/bibtex/as-written';
import { CoreError } from '../errors';
import type { ImportFormat, WorkerSource } from '../formats';
import type { ImportLimits } from '../formats/limits';
// Not from '../formats', which would load every parser into this thread: they run in the formats worker.
import { importInWorker, type WorkerImportResult } from '../formats/run-in-worker';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { LibraryClient, PortImportHandle } from './client';
import type { ImportIssue, ImportResult } from './types';
import type { SentenceCaseMode } from '../../../shared/model/settings';

export interface ImportSourceOptions {
  /** For format detection by extension, for messages, and kept on each item as its source. */
  fileName?: string | undefined;
  format?: ImportFormat | undefined;
  signal?: AbortSignal | undefined;
  /** The parser's limits (size, nesting, time); the defaults when omitted. */
  limits?: Partial<ImportLimits> | undefined;
  /** Entries parsed and stored so far. */
  onProgress?: ((stored: number) => void) | undefined;
  /** This source's parse, started earlier with the same options (startParse). */
  started?: StartedParse | undefined;
  /** This source's parse as its preview kept it (previewSource's `kept`); parsed again if the library no longer holds it. */
  kept?: KeptParse | undefined;
  /** BibTeX: what becomes of English Title Case titles (Settings → Import); 'protected' when omitted. */
  sentenceCase?: SentenceCaseMode | undefined;
}

/**
 * A parse already running in the formats worker, posting to `port` (the store's end, not yet read):
 * started before the library is open, so that reading the file overlaps the library worker's start.
 */
export interface StartedParse {
  port: MessagePort;
  parsed: Promise<WorkerImportResult>;
  /** Stops the parser (its worker is terminated); for a parse importSource will never be given. */
  abort(): void;
}

/**
 * A preview's parse, kept for the import that follows it: the entries wait in the library worker
 * (named by `name`), the parser's report here. The import writes them without reading the source again.
 */
export interface KeptParse {
  name: string;
  parsed: WorkerImportResult;
}

/**
 * Starts parsing `source` now, for importSource to store later (its `started` option). The parser
 * posts up to a few chunks and then waits for the store to read them (flow control in the formats
 * worker), so a library slow to open holds back the parser, not memory.
 */
export function startParse(
  source: WorkerSource,
  options: Omit<ImportSourceOptions, 'onProgress' | 'started'> = {},
): StartedParse {
  const { port1, port2 } = new MessageChannel();
  const stop = new AbortController();
  const parsed = importInWorker(source, {
    port: port1,
    signal: options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal,
    ...(options.fileName ? { fileName: options.fileName } : {}),
    ...(options.format ? { format: options.format } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.sentenceCase ? { sentenceCase: options.sentenceCase } : {}),
  });
  // Awaited by importSource; one that never gets there (the library did not open) was aborted.
  parsed.catch(() => undefined);
  return {
    port: port2,
    parsed,
    abort: () => {
      stop.abort();
      port2.close();
    },
  };
}

/**
 * Imports one source. Entry problems (parser's and store's) are in the report with their lines; a
 * source that cannot be read as a whole throws (CoreError with the line when there is one) and leaves
 * the library untouched, as does cancelling. The parser posts its items straight to the library
 * worker, which writes them as they come (one transaction): this thread never holds them.
 */
export async function importSource(
  client: LibraryClient,
  source: WorkerSource,
  options: ImportSourceOptions = {},
): Promise<ImportReport> {
  const name = options.fileName ? { source: basename(options.fileName) } : {};
  const fromKept = options.kept ? await client.importFromKept({ ...name, kept: options.kept.name }) : null;
  // Not kept (or no longer): parsed now, or already being parsed (startParse).
  const parse = fromKept ? null : (options.started ?? startParse(source, options));
  let feed: Omit<PortImportHandle, 'port'>;
  if (fromKept) feed = fromKept;
  else
    try {
      feed = await client.importFromPort({ port: parse!.port, ...name });
    } catch (err) {
      parse!.abort();
      throw err;
    }
  let parsed: WorkerImportResult;
  try {
    parsed = parse ? await parse.parsed : options.kept!.parsed;
    options.onProgress?.(parsed.count);
    if (options.signal?.aborted) throw new CoreError('CANCELLED', 'The import was cancelled; nothing was added.');
  } catch (err) {
    await feed.abort();
    if (options.signal?.aborted) throw new CoreError('CANCELLED', 'The import was cancelled; nothing was added.');
    throw err;
  }
  const result: ImportResult = await feed.commit();
  const report: ImportReport = {
    format: parsed.format,
    entries: entriesIn(parsed),
    added: result.added,
    ids: result.ids,
    duplicates: result.duplicates.map((d) => ({
      line: d.line,
      ...(d.sourceKey ? { key: d.sourceKey } : {}),
      existingId: d.existingId,
      ...(d.existingKey ? { existingKey: d.existingKey } : {}),
      reason: d.reason,
    })),
    errors: [...parsed.errors.map(reported), ...result.errors.map(reported)],
    warnings: [...parsed.warnings.map(reported), ...result.warnings.map(reported)],
    dois: (parsed.dois ?? []).map((d) => d.doi),
    ...(parsed.titlesCased ? { titlesCased: parsed.titlesCased } : {}),
  };
  report.errors.sort((a, b) => a.line - b.line);
  report.warnings.sort((a, b) => a.line - b.line);
  return report;
}

/** The title as the file wrote it, when the import stored it in sentence case (for the preview to show). */
function writtenTitle(item: CslItem): { titleAsWritten?: string } {
  const written = titlesAsWritten(item)['title'];
  return written === undefined ? {} : { titleAsWritten: written };
}

/** An issue as the report carries it: the store's entry index and source key stay behind. */
function reported({ line, reason, excerpt }: ImportIssue): ImportIssue {
  return excerpt ? { line, reason, excerpt } : { line, reason };
}

/** The entries a source held: those read (items, or a DOI list's DOIs) and those that could not be. */
export function entriesIn(
  parsed: Pick<Awaited<ReturnType<typeof importInWorker>>, 'count' | 'errors' | 'dois'>,
): number {
  return parsed.count + (parsed.dois?.length ?? 0) + parsed.errors.length;
}

/**
 * What importing `source` would do, without writing: the entry counts, the first `sample` entries,
 * which of them the library holds already, and the problems. The parser (formats worker) posts every
 * entry to the library worker, which matches them against the library; only the sample and the counts
 * come back to this thread, however large the file.
 */
export async function previewSource(
  client: LibraryClient,
  source: WorkerSource,
  options: Omit<ImportSourceOptions, 'onProgress' | 'started' | 'kept'> & {
    sample: number;
    /** Keep the parse for the import (the answer's `kept`) while its entries take at most this many bytes. */
    keep?: number | undefined;
  },
): Promise<ImportPreview & { kept?: KeptParse }> {
  const { port, matches } = client.previewFromPort({
    source: options.fileName ? basename(options.fileName) : undefined,
    sample: options.sample,
    keep: options.keep,
  });
  // A failed parse closes the port, which rejects `matches` before the parse's own error arrives: that one is the news.
  matches.catch(() => undefined);
  let parsed: Awaited<ReturnType<typeof importInWorker>>;
  try {
    parsed = await importInWorker(source, {
      port,
      sample: options.sample,
      ...(options.fileName ? { fileName: options.fileName } : {}),
      ...(options.format ? { format: options.format } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.sentenceCase ? { sentenceCase: options.sentenceCase } : {}),
    });
  } catch (err) {
    // The port was never handed over when the worker did not start: closing it ends the reader.
    port.close();
    throw err;
  }
  const same = await matches;
  return {
    format: parsed.format,
    entries: entriesIn(parsed),
    sample: parsed.items.map(({ item, line }, n) => ({
      line,
      type: item.type,
      title: typeof item.title === 'string' ? item.title : null,
      creators: (item.author ?? item.editor ?? []).map(nameText).join('; ') || null,
      year: item.issued?.['date-parts']?.[0]?.[0] ?? null,
      doi: typeof item.DOI === 'string' ? item.DOI : null,
      duplicateOf: same.sample[n] ?? null,
      ...writtenTitle(item),
    })),
    ...(parsed.titlesCased ? { titlesCased: parsed.titlesCased } : {}),
    duplicates: same.duplicates,
    errors: parsed.errors.map(reported),
    warnings: parsed.warnings.map(reported),
    dois: (parsed.dois ?? []).map((d) => d.doi),
    ...(same.kept ? { kept: { name: same.kept, parsed: { ...parsed, items: [] } } } : {}),
  };
}
