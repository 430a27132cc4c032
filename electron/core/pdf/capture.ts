// Capturing PDFs: each file becomes an item with the PDF attached (copied into the library folder,
// content-addressed by SHA-256, or linked where it is) and the evidence of how it was identified.
// The PDF is read in a worker (run-in-worker.ts) with a size cap, a page cap and a time limit; the
// service gives the metadata by DOI, or finds the paper by its first page's title. Offline, a DOI
// becomes a placeholder that enrichment completes (titled meanwhile from the PDF, the title marked
// provisional), and a PDF without one waits as "pending" until its title can be searched
// (pending-captures.ts runs the search when the service is back).
// Every file gets a line in the report; a file that fails leaves nothing behind.
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { CslItem } from '../../../shared/model/csl';
import type { NormalizedDoi } from '../../../shared/model/doi';
import type { CaptureCandidate, CaptureEvidence, CaptureMethod, CaptureState } from '../../../shared/model/pdf-capture';
import type { BulkResult, UiPaper } from '../../../shared/model/service';
import { CoreError } from '../errors';
import { doiPlaceholder, paperToCsl } from '../formats';
import { copyFileAtomicAsync } from '../fs/atomic-write';
import { cachePapers, metadataOf, TRANSIENT, type PaperSource } from '../library/add-dois';
import { asStorageFault } from '../library/faults';
import type { CaptureInput, CaptureStored, TitleSearchOutcome } from '../library/capture-store';
import type { AsyncLibrary, AsyncStore } from '../library/client';
import type { ServiceClient } from '../service/client';
import type { PdfFacts } from './extract';
import { identifyById, judgeTitleHits, type TitleHit } from './identify';
import { PdfReader } from './run-in-worker';

/** What capture needs of the service: papers by DOI, and the paper search by title. */
export interface CaptureService extends PaperSource {
  searchTitle(title: string, options: { signal?: AbortSignal }): Promise<TitleHit[]>;
}

/** The capture's view of the real client. */
export function captureServiceOf(client: Pick<ServiceClient, 'papers' | 'search'>): CaptureService {
  return {
    papers: (dois, options) => client.papers(dois, options),
    async searchTitle(title, options) {
      for await (const page of client.search({ title, limit: 5 }, { ...options, pageSize: 5, maxResults: 5 })) {
        return page.hits.flatMap((h) =>
          h.doi && h.title
            ? [
                {
                  doi: h.doi,
                  title: h.title,
                  authors: (h.authors ?? []).map((a) => a.authorName ?? '').filter((n) => n !== ''),
                },
              ]
            : [],
        );
      }
      return [];
    },
  };
}

export interface CaptureLimits {
  /** Larger files are refused. */
  maxBytes: number;
  /** Pages read for identifiers (the first ones). */
  maxPages: number;
  /** Per file: reading it is stopped after this long. */
  timeLimitMs: number;
}

export const DEFAULT_CAPTURE_LIMITS: CaptureLimits = { maxBytes: 200 * 1024 * 1024, maxPages: 3, timeLimitMs: 30_000 };

export interface CaptureOptions {
  /** Copy the PDF into `storeDir` (content-addressed) or link it where it is. */
  mode: 'copy' | 'link';
  /** The library's attachment folder (copy mode). */
  storeDir: string;
  limits?: Partial<CaptureLimits>;
  signal?: AbortSignal;
  /** Called after each file. */
  onFile?: (report: CaptureFileReport, done: number, total: number) => void;
  /**
   * The item the files belong to (a Zotero Connector save brings the item and then its PDF): each is
   * checked, read and stored as any capture, and attached to it instead of being identified.
   */
  into?: { itemId: number; source: string };
}

export interface CaptureDeps {
  library: {
    lib: Pick<AsyncLibrary, 'attachmentBySha256' | 'capturePdf'>;
    serviceCache: Pick<AsyncStore<'serviceCache'>, 'putPapers' | 'putTallies'>;
  };
  /** Null: no service (offline, or no key). */
  service: CaptureService | null;
  /** A reader to reuse (closed by its owner); one is made and closed per call otherwise. */
  reader?: PdfReader;
}

export type CaptureFileReport =
  | {
      file: string;
      status: Exclude<CaptureStored['status'], 'duplicate'>;
      itemId: number;
      attachmentId: number;
      state: CaptureState;
      method: CaptureMethod;
      confidence: number;
      doi: string | null;
      title: string | null;
      candidates: CaptureCandidate[];
      evidence: CaptureEvidence[];
    }
  | { file: string; status: 'duplicate'; itemId: number; reason: 'checksum' | 'doi' | 'title' | 'key-title' }
  | { file: string; status: 'failed'; code: 'NOT_FOUND' | 'INVALID_INPUT' | 'TIMEOUT' | 'FORBIDDEN'; message: string };

