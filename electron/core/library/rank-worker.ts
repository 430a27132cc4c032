// The search helper thread (see split-rank.ts): a read-only connection that ranks one half of a broad
// search while the library worker ranks the other. It runs only the ranking statements the Library
// builds, one at a time, and posts each answer before raising the shared counter.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { isRankQuery, type RankReply, type RankRequest, type RankWorkerInit } from './split-rank';

const init = workerData as RankWorkerInit;
if (!parentPort) throw new Error('rank-worker.ts runs only as a worker thread.');
const flag = new Int32Array(init.flag);

let db: Database.Database;
try {
  db = new Database(init.file, { readonly: true, fileMustExist: true, ...(init.nativeBinding ? { nativeBinding: init.nativeBinding } : {}) });
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -16384');
} catch (err) {
  parentPort.postMessage({ type: 'failed', error: err instanceof Error ? err.message : String(err) });
  process.exit(0);
}

// Queries differ only in their parameters while one search is typed; a few statements cover them.
const statements = new Map<string, Database.Statement>();
function statement(text: string): Database.Statement {
  let st = statements.get(text);
  if (!st) {
    if (statements.size >= 64) statements.clear();
    st = db.prepare(text).raw();
    statements.set(text, st);
  }
  return st;
}

init.port.on('message', (req: RankRequest) => {
  // Claim the request; the library worker may have taken it back already (split-rank.ts).
  if (Atomics.compareExchange(flag, 1, req.id, 0) !== req.id) return;
  let reply: RankReply;
  try {
    if (!isRankQuery(req.text)) throw new Error('not a ranking statement');
    reply = { id: req.id, rows: statement(req.text).all(...req.params) as [number, number][] };
  } catch (err) {
    reply = { id: req.id, error: err instanceof Error ? err.message : String(err) };
  }
  init.port.postMessage(reply);
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
});
parentPort.postMessage({ type: 'ready' });
