// The library's worker thread: it owns the SQLite connections and does every read and write, so a
// 100,000-item import or a backup never stalls the thread that answers the UI. The facade
// (client.ts) talks to it with the messages of protocol.ts.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { CoreError } from '../errors';
import { refused, replied, toWire } from '../worker-rpc';
import { backupDatabase, inspectBackup } from './backup';
import { asStorageFault } from './faults';
import { flagDamage, isDamage } from './health';
import { storeDispatch, storesOf } from './dispatch';
import { checkSearchIndex, rebuildSearchIndex, searchIndexDrift } from './search-index';
import { isBusy, waitingMessage } from './shared-use';
import type { ImportSession } from './import-session';
import type { ImportResult } from './types';
import { openLibrary, type OpenedLibrary } from './open';
import { openWriter, type Db } from './database';
import { writeHandle } from './sql';
import { type ImportMatches, type Request, type Response, type WireError, type WorkerInit } from './protocol';
import { chunkBytes, decodePortItems, FLOW, type PortChunk, type PortMessage } from '../formats/import-port';

const port = parentPort;
if (!port) throw new Error('worker.ts runs only as a worker thread.');
const init = workerData as WorkerInit;

function wire(thrown: unknown): WireError {
  // SQLite found damage: the next open runs the full check (health.ts).
  if (isDamage(thrown)) flagDamage(init.file);
  return toWire(asStorageFault(thrown, dirname(init.file)));
}

const send = (msg: Response): void => port.postMessage(msg);

/**
 * Requests that found the write lock taken by another connection (the command line importing into the
 * library the app has open), in the order they came. They are retried until the lock is free; the
 * worker meanwhile answers reads. While any waits, later writes queue behind them (beforeWrite), so
 * changes are saved in the order they were made.
 */
const waiting: { req: Request; since: number }[] = [];
let draining = false;
let retryTimer: NodeJS.Timeout | undefined;
/** A change waits at most this long for the lock, then fails with CONFLICT. */
const WAIT_LIMIT_MS = 10 * 60_000;
const RETRY_MS = 100;
/** What the app says while a change waits for an import of its own to end. */
const OWN_IMPORT_MESSAGE = 'Saving when the import finishes';

function queuedBusy(): Error {
  const err = new Error('A change made earlier is waiting for the write lock.') as Error & { code: string };
  err.code = 'SQLITE_BUSY';
  return err;
}

let opened: OpenedLibrary;
try {
  opened = openLibrary(init.file, {
    nativeBinding: init.nativeBinding,
    rankExtension: init.rankExtension,
    backupDir: init.backupDir,
    maxPageCount: init.maxPageCount,
    durability: init.durability,
    beforeWrite: () => {
      if (waiting.length > 0 && !draining) throw queuedBusy();
    },
  });
  // Short: a write that finds the lock taken goes to the queue instead of blocking this thread,
  // which answers reads meanwhile.
  opened.db.pragma('busy_timeout = 100');
} catch (err) {
  send({ type: 'failed', error: wire(err) });
  process.exit(0);
}
const stores = storesOf(opened);
const method = storeDispatch(stores);
send({
  type: 'ready',
  recovery: opened.recovery,
  migrationBackup: opened.migrationBackup,
  backupDir: opened.backupDir,
  searchIndexRepair: opened.searchIndexRepair,
});

/**
 * An import fed through a port by a parser in another thread: the items arrive here directly, each
 * with its line and source key (PortItem), which the session's result carries.
 */
interface PortFeed {
  /** Null for an import fed by a kept parse (feedKept). */
  port: MessagePort | null;
  /** The parser said it is done: every item has been added. */
  ended: boolean;
  /** Adding a chunk failed (the session is rolled back; commit reports this). */
  failed: unknown;
  onSettled: (() => void) | null;
  /** The parser's flow counters (see FLOW in formats/import-port), once it has sent them. */
  flow: Int32Array | null;
}

const sessions = new Map<number, ImportSession>();
/**
 * Each import's own write connection. An import's transaction stays open across the chunks a parser
 * posts, while this worker answers other requests; on the connection those use, an edit made meanwhile
 * was written inside the import's transaction, answered as saved, and rolled back with a cancelled or
 * failed import. On a connection of its own the import holds SQLite's write lock instead: an edit
 * finds it taken, waits in the queue (below), and is saved, then answered, once the import has ended.
 */
