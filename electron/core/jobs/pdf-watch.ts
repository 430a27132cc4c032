// The watched folder (Settings → Watch a folder): PDFs that appear in it are captured as Add → PDFs…
// captures them (the capture function the core passes: the PDF worker, one file at a time, as jobs).
// - Which files were seen is kept in the library (migration 0021): a file whose size and modification
//   time are unchanged is not read again, and one whose checksum was seen (renamed, copied) is not
//   captured again, so a restart adds nothing twice.
// - A file is read only once its size and modification time have stayed the same for `stableMs` (a
//   download or a copy still being written is left alone until it is done).
// - Hidden files, partial downloads (.crdownload, .part, .tmp, .download) and anything not named .pdf
//   are ignored; a partial download renamed to .pdf when it is done is captured then.
// - A file that fails is recorded with its reason and reported once; it is tried again only if it
//   changes (a new size or modification time).
// - fs.watch tells of changes at once where it works; a rescan every `rescanMs` catches what it
//   misses (network and some container file systems) and notices the folder coming back.
// The folder itself is not searched recursively: subfolders are left alone.
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { PdfWatchStatus } from '../../../shared/ipc/pdf-watch';
import { hashFile } from '../fs/paths';
import type { AsyncLibrary } from '../library/client';
import type { WatchedFile } from '../library/watch-store';
import type { CaptureFileReport } from '../pdf/capture';

export interface PdfWatcherOptions {
  library: { lib: Pick<AsyncLibrary, 'watchedFiles' | 'watchedChecksum' | 'recordWatchedFile' | 'watchCounts'> };
  /** Captures files (in order, one report each); throws only on cancel or a library failure. */
  capture: (files: readonly string[], signal: AbortSignal) => Promise<CaptureFileReport[]>;
  /** How long a file's size and modification time must stay the same before it is read. Default 1500 ms. */
  stableMs?: number;
  /** How often waiting files are looked at again. Default 250 ms. */
  pollMs?: number;
  /** The rescan that catches what fs.watch misses. Default 30 s. */
  rescanMs?: number;
  onStatus?: (status: PdfWatchStatus) => void;
  /** Told of unexpected failures (a library call that failed). */
  report?: (err: unknown) => void;
  now?: () => number;
}

const PARTIAL = /\.(crdownload|part|partial|tmp|temp|download|opdownload)$/i;

/** Whether a file name is one the watcher captures: a visible .pdf that is not a partial download. */
export function isWatchedName(name: string): boolean {
  return (
    !name.startsWith('.') && !name.startsWith('~$') && extname(name).toLowerCase() === '.pdf' && !PARTIAL.test(name)
  );
}

interface Waiting {
  size: number;
  mtimeMs: number;
  /** When the size and modification time were last seen to change. */
  since: number;
}

function folderProblem(folder: string, err: NodeJS.ErrnoException): string {
  if (err.code === 'ENOENT' || err.code === 'ENOTDIR')
    return `The folder ${folder} is not there any more (was it moved, deleted or unmounted?); watching resumes when it is back.`;
  if (err.code === 'EACCES' || err.code === 'EPERM')
    return `Citewise is not allowed to read the folder ${folder} any more.`;
  return `The folder ${folder} cannot be read: ${err.message}`;
}

export class PdfFolderWatcher {
  readonly #o: PdfWatcherOptions;
  readonly #stableMs: number;
  readonly #pollMs: number;
  readonly #rescanMs: number;
  readonly #now: () => number;
  #folder: string | null = null;
  /** What the library remembers of this folder's files, by path. */
  #known = new Map<string, { size: number; mtimeMs: number }>();
  #waiting = new Map<string, Waiting>();
  /** Files handed to capture and not finished. */
  #capturing = new Set<string>();
  #fsWatcher: FSWatcher | null = null;
  #pollTimer: ReturnType<typeof setTimeout> | null = null;
  #rescanTimer: ReturnType<typeof setTimeout> | null = null;
  #scanSoon: ReturnType<typeof setTimeout> | null = null;
  /** Per folder: aborted when the folder changes or the watcher closes. */
  #session = new AbortController();
  #chain: Promise<unknown> = Promise.resolve();
  #scanning: Promise<void> | null = null;
  #rescanRequested = false;
  #folderError: string | null = null;
  #lastError: PdfWatchStatus['lastError'] = null;
  #lastCaptured: PdfWatchStatus['lastCaptured'] = null;
  #counts = { captured: 0, failed: 0 };
  #closed = false;

