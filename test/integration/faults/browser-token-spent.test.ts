// Issue 40: browser mode's printed token worked once as a page address, but still opened the whole
// IPC session as `Authorization: Bearer` and as a WebSocket's `?token=` without an Origin: anyone who
// read it in a terminal's scrollback or a shell history could use it. It now works once, in whichever
// form it first comes; after that only the session it was exchanged for works.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { startHost, type Host } from '../../../electron/host/server';
import { fakeRendererDir } from '../../helpers/transports';
import { tempDir } from '../../helpers/tmp';
import { hostRequest, wsOutcome } from '../../helpers/host-requests';

const get = hostRequest;
const socket = wsOutcome;

describe('browser mode: the launch token is spent by its first use', { timeout: 60_000 }, () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;
  let host: Host;
  let ipc: string;

  beforeEach(async () => {
    dir = tempDir();
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    host = await startHost({ core, rendererDir: fakeRendererDir(dir.path) });
    ipc = `ws://127.0.0.1:${host.port}/ipc`;
  });
  afterEach(async () => {
    await host.close();
    await core.close();
    dir.remove();
  });

  it('after the printed address was opened, neither Bearer nor ?token= opens a session', async () => {
    const visit = await get(host.port, `/?token=${host.token}`);
    expect(visit.status).toBe(303);
    const cookie = String(visit.headers['set-cookie']).split(';')[0]!;
    const bearer = await get(host.port, '/', { Authorization: `Bearer ${host.token}` });
    expect(bearer.status).toBe(401);
    expect(bearer.body).toContain('already opened once');
    expect(await socket(`${ipc}?token=${host.token}`)).toBe('refused 401');
    expect(await socket(ipc, { headers: { Authorization: `Bearer ${host.token}` } })).toBe('refused 401');
    // The page that has the session still gets in, as the app's own window does.
    expect((await get(host.port, '/', { Cookie: cookie })).status).toBe(200);
    expect(await socket(ipc, { headers: { Cookie: cookie }, origin: host.origin })).toBe('open');
  });

  it('a program that uses the token first (a WebSocket) spends it for the page and everyone else', async () => {
    expect(await socket(`${ipc}?token=${host.token}`)).toBe('open');
    expect(await socket(`${ipc}?token=${host.token}`)).toBe('refused 401');
    expect(await socket(ipc, { headers: { Authorization: `Bearer ${host.token}` } })).toBe('refused 401');
    const page = await get(host.port, `/?token=${host.token}`);
    expect(page.status).toBe(401);
    expect(page.body).toContain('already opened once');
    expect(page.headers['set-cookie']).toBeUndefined();
  });

  it('as a Bearer header it works for one request', async () => {
    expect((await get(host.port, '/', { Authorization: `Bearer ${host.token}` })).status).toBe(200);
    expect((await get(host.port, '/', { Authorization: `Bearer ${host.token}` })).status).toBe(401);
    expect(await socket(`${ipc}?token=${host.token}`)).toBe('refused 401');
  });

  it('a wrong token spends nothing', async () => {
    expect((await get(host.port, '/', { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect(await socket(`${ipc}?token=wrong`)).toBe('refused 401');
    expect((await get(host.port, `/?token=${host.token}`)).status).toBe(303);
  });
});
