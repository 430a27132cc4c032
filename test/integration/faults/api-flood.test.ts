// Issue 41, point 6: one client could exhaust the editor API. A JSON-RPC batch of 100,000 calls reached
// 3.7 GB and 9 minutes of CPU; 300 concurrent whole-library pull exports queued in the library worker
// blocked every search for 4.5 minutes after the clients had gone; ~20,000 idle connections used every
// file descriptor and the server answered no one; a body sent slowly held its connection for ever.
// The limits are lowered here so each is crossed with a handful of requests; each is tested below,
// at and above it.
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportGate } from '../../../electron/api/export-gate';
import { MAX_BATCH } from '../../../electron/api/json-rpc';
import { answerPicker, postRpc, send, startFixture, type Fixture } from '../api/helpers';

const JSON_POST = { 'Content-Type': 'application/json', 'User-Agent': 'curl/8.5.0' };
const LIMITS = {
  maxConnections: 12,
  requestTimeoutMs: 1500,
  headersTimeoutMs: 1500,
  maxWaitingExports: 2,
  maxPickers: 2,
  maxBatchAnswerChars: 4000,
};

/** A connection that sends `first` (maybe nothing) and then waits; resolves once connected. */
function openSocket(port: number, first = ''): Promise<Socket & { closedAt?: number; received: string }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1') as Socket & { closedAt?: number; received: string };
    s.received = '';
    s.on('data', (d) => (s.received += String(d)));
    s.on('close', () => (s.closedAt = Date.now()));
    s.on('error', () => {});
    s.once('connect', () => {
      if (first !== '') s.write(first);
      resolve(s);
    });
    s.once('error', reject);
  });
}

