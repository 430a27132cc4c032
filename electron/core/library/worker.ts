// The library's worker thread: it owns the SQLite connections and does every read and write, so a
// 100,000-item import or a backup never stalls the thread that answers the UI. The facade
// (client.ts) talks to it with the messages of protocol.ts.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { dirname } from 'node:path';
import { CoreError } from '../errors';
import { backupDatabase, inspectBackup } from './backup';
import { asStorageFault } from './faults';
import { checkSearchIndex, rebuildSearchIndex, searchIndexDrift } from './search-index';
import type { ImportSession } from './library';
import type { ImportResult } from './types';
import { openLibrary, type OpenedLibrary } from './open';
import { IMPORT_FLOW, type ImportPortMessage, type Request, type Response, type WireError, type WorkerInit } from './protocol';

const port = parentPort;
if (!port) throw new Error('worker.ts runs only as a worker thread.');
const init = workerData as WorkerInit;

function wire(thrown: unknown): WireError {
  const err = asStorageFault(thrown, dirname(init.file));
  if (err instanceof CoreError) return { name: err.name, message: err.message, code: err.code, details: err.details };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

const send = (msg: Response): void => port.postMessage(msg);

let opened: OpenedLibrary;
try {
  opened = openLibrary(init.file, { nativeBinding: init.nativeBinding, rankExtension: init.rankExtension, backupDir: init.backupDir, maxPageCount: init.maxPageCount });
} catch (err) {
  send({ type: 'failed', error: wire(err) });
  process.exit(0);
}
send({ type: 'ready', recovery: opened.recovery, migrationBackup: opened.migrationBackup, backupDir: opened.backupDir, searchIndexRepair: opened.searchIndexRepair });

/**
 * An import fed through a port by a parser in another thread: the items arrive here directly, with
 * the line and source key of each entry, which the result then carries.
 */
interface PortFeed {
  port: MessagePort;
  lines: number[];
  keys: (string | undefined)[];
  /** The parser said it is done: every item has been added. */
  ended: boolean;
  /** Adding a chunk failed (the session is rolled back; commit reports this). */
  failed: unknown;
  onSettled: (() => void) | null;
  /** The parser's flow counters (see IMPORT_FLOW), once it has sent them. */
  flow: Int32Array | null;
}

const sessions = new Map<number, ImportSession>();
const feeds = new Map<number, PortFeed>();
let nextSession = 1;

function feedFrom(id: number, session: ImportSession, port: MessagePort): PortFeed {
  const feed: PortFeed = { port, lines: [], keys: [], ended: false, failed: null, onSettled: null, flow: null };
  port.on('message', (msg: ImportPortMessage) => {
    if (feed.ended || feed.failed) return;
    if (msg.type === 'flow') {
      feed.flow = new Int32Array(msg.counters);
      return;
    }
    if (msg.type === 'items') {
      try {
        for (const it of msg.items) {
          feed.lines.push(it.line);
          feed.keys.push(it.sourceKey);
        }
        session.addPrepared(msg.items.map((it) => it.prepared));
        if (feed.flow) {
          Atomics.add(feed.flow, IMPORT_FLOW.written, 1);
          Atomics.notify(feed.flow, IMPORT_FLOW.written);
        }
        return;
      } catch (err) {
        feed.failed = err;
        session.rollback();
        sessions.delete(id);
      }
    } else feed.ended = true;
    closeFeed(feed);
    feed.onSettled?.();
  });
  return feed;
}

/** Stops reading the port, and tells a parser waiting for room that none is coming. */
function closeFeed(feed: PortFeed): void {
  feed.port.close();
  if (feed.flow) {
    Atomics.store(feed.flow, IMPORT_FLOW.closed, 1);
    Atomics.notify(feed.flow, IMPORT_FLOW.written);
  }
}

/** The result with each entry's line and source key, as the parser gave them. */
function placed(result: ImportResult, feed: PortFeed): ImportResult {
  const place = <T extends { index: number }>(e: T): T => {
    const line = feed.lines[e.index];
    const sourceKey = feed.keys[e.index];
    return { ...e, ...(line !== undefined ? { line } : {}), ...(sourceKey !== undefined ? { sourceKey } : {}) };
  };
  return { ...result, duplicates: result.duplicates.map(place), errors: result.errors.map(place), warnings: result.warnings.map(place) };
}

function commitSession(id: number): ImportResult {
  const s = sessions.get(id);
  if (!s) throw new Error('The import session is gone.');
  sessions.delete(id);
  const result = s.commit();
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
    case 'call': {
      const fn = (opened.library as unknown as Record<string, (...args: unknown[]) => unknown>)[req.method];
      if (typeof fn !== 'function') throw new Error(`Unknown library method ${req.method}`);
      return fn.apply(opened.library, req.args);
    }
    case 'enrichment': {
      const fn = (opened.enrichment as unknown as Record<string, (...args: unknown[]) => unknown>)[req.method];
      if (typeof fn !== 'function') throw new Error(`Unknown enrichment method ${req.method}`);
      return fn.apply(opened.enrichment, req.args);
    }
    case 'graph': {
      const fn = (opened.graph as unknown as Record<string, (...args: unknown[]) => unknown>)[req.method];
      if (typeof fn !== 'function') throw new Error(`Unknown graph method ${req.method}`);
      return fn.apply(opened.graph, req.args);
    }
    case 'import.begin': {
      if (sessions.size > 0) throw new CoreError('CONFLICT', 'Another import is still running; wait for it to finish.');
      const id = nextSession++;
      const session = opened.library.beginImport({ ...(req.source !== undefined ? { source: req.source } : {}) });
      sessions.set(id, session);
      if (req.port) feeds.set(id, feedFrom(id, session, req.port));
      return id;
    }
    case 'import.chunk': {
      const s = sessions.get(req.session);
      if (!s) throw new Error('The import session is gone.');
      try {
        s.add(req.items);
      } catch (err) {
        s.rollback();
        sessions.delete(req.session);
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
            resolve(placed(commitSession(req.session), feed));
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        };
        if (feed.ended || feed.failed) settle();
        else feed.onSettled = settle;
      });
    }
    case 'import.abort': {
      sessions.get(req.session)?.rollback();
      sessions.delete(req.session);
      const feed = feeds.get(req.session);
      feeds.delete(req.session);
      if (feed) {
        feed.failed ??= new Error('The import was cancelled.');
        closeFeed(feed);
        feed.onSettled?.();
      }
      return null;
    }
    case 'backup':
      return backup(req.reason);
    case 'inspect':
      return inspectBackup(req.file, init.nativeBinding);
    case 'search-index': {
      if (sessions.size > 0) throw new CoreError('CONFLICT', 'An import is still running; check the search index when it has finished.');
      const before = checkSearchIndex(opened.db);
      const rebuild = req.rebuild === 'always' || (req.rebuild === 'if-drifted' && searchIndexDrift(before));
      return { before, after: rebuild ? rebuildSearchIndex(opened.db) : null };
    }
    case 'close':
      if (timer) clearInterval(timer);
      for (const s of sessions.values()) s.rollback();
      sessions.clear();
      for (const f of feeds.values()) closeFeed(f);
      feeds.clear();
      opened.close();
      return null;
  }
}

port.on('message', (req: Request) => {
  try {
    const value = handle(req);
    if (value instanceof Promise) {
      value.then(
        (v: unknown) => send({ type: 'result', id: req.id, value: v }),
        (err: unknown) => send({ type: 'error', id: req.id, error: wire(err) }),
      );
    } else send({ type: 'result', id: req.id, value });
  } catch (err) {
    // A write that failed mid-way (SQLITE_FULL in a statement run outside db.transaction) must not
    // leave a transaction open for the next call to write into; an import's own is ended by its session.
    if (sessions.size === 0 && opened.db.open && opened.db.inTransaction) opened.db.exec('ROLLBACK');
    send({ type: 'error', id: req.id, error: wire(err) });
  }
  if (req.op === 'close') port.close();
});
