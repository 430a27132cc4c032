// Issue 41, point 6, in browser mode: ~20,000 idle connections used every file descriptor and the
// host server answered no one, its window included. Now it holds a bounded number of connections,
// the longest-idle giving way (an open WebSocket never does), and closes those that send nothing.
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { startHost, type Host } from '../../../electron/host/server';
import { fakeRendererDir } from '../../helpers/transports';
import { tempDir } from '../../helpers/tmp';
import { hostRequest } from '../../helpers/host-requests';

const MAX = 10;

function idle(port: number): Promise<Socket & { gone: boolean }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1') as Socket & { gone: boolean };
    s.gone = false;
    // Read what the server sends (a 408), so its closing the connection is seen.
    s.resume();
    s.on('close', () => (s.gone = true));
    s.on('error', () => {});
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

const get = (port: number, headers: Record<string, string>) => hostRequest(port, '/', headers);

describe('browser mode under a flood of connections', { timeout: 120_000 }, () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;
  let host: Host;
  let cookie: string;

  beforeAll(async () => {
    dir = tempDir();
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    host = await startHost({
      core,
      rendererDir: fakeRendererDir(dir.path),
      maxConnections: MAX,
      headersTimeoutMs: 1500,
    });
    const first = await get(host.port, {});
    expect(first.status).toBe(401);
    const visit = await hostRequest(host.port, `/?token=${host.token}`);
    expect(visit.status).toBe(303);
    cookie = String(visit.headers['set-cookie']).split(';')[0]!;
  });
  afterAll(async () => {
    await host.close();
    await core.close();
    dir.remove();
  });

  it('keeps its page and WebSocket answering while thousands of idle connections come', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers: { Cookie: cookie }, origin: host.origin });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const flood: Awaited<ReturnType<typeof idle>>[] = [];
    await expect.poll(() => host.connections.count).toBe(1);
    for (let i = 0; i < MAX - 1; i++) flood.push(await idle(host.port));
    // Up to the bound (the WebSocket is one of them), nobody is dropped.
    await expect.poll(() => host.connections.count).toBe(MAX);
    expect(host.connections.dropped).toBe(0);
    for (let i = 0; i < 2000; i++) flood.push(await idle(host.port));
    await expect.poll(() => host.connections.dropped).toBe(2000);
    expect(host.connections.count).toBeLessThanOrEqual(MAX);
    // The page still loads, and the WebSocket (in use) was never dropped.
    expect((await get(host.port, { Cookie: cookie })).status).toBe(200);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    const answer = new Promise<unknown>((resolve) => ws.once('message', (d) => resolve(JSON.parse(String(d)))));
    ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'settings.get', input: {} }));
    expect(await answer).toMatchObject({ type: 'result', id: 1, result: { ok: true } });
    for (const s of flood) s.destroy();
    ws.close();
  });

  it('closes a connection that sends nothing', async () => {
    const s = await idle(host.port);
    await expect.poll(() => s.gone, { timeout: 30_000 }).toBe(true);
  });
});