const writers = new Map<number, Db>();
const feeds = new Map<number, PortFeed>();
let nextSession = 1;

/**
 * The entries the last import preview read, as the parser posted them, so that the import that follows
 * writes them without parsing the file again. One at a time (a new preview replaces it), forgotten
 * when an import takes it, and after KEPT_MS, so a dialog left open does not hold memory for good.
 */
let kept: { name: string; chunks: PortChunk[]; timer: NodeJS.Timeout } | null = null;
const KEPT_MS = 10 * 60_000;

function forgetKept(): void {
  if (kept) clearTimeout(kept.timer);
  kept = null;
}

function beginSession(source: string | undefined): number {
  const db = openWriter(init.file, {
    nativeBinding: init.nativeBinding,
    durability: init.durability,
    maxPageCount: init.maxPageCount,
  });
  let session: ImportSession;
  try {
    // As short as the main connection's: a command-line import holding the lock sends this to the queue.
    db.pragma('busy_timeout = 100');
    db.pragma('cache_size = -65536');
    session = opened.library.beginImport(source !== undefined ? { source } : {}, writeHandle(db));
  } catch (err) {
    db.close();
    throw err;
  }
  const id = nextSession++;
  sessions.set(id, session);
  writers.set(id, db);
  // The lock is this worker's own now: a write on the main connection cannot get it by waiting, only
  // once the import ends (endSession drains the queue then).
  opened.db.pragma('busy_timeout = 0');
  return id;
}

/** Ends an import: its transaction rolled back unless committed, its connection closed, waiting writes run. */
function endSession(id: number): void {
  sessions.get(id)?.rollback();
  sessions.delete(id);
  const db = writers.get(id);
  writers.delete(id);
  if (db?.open) db.close();
  if (sessions.size > 0 || !opened.db.open) return;
  opened.db.pragma('busy_timeout = 100');
  if (waiting.length > 0) {
    // Time spent waiting for this worker's own import does not count toward the limit, which is for
    // another program that keeps the lock.
    const now = Date.now();
    for (const w of waiting) w.since = now;
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = setTimeout(drain, 0);
  }
}

function feedFrom(id: number, session: ImportSession, port: MessagePort): PortFeed {
  const feed: PortFeed = { port, ended: false, failed: null, onSettled: null, flow: null };
  port.on('message', (msg: PortMessage) => {
    if (feed.ended || feed.failed) return;
    if (msg.type === 'flow') {
      feed.flow = readingFlow(msg.counters);
      return;
    }
    if (msg.type === 'items') {
      try {
        session.addPrepared(decodePortItems(msg));
        chunkWritten(feed);
        return;
      } catch (err) {
        feed.failed = err;
        endSession(id);
      }
    } else feed.ended = true;
    closeFeed(feed);
    feed.onSettled?.();
  });
  return feed;
}

/**
 * An import fed by a kept parse: its chunks are added one per turn of the event loop, so the worker
 * answers reads between them as it does for a parser's port.
 */
function feedKept(id: number, session: ImportSession, chunks: readonly PortChunk[]): PortFeed {
  const feed: PortFeed = { port: null, ended: false, failed: null, onSettled: null, flow: null };
  const next = (i: number): void => {
    // Cancelled (import.abort settles the feed itself).
    if (feed.failed || !sessions.has(id)) return;
    try {
      if (i < chunks.length) {
        session.addPrepared(decodePortItems(chunks[i]!));
        setImmediate(next, i + 1);
        return;
      }
      feed.ended = true;
    } catch (err) {
      feed.failed = err;
      endSession(id);
    }
    feed.onSettled?.();
  };
  setImmediate(next, 0);
  return feed;
}

/**
 * An import preview's port, read to its end: each chunk's entries matched against the library (the
 * rule an import skips entries by), only the count and the first `sample` answers kept. Rejects when
 * the port closes before the parser's `end` (the parse failed, or was cancelled).
 */
