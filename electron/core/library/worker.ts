// The library's worker thread: it owns the SQLite connections and does every read and write, so a
// 100,000-item import or a backup never stalls the thread that answers the UI. The facade
// (client.ts) talks to it with the messages of protocol.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { CoreError } from '../errors';
import { backupDatabase } from './backup';
import type { ImportSession } from './library';
import { openLibrary, type OpenedLibrary } from './open';
import type { Request, Response, WireError, WorkerInit } from './protocol';

const port = parentPort;
if (!port) throw new Error('worker.ts runs only as a worker thread.');
const init = workerData as WorkerInit;

function wire(err: unknown): WireError {
  if (err instanceof CoreError) return { name: err.name, message: err.message, code: err.code, details: err.details };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

const send = (msg: Response): void => port.postMessage(msg);

let opened: OpenedLibrary;
try {
  opened = openLibrary(init.file, { nativeBinding: init.nativeBinding, backupDir: init.backupDir });
} catch (err) {
  send({ type: 'failed', error: wire(err) });
  process.exit(0);
}
send({ type: 'ready', recovery: opened.recovery, migrationBackup: opened.migrationBackup, backupDir: opened.backupDir });

const sessions = new Map<number, ImportSession>();
let nextSession = 1;
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
    case 'import.begin': {
      if (sessions.size > 0) throw new CoreError('CONFLICT', 'Another import is still running; wait for it to finish.');
      const id = nextSession++;
      sessions.set(id, opened.library.beginImport({ ...(req.source !== undefined ? { source: req.source } : {}) }));
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
      const s = sessions.get(req.session);
      if (!s) throw new Error('The import session is gone.');
      sessions.delete(req.session);
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
    case 'import.abort': {
      sessions.get(req.session)?.rollback();
      sessions.delete(req.session);
      return null;
    }
    case 'backup':
      return backup(req.reason);
    case 'close':
      if (timer) clearInterval(timer);
      for (const s of sessions.values()) s.rollback();
      sessions.clear();
      opened.close();
      return null;
  }
}

port.on('message', (req: Request) => {
  try {
    send({ type: 'result', id: req.id, value: handle(req) });
  } catch (err) {
    send({ type: 'error', id: req.id, error: wire(err) });
  }
  if (req.op === 'close') port.close();
});
