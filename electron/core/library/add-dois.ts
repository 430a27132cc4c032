// Adding papers by DOI: metadata from the service, stored through the library's one import path (one
// transaction, the same duplicate checks), the service's answers cached so the items show their
// evidence at once. When the service cannot be reached, the DOIs are kept as placeholder items that
// the enrichment job completes later, so a pasted list is never lost to a bad connection.
import type { AddDoisReport } from '../../../shared/ipc/library';
import type { CslItem } from '../../../shared/model/csl';
import { parseDoi } from '../../../shared/model/doi';
import type { EvidenceCounts } from '../../../shared/model/evidence';
import type { BulkResult, UiPaper } from '../../../shared/model/service';
import { doiPlaceholder, paperToCsl } from '../formats';
import type { LibraryClient } from './client';

/** What adding by DOI needs of the service client. */
export interface PaperSource {
  papers(dois: Iterable<string>, options?: { signal?: AbortSignal }): Promise<BulkResult<UiPaper>>;
}

/** Failures that say nothing about the DOI, only about reaching the service now. */
export const TRANSIENT: ReadonlySet<string> = new Set(['OFFLINE', 'TIMEOUT', 'RATE_LIMITED', 'SERVICE_ERROR']);

/** The metadata of a paper, without the tallies (evidence lives in the cache, not in the item). */
export function metadataOf(paper: UiPaper): Parameters<typeof paperToCsl>[0] {
  const { tally, citingTally, ...metadata } = paper;
  void tally;
  void citingTally;
  return metadata;
}

/** Keeps the service's answers (papers, unknown DOIs, tallies) in the cache, so items show their evidence at once. */
export async function cachePapers(
  library: { serviceCache: Pick<LibraryClient['serviceCache'], 'putPapers' | 'putTallies'> },
  result: Pick<BulkResult<UiPaper>, 'found' | 'unknown'>,
): Promise<void> {
  const tallies: Record<string, EvidenceCounts> = {};
  for (const [doi, paper] of Object.entries(result.found)) if (paper.tally) tallies[doi] = paper.tally;
  if (Object.keys(result.found).length > 0 || result.unknown.length > 0)
    await library.serviceCache.putPapers({ found: result.found, unknown: result.unknown });
  if (Object.keys(tallies).length > 0) await library.serviceCache.putTallies({ found: tallies });
}

export interface AddDoisOptions {
  signal?: AbortSignal | undefined;
  /** Keep DOIs the service could not be asked about as placeholders (default true). */
  queueWhenUnreachable?: boolean;
  /** Kept on each item as where it came from. */
  source?: string;
  /**
   * What an item gets besides the service's metadata (or a placeholder's DOI), by its normalised DOI:
   * an arXiv paper's number and link (add-identifiers.ts).
   */
  decorate?: (doi: string, item: CslItem, found: boolean) => CslItem;
}

export interface AddDoisResult extends AddDoisReport {
  /** Every item added (fetched or queued). */
  ids: number[];
}

export async function addDois(
  library: LibraryClient,
  service: PaperSource,
  inputs: readonly string[],
  options: AddDoisOptions = {},
): Promise<AddDoisResult> {
  const report: AddDoisResult = { added: [], duplicates: [], notAdded: [], queued: [], ids: [] };
  const valid: string[] = [];
  for (const input of inputs) {
    const parsed = parseDoi(input);
    if (!parsed.ok) report.notAdded.push({ doi: input, reason: `not a DOI: ${parsed.reason}`, code: 'INVALID_INPUT' });
    else if (!valid.includes(parsed.doi)) valid.push(parsed.doi);
  }
  if (valid.length === 0) return report;
  const result = await service.papers(valid, options.signal ? { signal: options.signal } : {});
  for (const doi of result.unknown)
    report.notAdded.push({ doi, reason: 'the citation service does not know this DOI', code: 'NOT_FOUND' });
  for (const i of result.invalid)
    report.notAdded.push({ doi: i.input, reason: `not a DOI: ${i.reason}`, code: 'INVALID_INPUT' });
  const queue = options.queueWhenUnreachable !== false;
  const pending = new Set<string>();
  for (const f of result.failed) {
    for (const doi of f.ids) {
      if (queue && TRANSIENT.has(f.error.code)) pending.add(doi);
      else report.notAdded.push({ doi, reason: `the lookup failed: ${f.error.message}`, code: f.error.code });
    }
  }
  await cachePapers(library, result);

  const toStore = valid.filter((d) => result.found[d] !== undefined || pending.has(d));
  if (toStore.length === 0) return report;
  const items: CslItem[] = toStore.map((d) => {
    const found = result.found[d] !== undefined;
    const item = found ? paperToCsl(metadataOf(result.found[d]!)) : doiPlaceholder(d as never);
    return options.decorate ? options.decorate(d, item, found) : item;
  });
  const stored = await library.importItems(items, {
    source: options.source ?? 'doi',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const dup = new Map(stored.duplicates.map((d) => [d.index, d.existingId]));
  const failed = new Map(stored.errors.map((e) => [e.index, e.reason]));
  const keys = await library.lib.cslOf(stored.ids);
  let next = 0;
  for (const [index, doi] of toStore.entries()) {
    if (dup.has(index)) report.duplicates.push({ doi, existingId: dup.get(index)! });
    else if (failed.has(index)) report.notAdded.push({ doi, reason: failed.get(index)! });
    else {
      const id = stored.ids[next]!;
      const citationKey = String(keys[next]?.['citation-key'] ?? '');
      next++;
      if (pending.has(doi)) report.queued.push({ doi, id });
      else report.added.push({ doi, id, citationKey });
    }
  }
  report.ids = stored.ids;
  return report;
}