  constructor(options: PdfWatcherOptions) {
    this.#o = options;
    this.#stableMs = options.stableMs ?? 1500;
    this.#pollMs = options.pollMs ?? 250;
    this.#rescanMs = options.rescanMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  get folder(): string | null {
    return this.#folder;
  }

  status(): PdfWatchStatus {
    const folder = this.#folder;
    return {
      folder,
      state: folder === null ? 'off' : this.#folderError !== null ? 'error' : 'watching',
      captured: this.#counts.captured,
      failed: this.#counts.failed,
      waiting: this.#waiting.size + this.#capturing.size,
      lastError: this.#lastError,
      lastCaptured: this.#lastCaptured,
    };
  }

  /** Watches this folder from now on (null: none); the files already there and not seen yet are captured. */
  async setFolder(folder: string | null): Promise<void> {
    if (this.#closed || folder === this.#folder) return;
    this.#stop();
    // Captures of the old folder still queued stop; a capture already reading finishes.
    this.#session.abort();
    this.#session = new AbortController();
    this.#folder = folder;
    this.#known = new Map();
    this.#lastError = null;
    this.#lastCaptured = null;
    this.#folderError = null;
    this.#counts = { captured: 0, failed: 0 };
    if (folder === null) {
      this.#emit();
      return;
    }
    const session = this.#session.signal;
    try {
      const [files, counts] = await Promise.all([
        this.#o.library.lib.watchedFiles(folder),
        this.#o.library.lib.watchCounts(folder),
      ]);
      if (session.aborted) return;
      for (const f of files) this.#known.set(f.path, { size: f.size, mtimeMs: f.mtimeMs });
      this.#counts = counts;
    } catch (err) {
      this.#o.report?.(err);
    }
    this.#listen();
    this.#scheduleRescan();
    await this.scan();
  }

  /** Looks at the folder now (fs.watch and the timer call this; tests too). */
  scan(): Promise<void> {
    if (this.#scanning) {
      this.#rescanRequested = true;
      return this.#scanning;
    }
    this.#scanning = (async () => {
      do {
        this.#rescanRequested = false;
        await this.#scanOnce();
      } while (this.#rescanRequested && !this.#closed);
    })().finally(() => {
      this.#scanning = null;
    });
    return this.#scanning;
  }

  /** Resolves when nothing is waiting, scanning or being captured (for tests and the CLI). */
  async idle(): Promise<void> {
    for (;;) {
      const chain = this.#chain;
      await this.#scanning;
      await chain.catch(() => undefined);
      if (chain === this.#chain && this.#waiting.size === 0 && this.#capturing.size === 0 && this.#scanning === null)
        return;
      if (this.#waiting.size > 0) await new Promise((r) => setTimeout(r, this.#pollMs));
    }
  }

  /** Stops watching: timers and fs.watch end, queued captures are dropped (one already reading finishes first). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop();
    this.#session.abort();
    await this.#chain.catch(() => undefined);
  }

  #stop(): void {
    this.#fsWatcher?.close();
    this.#fsWatcher = null;
    for (const t of [this.#pollTimer, this.#rescanTimer, this.#scanSoon]) if (t) clearTimeout(t);
    this.#pollTimer = this.#rescanTimer = this.#scanSoon = null;
    this.#waiting.clear();
  }

  #emit(): void {
    this.#o.onStatus?.(this.status());
  }

  #listen(): void {
    const folder = this.#folder;
    if (folder === null || this.#fsWatcher || this.#closed) return;
    try {
      const watcher = fsWatch(folder, { persistent: false }, () => this.#soon());
      watcher.on('error', () => {
        // The folder went away (or the platform gave up on it): the rescan takes over and listens again when it is back.
        watcher.close();
        if (this.#fsWatcher === watcher) this.#fsWatcher = null;
        this.#soon();
      });
      this.#fsWatcher = watcher;
    } catch {
      // fs.watch is not available here (or the folder is gone): the periodic rescan does the work.
    }
  }

  /** A scan shortly after a burst of fs.watch events. */
  #soon(): void {
    if (this.#scanSoon || this.#closed) return;
    this.#scanSoon = setTimeout(() => {
      this.#scanSoon = null;
      void this.scan();
    }, 50);
    this.#scanSoon.unref?.();
  }