/** Whether a service failure says only that it cannot be asked now (so the work waits, not fails). */
function cannotAskNow(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code !== undefined && (TRANSIENT.has(code) || code === 'UNAUTHORIZED' || code === 'FORBIDDEN');
}

/** Hashed a slice at a time: 200 MB in one go would hold this thread (the one that answers the UI) for a second. */
const HASH_SLICE = 1024 * 1024;

export async function sha256Of(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.byteLength; at += HASH_SLICE) {
    if (at > 0) await nextTurn();
    hash.update(bytes.subarray(at, at + HASH_SLICE));
  }
  return hash.digest('hex');
}

/** Where a copied PDF lives: content-addressed, so the same file is stored once. */
export function storedPathOf(storeDir: string, sha256: string): string {
  return join(storeDir, sha256.slice(0, 2), `${sha256}.pdf`);
}

/** What a PDF whose text was not read tells about itself: nothing (its item is named after its file). */
const UNREAD: PdfFacts = { pageCount: 0, info: {}, xmp: null, pages: [], title: null, byline: null };

function pdfItem(sha256: string, facts: PdfFacts, file: string): CslItem {
  const title = facts.title ?? basename(file).replace(/\.pdf$/i, '');
  return { id: `pdf-${sha256.slice(0, 16)}`, type: 'article-journal', title };
}

/**
 * A DOI the service could not be asked about: the placeholder enrichment completes, titled meanwhile
 * with what the PDF says (its first page's title, else its file name) so the library does not list it
 * as untitled. The title is marked provisional: the service's title replaces it (fill.ts).
 */
function waitingPlaceholder(doi: NormalizedDoi, plain: CslItem): CslItem {
  const base = doiPlaceholder(doi);
  return {
    ...base,
    ...(plain.title ? { title: plain.title } : {}),
    custom: { citewise: { pendingMetadata: true, provisional: ['title'] } },
  };
}

interface Identified {
  csl: CslItem;
  method: CaptureMethod;
  state: CaptureState;
  confidence: number;
  evidence: CaptureEvidence[];
  candidates: CaptureCandidate[];
  doi: string | null;
}

/** Papers by DOI: the answer, or null when the service cannot be asked now (other failures throw). */
async function papersOrNull(
  service: CaptureService | null,
  dois: readonly string[],
  deps: Pick<CaptureDeps, 'library'>,
  signal?: AbortSignal,
): Promise<BulkResult<UiPaper> | null> {
  if (!service) return null;
  let result: BulkResult<UiPaper>;
  try {
    result = await service.papers(dois, signal ? { signal } : {});
  } catch (err) {
    if (cannotAskNow(err)) return null;
    throw err;
  }
  if (result.failed.some((f) => cannotAskNow(f.error))) return null;
  await cachePapers(deps.library, result);
  return result;
}

async function identify(
  facts: PdfFacts,
  sha256: string,
  file: string,
  deps: CaptureDeps,
  signal?: AbortSignal,
): Promise<Identified> {
  const { service } = deps;
  const byId = identifyById(facts);
  const plain = pdfItem(sha256, facts, file);
  if (byId.kind === 'doi') {
    const result = await papersOrNull(service, [byId.doi], deps, signal);
    const paper = result?.found[byId.doi];
    // Unknown to the service: the DOI printed on the paper still stands, with the title read from it.
    // Offline: the DOI stands (as sure as it was found); enrichment completes the item when the service is back.
    const csl = !result
      ? waitingPlaceholder(byId.doi, plain)
      : paper
        ? paperToCsl(metadataOf(paper))
        : { ...plain, DOI: byId.doi };
    return {
      csl,
      method: byId.method,
      state: 'identified',
      confidence: byId.confidence,
      evidence: [byId.evidence],
      candidates: [],
      doi: byId.doi,
    };
  }
  if (byId.kind === 'ambiguous') {
    const result = await papersOrNull(
      service,
      byId.candidates.map((c) => c.doi),
      deps,
      signal,
    );
    const candidates = byId.candidates.map((c) => {
      const title = result?.found[c.doi]?.title;
      return title ? { ...c, title } : c;
    });
    return {
      csl: plain,
      method: byId.method,
      state: 'needs-review',
      confidence: 0.5,
      evidence: candidates.map((c) => c.evidence),
      candidates,
      doi: null,
    };
  }
  if (facts.title === null) {
    return {
      csl: plain,
      method: 'none',
      state: 'needs-review',
      confidence: 0,
      evidence: [{ method: 'none', matched: '', detail: 'no identifier and no text on the first page (a scan?)' }],
      candidates: [],
      doi: null,
    };
  }
  const decided = await searchByTitle(service, facts.title, facts.byline, signal);
  if (!decided) {
    // The byline is kept with the title: the search weighs it when it runs (pending-captures.ts).
    const evidence: CaptureEvidence = {
      method: 'none',
      matched: facts.title,
      detail: PENDING_DETAIL,
      ...(facts.byline === null ? {} : { byline: facts.byline }),
    };
    return {
      csl: plain,
      method: 'none',
      state: 'pending',
      confidence: 0,
      evidence: [evidence],
      candidates: [],
      doi: null,
    };
  }
  if (decided.doi === null) return { csl: plain, ...decided };
  const result = await papersOrNull(service, [decided.doi], deps, signal);
  const paper = result?.found[decided.doi];
  return { ...decided, csl: paper ? paperToCsl(metadataOf(paper)) : waitingPlaceholder(decided.doi, plain) };
}