function previewFrom(req: Extract<Request, { op: 'import.preview' }>): Promise<ImportMatches> {
  const matches: ImportMatches = { duplicates: 0, sample: [] };
  const feed: PortFeed = { port: req.port, ended: false, failed: null, onSettled: null, flow: null };
  forgetKept();
  // The chunks kept for the import, while they stay within req.keep bytes (null once they do not).
  let keeping: PortChunk[] | null = req.keep !== undefined ? [] : null;
  let bytes = 0;
  return new Promise((resolve, reject) => {
    req.port.on('close', () => {
      if (!feed.ended) reject(new CoreError('CANCELLED', 'The preview ended before the parser finished.'));
    });
    req.port.on('message', (msg: PortMessage) => {
      if (feed.ended || feed.failed) return;
      if (msg.type === 'flow') {
        feed.flow = readingFlow(msg.counters);
        return;
      }
      if (msg.type === 'items') {
        try {
          for (const id of opened.library.sameEntries(decodePortItems(msg), req.source)) {
            if (id !== null) matches.duplicates++;
            if (matches.sample.length < req.sample) matches.sample.push(id);
          }
          if (keeping) {
            bytes += chunkBytes(msg);
            if (bytes <= req.keep!) keeping.push(msg);
            else keeping = null;
          }
          chunkWritten(feed);
          return;
        } catch (err) {
          feed.failed = err;
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      } else {
        feed.ended = true;
        if (keeping) {
          const name = randomUUID();
          kept = { name, chunks: keeping, timer: setTimeout(forgetKept, init.keptMs ?? KEPT_MS).unref() };
          matches.kept = name;
        }
        resolve(matches);
      }
      closeFeed(feed);
    });
  });
}

/** The parser's flow counters, marked as read by a store from now on (see FLOW). */
function readingFlow(counters: SharedArrayBuffer): Int32Array {
  const flow = new Int32Array(counters);
  Atomics.store(flow, FLOW.reading, 1);
  return flow;
}

/** Tells the parser one more chunk is done with (see FLOW), so it may post another. */
function chunkWritten(feed: PortFeed): void {
  if (!feed.flow) return;
  Atomics.add(feed.flow, FLOW.written, 1);
  Atomics.notify(feed.flow, FLOW.written);
}

/** Stops reading the port, and tells a parser waiting for room that none is coming. */
function closeFeed(feed: PortFeed): void {
  feed.port?.close();
  if (feed.flow) {
    Atomics.store(feed.flow, FLOW.closed, 1);
    Atomics.notify(feed.flow, FLOW.written);
  }
}

function commitSession(id: number): ImportResult {
  const s = sessions.get(id);
  if (!s) throw new Error('The import session is gone.');
  let result: ImportResult;
  try {
    result = s.commit();
  } finally {
    endSession(id);
  }
  // After the answer is sent: fresh planner statistics for a library that grew a lot, and the WAL
  // written into the database file.
  setTimeout(() => {
    if (sessions.size > 0) return;
    if (result.added > 10_000) opened.library.optimize();
    opened.library.checkpoint();
  }, 0);
  return result;
}
const changes = opened.db.prepare('SELECT total_changes() AS n').pluck();
let changesAtBackup = changes.get() as number;

function backup(reason: Parameters<typeof backupDatabase>[2]) {
  const info = backupDatabase(opened.db, opened.backupDir, reason, { nativeBinding: init.nativeBinding });
  changesAtBackup = changes.get() as number;
  return info;
}

let timer: NodeJS.Timeout | undefined;
if (init.backupIntervalMs && init.backupIntervalMs > 0) {
  timer = setInterval(() => {
    // Only when something changed, and never in the middle of an import's open transaction.
    if (sessions.size > 0 || changes.get() === changesAtBackup) return;
    try {
      send({ type: 'backup', info: backup('scheduled') });
    } catch (err) {
      send({ type: 'backup', info: null, error: wire(err) });
    }
  }, init.backupIntervalMs);
  timer.unref();
}

function handle(req: Request): unknown {
  switch (req.op) {
    case 'call':
      return method(req.store, String(req.method))(req.args);
    case 'import.begin': {
      if (waiting.length > 0 && !draining) throw queuedBusy();
      if (sessions.size > 0) throw new CoreError('CONFLICT', 'Another import is still running; wait for it to finish.');
      if (req.kept !== undefined && kept?.name !== req.kept) return null;
      const id = beginSession(req.source);
      if (req.port) feeds.set(id, feedFrom(id, sessions.get(id)!, req.port));
      else if (kept && req.kept !== undefined) {
        feeds.set(id, feedKept(id, sessions.get(id)!, kept.chunks));
        forgetKept();
      }
      return id;
    }
    case 'import.chunk': {
      const s = sessions.get(req.session);
      if (!s) throw new Error('The import session is gone.');
      try {
        s.add(req.items);
      } catch (err) {
        endSession(req.session);
        throw err;
      }
      return null;
    }
    case 'import.commit': {
      const feed = feeds.get(req.session);
      if (!feed) return commitSession(req.session);
      // The port's items may still be arriving: commit once the parser's 'end' is in.
      return new Promise<ImportResult>((resolve, reject) => {
        const settle = (): void => {
          feeds.delete(req.session);
          if (feed.failed) return reject(feed.failed instanceof Error ? feed.failed : new Error(String(feed.failed)));
          try {
            resolve(commitSession(req.session));
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        };
        if (feed.ended || feed.failed) settle();
        else feed.onSettled = settle;
      });
    }
    case 'import.abort': {
      endSession(req.session);
      const feed = feeds.get(req.session);
      feeds.delete(req.session);
      if (feed) {
        feed.failed ??= new Error('The import was cancelled.');
        closeFeed(feed);
        feed.onSettled?.();
      }
      return null;
    }
    case 'import.preview':
      return previewFrom(req);
    case 'backup':
      return backup(req.reason);
    case 'inspect':
      return inspectBackup(req.file, init.nativeBinding);
    case 'search-index': {
      if (sessions.size > 0)
        throw new CoreError('CONFLICT', 'An import is still running; check the search index when it has finished.');
      const before = checkSearchIndex(opened.db);
      const rebuild = req.rebuild === 'always' || (req.rebuild === 'if-drifted' && searchIndexDrift(before));
      return { before, after: rebuild ? rebuildSearchIndex(opened.db) : null };
    }
    case 'close':
      if (timer) clearInterval(timer);
      for (const id of [...sessions.keys()]) endSession(id);
      for (const f of feeds.values()) closeFeed(f);
      feeds.clear();
      forgetKept();
      opened.close();
      return null;
  }
}

/** Ops that wait for the lock when another connection holds it. */
const WAITS_FOR_LOCK = new Set<Request['op']>(['call', 'import.begin', 'search-index']);

/** Runs a request and answers it, or returns false when it must wait for the write lock. */
function attempt(req: Request, since: number): boolean {
  try {
    const value = handle(req);
    if (value instanceof Promise) {
      value.then(
        (v: unknown) => send(replied(req.id, v)),
        (err: unknown) => send(refused(req.id, wire(err))),
      );
    } else send(replied(req.id, value));
  } catch (err) {
    // A write that failed mid-way (SQLITE_FULL in a statement run outside db.transaction) must not
    // leave a transaction open for the next call to write into (an import's is on its own connection).
    if (opened.db.open && opened.db.inTransaction) opened.db.exec('ROLLBACK');
    if (isBusy(err) && WAITS_FOR_LOCK.has(req.op)) {
      if (Date.now() - since < WAIT_LIMIT_MS) return false;
      send(
        refused(
          req.id,
          wire(
            new CoreError(
              'CONFLICT',
              `Another program kept the library locked for ${WAIT_LIMIT_MS / 60_000} minutes; this change was not saved. Try again when it has finished.`,
            ),
          ),
        ),
      );
      return true;
    }
    send(refused(req.id, wire(err)));
  }
  return true;
}

function drain(): void {
  retryTimer = undefined;
  draining = true;
  try {
    while (waiting.length > 0 && attempt(waiting[0]!.req, waiting[0]!.since)) waiting.shift();
  } finally {
    draining = false;
  }
  // While this worker's own import holds the lock, endSession runs the queue when it ends.
  if (waiting.length > 0) retryTimer = sessions.size > 0 ? undefined : setTimeout(drain, RETRY_MS);
  else send({ type: 'waiting', waiting: false, message: '' });
}

port.on('message', (req: Request) => {
  if (req.op !== 'close' && !attempt(req, Date.now())) {
    waiting.push({ req, since: Date.now() });
    if (waiting.length === 1)
      send({
        type: 'waiting',
        waiting: true,
        message: sessions.size > 0 ? OWN_IMPORT_MESSAGE : waitingMessage(dirname(init.file)),
      });
    if (sessions.size === 0) retryTimer ??= setTimeout(drain, RETRY_MS);
    return;
  }
  if (req.op === 'close') {
    if (retryTimer) clearTimeout(retryTimer);
    for (const w of waiting.splice(0))
      send(
        refused(w.req.id, wire(new CoreError('CANCELLED', 'The library was closed before the change could be saved.'))),
      );
    attempt(req, Date.now());
    port.close();
  }
});