describe('the editor API under one greedy client', { timeout: 120_000 }, () => {
  let f: Fixture;
  let port: number;
  const rpc = (body: string) => postRpc(port, JSON_POST, body);
  const call = (i: number) => ({ jsonrpc: '2.0', id: i, method: 'user.groups' });

  beforeAll(async () => {
    f = await startFixture({ limits: LIMITS });
    port = f.api.port;
  });
  afterAll(async () => {
    await f.close();
  });

  it('answers a batch of 100 calls, and refuses 101 or 100,000 at once without running any', async () => {
    const hundred = JSON.parse((await rpc(JSON.stringify(Array.from({ length: MAX_BATCH }, (_, i) => call(i))))).body);
    expect(hundred).toHaveLength(MAX_BATCH);
    for (const n of [MAX_BATCH + 1, 100_000]) {
      const r = await rpc(JSON.stringify(Array.from({ length: n }, (_, i) => call(i))));
      const answer = JSON.parse(r.body) as { error: { code: number; message: string } };
      expect(answer.error.code).toBe(-32600);
      expect(answer.error.message).toContain(`at most ${MAX_BATCH} calls, and this one has ${n}`);
      expect(r.body.length).toBeLessThan(400);
    }
  });

  it("stops a batch's answer from growing past its bound: the calls after are answered, not run", async () => {
    const batch = Array.from({ length: 60 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'item.export',
      params: [['adams2001'], 'biblatex'],
    }));
    const answers = JSON.parse((await rpc(JSON.stringify(batch))).body) as { id: number; error?: { code: number } }[];
    expect(answers).toHaveLength(60);
    const unrun = answers.filter((a) => a.error?.code === -32001);
    expect(unrun.length).toBeGreaterThan(0);
    expect(answers.length - unrun.length).toBeGreaterThan(0);
    // Within the bound (a smaller batch) everything runs.
    const small = JSON.parse((await rpc(JSON.stringify(batch.slice(0, 2)))).body) as { error?: unknown }[];
    expect(small.every((a) => a.error === undefined)).toBe(true);
  });

  it('holds at most maxConnections: idle ones give way to newcomers, which are answered', async () => {
    const idle: Awaited<ReturnType<typeof openSocket>>[] = [];
    await expect.poll(() => f.api.connections.count).toBe(0);
    const atStart = f.api.connections.dropped;
    for (let i = 0; i < LIMITS.maxConnections; i++) idle.push(await openSocket(port));
    // Up to the bound, nobody is dropped.
    await expect.poll(() => f.api.connections.count).toBe(LIMITS.maxConnections);
    expect(f.api.connections.dropped).toBe(atStart);
    const before = f.api.connections.dropped;
    for (let i = 0; i < 40; i++) idle.push(await openSocket(port));
    await expect.poll(() => f.api.connections.dropped - before).toBe(40);
    expect(f.api.connections.count).toBeLessThanOrEqual(LIMITS.maxConnections);
    // The oldest went first, and a real client still gets its answer.
    expect(idle[0]!.destroyed || idle[0]!.closedAt !== undefined).toBe(true);
    expect((await send(port, 'GET', '/better-bibtex/cayw?probe=1', {})).body).toBe('ready');
    for (const s of idle) s.destroy();
  });

  it('never drops a connection that is being answered (a held pick) for a newcomer', async () => {
    const opened = f.nextPicker();
    const held = send(port, 'GET', '/better-bibtex/cayw?format=pandoc', {});
    const session = await opened;
    const flood: Socket[] = [];
    for (let i = 0; i < 40; i++) flood.push(await openSocket(port));
    expect(f.api.pickers.open).toBe(1);
    await answerPicker(port, session, [{ citationKey: 'adams2001' }]);
    expect((await held).body).toBe('@adams2001');
    for (const s of flood) s.destroy();
  });

  it('closes a connection whose request does not arrive in time: nothing sent, or a body sent slowly', async () => {
    const silent = await openSocket(port);
    const slow = await openSocket(
      port,
      `POST /better-bibtex/json-rpc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"js`,
    );
    const drip = setInterval(() => slow.write(' '), 200);
    try {
      await expect
        .poll(() => slow.closedAt !== undefined && silent.closedAt !== undefined, { timeout: 30_000 })
        .toBe(true);
      expect(slow.received).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(drip);
    }
  });

  it('answers 413 and closes the connection for a body over 16 MB, reading no more of it', async () => {
    const s = await openSocket(
      port,
      `POST /better-bibtex/json-rpc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 17 && !s.destroyed && s.closedAt === undefined; i++)
      await new Promise<void>((resolve) => (s.write(chunk) ? resolve() : s.once('drain', resolve)));
    await expect.poll(() => s.received, { timeout: 30_000 }).toMatch(/^HTTP\/1\.1 413/);
    await expect.poll(() => s.closedAt !== undefined, { timeout: 30_000 }).toBe(true);
  });

  it('lets one export run and two wait; more are refused with 503, and those whose client left never run', async () => {
    const gate: ExportGate = await f.api.exports();
    let release!: () => void;
    const blocker = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    // Two pull exports wait behind it; their clients will leave.
    const leaving = [0, 1].map(() => {
      const req = request({
        host: '127.0.0.1',
        port,
        path: '/better-bibtex/library?/1/library.biblatex',
        headers: { Host: `127.0.0.1:${port}` },
      });
      req.on('error', () => {});
      req.end();
      return req;
    });
    await expect.poll(() => gate.waiting).toBe(LIMITS.maxWaitingExports);
    const refused = await send(port, 'GET', '/better-bibtex/library?/1/library.biblatex', {});
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toContain('busy');
    const exportCall = { jsonrpc: '2.0', id: 1, method: 'item.export', params: [['adams2001'], 'bibtex'] };
    const rpcRefused = JSON.parse((await rpc(JSON.stringify(exportCall))).body) as { error: { code: number } };
    expect(rpcRefused.error.code).toBe(-32000);
    for (const req of leaving) req.destroy();
    await expect.poll(() => gate.waiting).toBe(0);
    release();
    await blocker;
    // The queue is empty again: the next export runs at once.
    const next = await send(port, 'GET', '/better-bibtex/library?/1/library.biblatex', {});
    expect(next.status).toBe(200);
    expect(next.body).toContain('@article{adams2001,');
  });

  it('opens at most maxPickers pickers at once', async () => {
    const held = [];
    for (let i = 0; i < LIMITS.maxPickers; i++) {
      const opened = f.nextPicker();
      held.push(send(port, 'GET', '/better-bibtex/cayw?format=pandoc', {}));
      await opened;
    }
    const third = await send(port, 'GET', '/better-bibtex/cayw?format=pandoc', {});
    expect(third.status).toBe(503);
    expect(third.body).toContain('pickers are already waiting');
    f.api.pickers.cancelAll();
    await Promise.all(held);
    // Without a picker (selected=1) the bound does not apply.
    expect((await send(port, 'GET', '/better-bibtex/cayw?format=pandoc&selected=1', {})).status).toBe(200);
  });
});