/** What a pending capture's evidence says until its title search runs. */
export const PENDING_DETAIL = 'the citation service could not be asked; the title is looked up later';

/** What the title search decided: a DOI that stands, or Needs review (with the candidates, if any). */
export type TitleDecision = TitleSearchOutcome & { doi: NormalizedDoi | null };

/**
 * The third step of identification: the first page's title and byline through the service's paper
 * search, judged (identify.ts). Null when the service cannot be asked now (the capture waits as
 * `pending` and pending-captures.ts runs this when it can); other failures throw.
 */
export async function searchByTitle(
  service: CaptureService | null,
  title: string,
  byline: string | null,
  signal?: AbortSignal,
): Promise<TitleDecision | null> {
  if (!service) return null;
  let hits: TitleHit[];
  try {
    hits = await service.searchTitle(title, signal ? { signal } : {});
  } catch (err) {
    if (cannotAskNow(err)) return null;
    throw err;
  }
  const judged = judgeTitleHits(hits, title, byline);
  if (judged.kind === 'none')
    return {
      method: 'none',
      state: 'needs-review',
      confidence: 0,
      evidence: [judged.evidence],
      candidates: [],
      doi: null,
    };
  if (judged.kind === 'unsure') {
    return {
      method: 'title-search',
      state: 'needs-review',
      confidence: judged.candidates[0]!.score,
      evidence: judged.candidates.map((c) => c.evidence),
      candidates: judged.candidates,
      doi: null,
    };
  }
  return {
    method: 'title-search',
    state: 'identified',
    confidence: judged.confidence,
    evidence: [judged.evidence],
    candidates: [],
    doi: judged.doi.toLowerCase() as NormalizedDoi,
  };
}

/**
 * A candidate's metadata as an item, from the service (cached like any added DOI): null when the
 * service does not know the DOI or cannot be asked now (enrichment completes the item later).
 */
export async function candidateCsl(
  doi: string,
  deps: Pick<CaptureDeps, 'library' | 'service'>,
  signal?: AbortSignal,
): Promise<CslItem | null> {
  const key = doi.toLowerCase();
  const result = await papersOrNull(deps.service, [key], deps, signal);
  const paper = result?.found[key];
  return paper ? paperToCsl(metadataOf(paper)) : null;
}

/**
 * A PDF copied into the library folder under its checksum, unless a copy is there already (`wrote`
 * false). Null when the file changed while it was copied (still being written, or edited): a copy is
 * never kept under a checksum it does not have.
 */