  #scheduleRescan(): void {
    if (this.#closed) return;
    this.#rescanTimer = setTimeout(() => {
      this.#rescanTimer = null;
      void this.scan().finally(() => this.#scheduleRescan());
    }, this.#rescanMs);
    this.#rescanTimer.unref?.();
  }

  async #scanOnce(): Promise<void> {
    const folder = this.#folder;
    if (folder === null || this.#closed) return;
    const session = this.#session.signal;
    let names: string[];
    try {
      names = (await readdir(folder, { withFileTypes: true }))
        .filter((d) => (d.isFile() || d.isSymbolicLink()) && isWatchedName(d.name))
        .map((d) => d.name);
    } catch (err) {
      if (session.aborted) return;
      const message = folderProblem(folder, err as NodeJS.ErrnoException);
      if (this.#folderError !== message) {
        this.#folderError = message;
        this.#lastError = { file: null, message, at: this.#now() };
        this.#fsWatcher?.close();
        this.#fsWatcher = null;
        this.#waiting.clear();
        this.#emit();
      }
      return;
    }
    if (session.aborted) return;
    if (this.#folderError !== null) {
      // Back (remounted, recreated): listen again and pick up what arrived meanwhile.
      this.#folderError = null;
      if (this.#lastError?.file === null) this.#lastError = null;
      this.#listen();
      this.#emit();
    }
    let added = false;
    for (const name of names) {
      const path = join(folder, name);
      if (this.#capturing.has(path)) continue;
      const info = await stat(path).catch(() => null);
      if (!info || !info.isFile()) {
        this.#waiting.delete(path);
        continue;
      }
      const known = this.#known.get(path);
      if (known && known.size === info.size && known.mtimeMs === Math.floor(info.mtimeMs)) continue;
      const waiting = this.#waiting.get(path);
      if (!waiting || waiting.size !== info.size || waiting.mtimeMs !== info.mtimeMs) {
        this.#waiting.set(path, { size: info.size, mtimeMs: info.mtimeMs, since: this.#now() });
        added = true;
      }
    }
    // Waiting files that are gone (removed, or renamed while being written) are forgotten.
    const present = new Set(names.map((n) => join(folder, n)));
    for (const path of [...this.#waiting.keys()]) if (!present.has(path)) this.#waiting.delete(path);
    if (added) this.#emit();
    this.#schedulePoll();
  }

  #schedulePoll(): void {
    if (this.#pollTimer || this.#waiting.size === 0 || this.#closed) return;
    this.#pollTimer = setTimeout(() => {
      this.#pollTimer = null;
      void this.#poll();
    }, this.#pollMs);
    this.#pollTimer.unref?.();
  }

  /** Moves files whose size and time held still for stableMs on to capture. */
  async #poll(): Promise<void> {
    const ready: { path: string; size: number; mtimeMs: number }[] = [];
    for (const [path, w] of [...this.#waiting]) {
      const info = await stat(path).catch(() => null);
      if (this.#waiting.get(path) !== w) continue;
      if (!info || !info.isFile()) {
        // Removed before it was read: nothing to capture, nothing to report.
        this.#waiting.delete(path);
        continue;
      }
      if (info.size !== w.size || info.mtimeMs !== w.mtimeMs) {
        this.#waiting.set(path, { size: info.size, mtimeMs: info.mtimeMs, since: this.#now() });
        continue;
      }
      if (this.#now() - w.since >= this.#stableMs && info.size > 0) {
        this.#waiting.delete(path);
        ready.push({ path, size: info.size, mtimeMs: info.mtimeMs });
      }
    }
    for (const file of ready) this.#queue(file);
    if (ready.length === 0 && this.#waiting.size === 0) this.#emit();
    this.#schedulePoll();
  }

  #queue(file: { path: string; size: number; mtimeMs: number }): void {
    const folder = this.#folder!;
    const session = this.#session.signal;
    this.#capturing.add(file.path);
    const run = async (): Promise<void> => {
      try {
        if (session.aborted) return;
        await this.#captureOne(folder, file, session);
      } catch (err) {
        if (session.aborted) return;
        if ((err as { code?: string } | null)?.code === 'CANCELLED') {
          // Cancelled from the status bar: a decision, recorded like a failure so it is not tried again.
          const message = `${basename(file.path)} was not added: its capture was cancelled.`;
          await this.#o.library.lib
            .recordWatchedFile({
              path: file.path,
              folder,
              size: file.size,
              mtimeMs: Math.floor(file.mtimeMs),
              sha256: null,
              outcome: 'failed',
              itemId: null,
              message,
              seenAt: this.#now(),
            })
            .catch((e: unknown) => this.#o.report?.(e));
          this.#known.set(file.path, { size: file.size, mtimeMs: Math.floor(file.mtimeMs) });
          this.#failed(file.path, message);
        } else {
          this.#lastError = {
            file: file.path,
            message: `${basename(file.path)} was not added: ${(err as Error).message}`,
            at: this.#now(),
          };
          this.#o.report?.(err);
        }
      } finally {
        this.#capturing.delete(file.path);
        if (!session.aborted) this.#emit();
      }
    };
    this.#chain = this.#chain.then(run, run);
  }

  async #captureOne(
    folder: string,
    file: { path: string; size: number; mtimeMs: number },
    session: AbortSignal,
  ): Promise<void> {
    const lib = this.#o.library.lib;
    const record = async (
      entry: Omit<WatchedFile, 'path' | 'folder' | 'size' | 'mtimeMs' | 'seenAt'>,
    ): Promise<void> => {
      const row: WatchedFile = {
        path: file.path,
        folder,
        size: file.size,
        mtimeMs: Math.floor(file.mtimeMs),
        seenAt: this.#now(),
        ...entry,
      };
      await lib.recordWatchedFile(row);
      this.#known.set(file.path, { size: row.size, mtimeMs: row.mtimeMs });
    };
    let sha256: string;
    try {
      sha256 = (await hashFile(file.path, 'the PDF')).sha256;
    } catch (err) {
      // Removed (or renamed) between the last look and now: it is simply not there to capture.
      if ((err as { code?: string }).code === 'NOT_FOUND') return;
      const message = `${basename(file.path)} was not added: ${(err as Error).message}`;
      await record({ sha256: null, outcome: 'failed', itemId: null, message });
      this.#failed(file.path, message);
      return;
    }
    if (await lib.watchedChecksum(sha256)) {
      // The same file seen before under another name (or before it was renamed): not again.
      await record({ sha256, outcome: 'duplicate', itemId: null, message: null });
      return;
    }
    const [report] = await this.#o.capture([file.path], session);
    if (!report || session.aborted) return;
    if (report.status === 'failed') {
      if (report.code === 'NOT_FOUND') return;
      await record({ sha256, outcome: 'failed', itemId: null, message: report.message });
      this.#failed(file.path, report.message);
      return;
    }
    await record({ sha256, outcome: report.status, itemId: report.itemId, message: null });
    if (report.status === 'added' || report.status === 'attached') {
      this.#counts.captured++;
      this.#lastCaptured = { file: file.path, itemId: report.itemId, at: this.#now() };
    }
  }

  #failed(path: string, message: string): void {
    this.#counts.failed++;
    this.#lastError = { file: path, message, at: this.#now() };
  }
}
