// The one request/response scheme of the workers (worker-rpc.ts): replies and errors cross as they
// were thrown; a worker that fails or exits rejects every call it left pending with an error naming
// it, without an unhandled rejection; and each real worker kind, killed mid-call, does so too, then
// restarts (citations, PDFs) or refuses clearly (the library, closed) as before.
import { join } from 'node:path';
import { Worker, type TransferListItem } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { WorkerPool } from '../../../electron/core/formats/cite/pool';
import { importInWorker } from '../../../electron/core/formats';
import { LibraryClient } from '../../../electron/core/library/client';
import { PdfReader } from '../../../electron/core/pdf/run-in-worker';
import { WorkerRpc, WorkerStopped } from '../../../electron/core/worker-rpc';
import { makePdf } from '../../helpers/pdfs';
import { tempDir } from '../../helpers/tmp';

// A worker that answers { op } requests the way the real ones do (worker-rpc.ts replied/refused).
const ECHO = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m.op === 'echo') parentPort.postMessage({ type: 'reply', id: m.id, ok: true, value: m.value });
  else if (m.op === 'size') parentPort.postMessage({ type: 'reply', id: m.id, ok: true, value: m.buffer.byteLength });
  else if (m.op === 'refuse') parentPort.postMessage({ type: 'reply', id: m.id, ok: false, error: m.error });
  else if (m.op === 'notice') parentPort.postMessage({ type: 'notice', text: 'hello' });
  else if (m.op === 'throw') setTimeout(() => { throw new Error('boom'); }, 0);
  else if (m.op === 'throw-value') setTimeout(() => { throw m.value; }, 0);
  else if (m.op === 'exit') process.exit(3);
  // 'hang': never answers
});`;

interface EchoRequest {
  id: number;
  op: string;
  value?: unknown;
  error?: unknown;
  buffer?: ArrayBuffer;
}

const started: Worker[] = [];
function echo(onMessage?: (m: unknown) => void): WorkerRpc<EchoRequest> {
  const worker = new Worker(ECHO, { eval: true });
  started.push(worker);
  return new WorkerRpc<EchoRequest>(worker, { what: 'test worker', ...(onMessage ? { onMessage } : {}) });
}
afterEach(async () => {
  for (const w of started.splice(0)) await w.terminate();
  vi.restoreAllMocks();
});

/** Terminates the worker that is sent the first message `match` accepts, just before that message is posted. */
function killOn(match: (message: Record<string, unknown>) => boolean): void {
  const post = Worker.prototype.postMessage;
  let done = false;
  vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (
    this: Worker,
    message: unknown,
    transfer?: readonly TransferListItem[],
  ) {
    if (!done && typeof message === 'object' && message !== null && match(message as Record<string, unknown>)) {
      done = true;
      void this.terminate();
    }
    post.call(this, message, transfer);
  });
}

describe('WorkerRpc', () => {
  it('answers calls by id, in any order, with other messages passed on', async () => {
    const notices: unknown[] = [];
    const rpc = echo((m) => notices.push(m));
    const hang = rpc.call({ id: 0, op: 'hang' });
    const [a, b] = await Promise.all([
      rpc.call({ id: 0, op: 'echo', value: { x: [1, 2] } }),
      rpc.call({ id: 0, op: 'echo', value: 'two' }),
    ]);
    expect([a, b]).toEqual([{ x: [1, 2] }, 'two']);
    // A notice is no reply: the call that asked for it stays pending.
    const noticed = rpc.call({ id: 0, op: 'notice' });
    await vi.waitFor(() => expect(notices).toEqual([{ type: 'notice', text: 'hello' }]));
    expect(rpc.pending).toBe(2);
    await rpc.worker.terminate();
    await expect(hang).rejects.toThrow('The test worker stopped (exit code 1).');
    await expect(noticed).rejects.toThrow('The test worker stopped (exit code 1).');
  });

  it('transfers what the transfer list names', async () => {
    const rpc = echo();
    const buffer = new ArrayBuffer(64);
    expect(await rpc.call({ id: 0, op: 'size', buffer }, [buffer])).toBe(64);
    expect(buffer.byteLength).toBe(0);
  });

  it('brings errors back as the class and message they were thrown with', async () => {
    const rpc = echo();
    const coded = await rpc
      .call({
        id: 0,
        op: 'refuse',
        error: { name: 'CoreError', message: 'No such item.', code: 'NOT_FOUND', details: { id: 9 } },
      })
      .catch((e: unknown) => e);
    expect(coded).toBeInstanceOf(CoreError);
    expect(coded).toMatchObject({ code: 'NOT_FOUND', message: 'No such item.', details: { id: 9 } });
    const plain = await rpc
      .call({ id: 0, op: 'refuse', error: { name: 'RangeError', message: 'too far' } })
      .catch((e: unknown) => e);
    expect(plain).not.toBeInstanceOf(CoreError);
    expect(plain).toMatchObject({ name: 'RangeError', message: 'too far' });
  });

  it('rejects every pending call when the worker fails, naming it, and every later call', async () => {
    const stops: WorkerStopped[] = [];
    const worker = new Worker(ECHO, { eval: true });
    started.push(worker);
    const rpc = new WorkerRpc<EchoRequest>(worker, { what: 'test worker', onStop: (e) => stops.push(e) });
    const pending = [rpc.call({ id: 0, op: 'hang' }), rpc.call({ id: 0, op: 'throw' })];
    for (const p of pending) await expect(p).rejects.toThrow('The test worker failed: boom');
    await expect(pending[0]).rejects.toBeInstanceOf(WorkerStopped);
    await expect(rpc.call({ id: 0, op: 'echo' })).rejects.toThrow('The test worker failed: boom');
    await new Promise((r) => worker.once('exit', r));
    expect(stops).toHaveLength(1);
    expect(stops[0]!.failure?.message).toBe('boom');
  });

  it('names what a worker threw when it was no error with a message, never "failed: undefined"', async () => {
    const cases: [unknown, string][] = [
      [undefined, 'The test worker failed: it threw undefined, not an error'],
      [null, 'The test worker failed: it threw null, not an error'],
      ['disk gone', 'The test worker failed: it threw "disk gone"'],
      [7, 'The test worker failed: it threw number 7'],
      [{ code: 'SQLITE_BUSY', errno: 5 }, 'The test worker failed: it threw an object with code "SQLITE_BUSY"'],
      [{ a: 1, b: 2 }, 'The test worker failed: it threw an object with keys a, b'],
    ];
    for (const [value, message] of cases) {
      const rpc = echo();
      const call = rpc.call({ id: 0, op: 'throw-value', value });
      const err = await call.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkerStopped);
      expect((err as Error).message).toBe(message);
      expect((err as WorkerStopped).failure).toBeInstanceOf(Error);
    }
  });

  it('rejects pending calls with the exit code when the worker exits', async () => {
    const rpc = echo();
    const hang = rpc.call({ id: 0, op: 'hang' });
    const exit = rpc.call({ id: 0, op: 'exit' });
    await expect(hang).rejects.toThrow('The test worker stopped (exit code 3).');
    await expect(exit).rejects.toMatchObject({ code: 'INTERNAL', exitCode: 3 });
  });
});

describe('each worker kind killed mid-call', () => {
  it('library worker: the call rejects naming it, later calls are refused as closed', async () => {
    const dir = tempDir('citewise-rpc-');
    const client = await LibraryClient.start({ file: join(dir.path, 'citewise.sqlite') });
    try {
      killOn((m) => m.op === 'call' && m.method === 'count');
      await expect(client.listing.count()).rejects.toThrow(/^The library worker stopped \(exit code \d+\)\.$/);
      await expect(client.listing.list({ limit: 1 })).rejects.toThrow('The library is closed.');
    } finally {
      await client.close();
      dir.remove();
    }
  });

  it('citation worker: the job rejects naming it, the next job starts a new worker', async () => {
    const pool = new WorkerPool(1);
    try {
      killOn((m) => m.kind === 'stats');
      await expect(pool.run(0, () => ({ kind: 'stats' }))).rejects.toThrow(
        /^The citation worker stopped \(exit code \d+\)\.$/,
      );
      vi.restoreAllMocks();
      expect(await pool.run(0, () => ({ kind: 'stats' }))).toMatchObject({ kind: 'stats', value: expect.any(Object) });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('PDF worker: the read rejects naming it, the next read starts a new worker', async () => {
    const reader = new PdfReader({ timeLimitMs: 60_000 });
    const bytes = await makePdf({ title: 'A short paper', pages: [['Some text on the first page.']] });
    try {
      killOn((m) => m.bytes instanceof Uint8Array);
      await expect(reader.read(bytes, 10)).rejects.toThrow(/^The PDF worker stopped \(exit code \d+\)\.$/);
      vi.restoreAllMocks();
      expect(await reader.read(bytes, 10)).toMatchObject({ ok: true });
    } finally {
      await reader.close();
    }
  }, 120_000);

  it('import worker: the import rejects naming it (its one request is its workerData)', async () => {
    const on = Worker.prototype.on;
    let killed = false;
    vi.spyOn(Worker.prototype, 'on').mockImplementation(function (
      this: Worker,
      event: string | symbol,
      listener: (...args: unknown[]) => void,
    ) {
      if (!killed && event === 'exit') {
        killed = true;
        void this.terminate();
      }
      return on.call(this, event, listener);
    });
    await expect(
      importInWorker({ kind: 'text', text: '@article{a, title={T}}' }, { fileName: 'x.bib' }),
    ).rejects.toThrow(/The import worker stopped unexpectedly \(exit code \d+\)\./);
  });
});
