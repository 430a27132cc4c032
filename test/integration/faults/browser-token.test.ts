// Issue 18, point 5: the printed address's token is single-use (a browser's history keeps it), and the
// exchange redirects only to the app's own root, never to a path the request chose.
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { startHost, type Host } from '../../../electron/host/server';
import { fakeRendererDir } from '../../helpers/transports';
import { tempDir } from '../../helpers/tmp';
import { hostRequest } from '../../helpers/host-requests';

const get = hostRequest;

describe('browser mode launch token', { timeout: 60_000 }, () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;
  let host: Host;

  beforeEach(async () => {
    dir = tempDir();
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    host = await startHost({ core, rendererDir: fakeRendererDir(dir.path) });
  });
  afterEach(async () => {
    await host.close();
    await core.close();
    dir.remove();
  });

  it('works once: the first visit gets the session cookie, a later visit with the token is refused', async () => {
    const first = await get(host.port, `/?token=${host.token}`);
    expect(first.status).toBe(303);
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    expect(cookie).not.toContain(host.token);
    // The cookie opens the app; the token from the history no longer does, nor as a cookie.
    expect((await get(host.port, '/', { Cookie: cookie })).status).toBe(200);
    const again = await get(host.port, `/?token=${host.token}`);
    expect(again.status).toBe(401);
    expect(again.body).toContain('already opened once');
    expect(again.headers['set-cookie']).toBeUndefined();
    expect((await get(host.port, '/', { Cookie: `citewise_${host.port}=${host.token}` })).status).toBe(401);
    // The browser that has the session may open the address again (a reload): it just goes home.
    const reload = await get(host.port, `/?token=${host.token}`, { Cookie: cookie });
    expect(reload.status).toBe(303);
    expect(reload.headers.location).toBe('/');
    // Our own page still connects its WebSocket with the cookie.
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers: { Cookie: cookie }, origin: host.origin });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_q, res) => reject(new Error(`refused ${res.statusCode}`)));
    });
    ws.close();
  });

  it('redirects only to /, whatever path carried the token', async () => {
    for (const path of [
      '/.//evil.example/',
      '//evil.example/',
      '/%2F%2Fevil.example/',
      '/\\\\evil.example/',
      '/library/../..//evil.example',
    ]) {
      await host.close();
      host = await startHost({ core, rendererDir: fakeRendererDir(dir.path) });
      const r = await get(host.port, `${path}?token=${host.token}`);
      expect(r.status, path).toBe(303);
      expect(r.headers.location, path).toBe('/');
    }
  });
});
