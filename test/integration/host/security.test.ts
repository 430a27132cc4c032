// Host mode's guards, at the HTTP level: loopback only, the token on every request, Host and Origin
// checked, the CSP header on every response, nothing outside the renderer directory served.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { startHost, type Host } from '../../../electron/host/server';
import { fakeRendererDir } from '../../helpers/transports';
import { tempDir } from '../../helpers/tmp';
import { hostRequest, wsOutcome, type HostReply } from '../../helpers/host-requests';

type Reply = HostReply;
const get = hostRequest;

describe('host mode security', () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;
  let coreOwnListeners: number;
  let host: Host;
  let cookie: string;
  let firstVisit: Reply;

  beforeAll(async () => {
    dir = tempDir();
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    coreOwnListeners = core.events.listenerCount();
    host = await startHost({ core, rendererDir: fakeRendererDir(dir.path) });
    writeFileSync(join(dir.path, 'secret.txt'), 'outside the renderer');
    // The printed address works once: its first visit hands out the session cookie the tests use.
    firstVisit = await get(host.port, `/?token=${host.token}`);
    cookie = String(firstVisit.headers['set-cookie']).split(';')[0]!;
  });

  afterAll(async () => {
    await host.close();
    await core.close();
    dir.remove();
  });

  it('listens on 127.0.0.1 only, with a long random token', () => {
    expect(host.origin).toBe(`http://127.0.0.1:${host.port}`);
    expect(host.token.length).toBeGreaterThanOrEqual(40);
  });

  it('refuses a request without the token, or with a wrong one, with 401', async () => {
    for (const headers of [{}, { Cookie: `citewise_${host.port}=wrong` }, { Authorization: 'Bearer wrong' }] as Record<
      string,
      string
    >[]) {
      const r = await get(host.port, '/', headers);
      expect(r.status).toBe(401);
      expect(r.body).toContain('needs the token');
    }
    expect((await get(host.port, '/?token=wrong')).status).toBe(401);
    expect((await get(host.port, '/assets/app.js')).status).toBe(401);
  });

  it('swaps the launch token for an HttpOnly, SameSite=Strict session cookie of its own', () => {
    const r = firstVisit;
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/');
    expect(String(r.headers['set-cookie'])).toMatch(
      new RegExp(`^citewise_${host.port}=[\\w-]{40,}; HttpOnly; SameSite=Strict; Path=/`),
    );
    expect(String(r.headers['set-cookie'])).not.toContain(host.token);
  });

  it('serves the app with the session cookie, always with the CSP and hardening headers', async () => {
    // The launch token was spent on the first visit: as a Bearer header it no longer opens anything.
    expect((await get(host.port, '/', { Authorization: `Bearer ${host.token}` })).status).toBe(401);
    for (const headers of [{ Cookie: cookie }] as Record<string, string>[]) {
      const r = await get(host.port, '/', headers);
      expect(r.status).toBe(200);
      expect(r.body).toContain('<title>Citewise</title>');
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval)/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(String((await get(host.port, '/')).headers['content-security-policy'])).toContain("default-src 'none'");
  });

  it('refuses a foreign Host header (DNS rebinding) even with the token', async () => {
    const r = await get(host.port, '/', { Cookie: cookie, Host: `evil.example:${host.port}` });
    expect(r.status).toBe(403);
  });

  it('serves nothing outside the renderer directory', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%00index.html']) {
      const r = await get(host.port, path, { Cookie: cookie });
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain('outside the renderer');
    }
  });

  it('accepts only GET and HEAD', async () => {
    expect((await get(host.port, '/', { Cookie: cookie }, 'POST')).status).toBe(405);
  });

  it('refuses a WebSocket without the token', async () => {
    expect(await wsOutcome(`ws://127.0.0.1:${host.port}/ipc`)).toBe('refused 401');
    expect(await wsOutcome(`ws://127.0.0.1:${host.port}/ipc?token=wrong`)).toBe('refused 401');
  });

  it('refuses an off-origin WebSocket even when it carries the token', async () => {
    expect(
      await wsOutcome(`ws://127.0.0.1:${host.port}/ipc`, {
        headers: { Cookie: cookie },
        origin: 'http://evil.example',
      }),
    ).toBe('refused 403');
    expect(
      await wsOutcome(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, { origin: 'http://127.0.0.1:1' }),
    ).toMatch(/^refused 40[13]$/);
    // A cookie alone, without an Origin, is not a page of ours either.
    expect(await wsOutcome(`ws://127.0.0.1:${host.port}/ipc`, { headers: { Cookie: cookie } })).toBe('refused 403');
  });

  it('accepts our own page’s WebSocket', async () => {
    expect(
      await wsOutcome(`ws://127.0.0.1:${host.port}/ipc`, { headers: { Cookie: cookie }, origin: host.origin }),
    ).toBe('open');
  });

  it('closes a socket that sends garbage and answers a malformed request as INVALID_INPUT', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, { headers: { Cookie: cookie }, origin: host.origin });
    await new Promise((r) => ws.once('open', r));
    const reply = new Promise<unknown>((r) => ws.once('message', (d) => r(JSON.parse(String(d)))));
    ws.send(JSON.stringify({ type: 'invoke', id: 5, channel: 42 }));
    expect(await reply).toMatchObject({
      type: 'result',
      id: 5,
      result: { ok: false, error: { code: 'INVALID_INPUT' } },
    });
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send('{not json');
    expect(await closed).toBe(1007);
    await expect.poll(() => host.connectionCount()).toBe(0);
    // The core listens to itself too (the undo watcher): closed sockets leave only those behind.
    expect(core.events.listenerCount()).toBe(coreOwnListeners);
  });
});