export async function keepCopy(
  path: string,
  info: { size: number; mtimeMs: number },
  sha256: string,
  storeDir: string,
): Promise<{ stored: string; wrote: boolean } | null> {
  const stored = storedPathOf(storeDir, sha256);
  const there = await access(stored).then(
    () => true,
    () => false,
  );
  if (there) return { stored, wrote: false };
  try {
    await mkdir(join(storeDir, sha256.slice(0, 2)), { recursive: true });
    await copyFileAtomicAsync(path, stored);
  } catch (err) {
    // A full disk is the library's disk, not this file's fault: one sentence, nothing kept of the copy.
    throw asStorageFault(err, dirname(storeDir));
  }
  // The copy must be the file that was hashed: one that changed meanwhile (still being written, or
  // edited) is not kept under a checksum it does not have.
  const after = await stat(path).catch(() => null);
  if (!after || after.size !== info.size || after.mtimeMs !== info.mtimeMs) {
    await rm(stored, { force: true });
    return null;
  }
  return { stored, wrote: true };
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function captureOne(
  file: string,
  deps: CaptureDeps & { reader: PdfReader },
  options: CaptureOptions,
  limits: CaptureLimits,
): Promise<CaptureFileReport> {
  const path = resolve(file);
  const name = basename(path);
  const fail = (code: Extract<CaptureFileReport, { status: 'failed' }>['code'], why: string): CaptureFileReport => ({
    file: path,
    status: 'failed',
    code,
    message: `${name} was not added: ${why}.`,
  });
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => err);
  if (info instanceof Error)
    return info.code === 'ENOENT'
      ? fail('NOT_FOUND', `there is no file at ${path}`)
      : info.code === 'EACCES'
        ? fail('FORBIDDEN', `Citewise is not allowed to read ${path}`)
        : fail('INVALID_INPUT', info.message);
  if (!info.isFile()) return fail('INVALID_INPUT', `${path} is not a file`);
  if (info.size > limits.maxBytes)
    return fail('INVALID_INPUT', `it is ${mb(info.size)}; PDFs larger than ${mb(limits.maxBytes)} are not captured`);
  if (info.size === 0) return fail('INVALID_INPUT', 'it is empty');
  // Nothing here copies the file's bytes on this thread: read by libuv, hashed a slice at a time, moved
  // to the PDF worker, and copied into the library folder by the OS from the file itself. A copy of a
  // large PDF would stall the UI's thread; so did taking its bytes back from the worker to write them
  // (a second 20 MB buffer a file: in six 20 MB PDFs, six full garbage collections of 23-130 ms on
  // this thread; none or one of them with the copy left to the OS).
  const bytes = await readFile(path);
  const size = bytes.byteLength;
  const sha256 = await sha256Of(bytes);
  const same = await deps.library.lib.attachmentBySha256(sha256);
  if (same) return { file: path, status: 'duplicate', itemId: same.itemId, reason: 'checksum' };
  const read = await deps.reader.read(bytes, limits.maxPages, options.signal, { move: true });
  // A PDF that expands beyond the reader's caps is kept, as a scan is: its file is fine to store and
  // open, only its text was not read (the report says so).
  if (!read.ok && read.failure.code !== 'too-large')
    return fail(read.failure.code === 'timeout' ? 'TIMEOUT' : 'INVALID_INPUT', read.failure.message);
  const facts: PdfFacts = read.ok ? read.facts : UNREAD;
  const unread: CaptureEvidence[] = read.ok ? [] : [{ method: 'none', matched: '', detail: read.failure.message }];
  const identified: Identified = options.into
    ? {
        csl: pdfItem(sha256, facts, path),
        method: 'none',
        state: 'identified',
        confidence: 1,
        evidence: [{ method: 'none', matched: '', detail: `saved with its item from ${options.into.source}` }],
        candidates: [],
        doi: null,
      }
    : await identify(facts, sha256, path, deps, options.signal);
  const found: Identified = { ...identified, evidence: [...unread, ...identified.evidence] };
  let stored = path;
  let wrote = false;
  if (options.mode === 'copy') {
    const kept = await keepCopy(path, info, sha256, options.storeDir);
    if (!kept) return fail('INVALID_INPUT', 'it changed while it was being added; add it again once it is complete');
    ({ stored, wrote } = kept);
  }
  const input: CaptureInput = {
    csl: found.csl,
    attachment: {
      path: stored,
      sha256,
      size,
      stored: options.mode === 'copy' ? 'copied' : 'linked',
      originalName: name,
    },
    method: found.method,
    state: found.state,
    confidence: found.confidence,
    evidence: found.evidence,
    candidates: found.candidates,
    ...(options.into ? { into: options.into.itemId } : {}),
  };
  let result: CaptureStored;
  try {
    result = await deps.library.lib.capturePdf(input);
  } catch (err) {
    if (wrote) await rm(stored, { force: true });
    throw err;
  }
  if (result.status === 'duplicate') {
    // The copy just written belongs to nobody (a same-checksum duplicate found meanwhile owns it).
    if (wrote && result.reason !== 'checksum') await rm(stored, { force: true });
    return { file: path, status: 'duplicate', itemId: result.itemId, reason: result.reason };
  }
  return {
    file: path,
    status: result.status,
    itemId: result.itemId,
    attachmentId: result.attachmentId,
    state: found.state,
    method: found.method,
    confidence: found.confidence,
    doi: found.doi,
    title: typeof found.csl.title === 'string' ? found.csl.title : null,
    candidates: found.candidates,
    evidence: found.evidence,
  };
}

/** Captures the files one after another; one report per file, in order. Throws only on cancel or a library failure. */
export async function capturePdfs(
  files: readonly string[],
  deps: CaptureDeps,
  options: CaptureOptions,
): Promise<CaptureFileReport[]> {
  const limits = { ...DEFAULT_CAPTURE_LIMITS, ...options.limits };
  const reader = deps.reader ?? new PdfReader({ timeLimitMs: limits.timeLimitMs });
  const reports: CaptureFileReport[] = [];
  try {
    for (const file of files) {
      if (options.signal?.aborted) throw new CoreError('CANCELLED', 'The PDF capture was cancelled.');
      const report = await captureOne(file, { ...deps, reader }, options, limits);
      reports.push(report);
      options.onFile?.(report, reports.length, files.length);
    }
  } finally {
    if (!deps.reader) await reader.close();
  }
  return reports;
}
