// The editor API binds its port before the library is open: editors that probe at start (probe=1,
// api.ready) are answered at once, every other request waits for the library and is then answered
// as usual, and a library that cannot open fails the waiting requests with a plain 503.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../../electron/api/server';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { tempDir } from '../../helpers/tmp';
import { BIB, send } from './helpers';

const CURL = { 'User-Agent': 'curl/8.5.0' };
const rpc = (port: number, body: unknown) => {
  const text = JSON.stringify(body);
  return send(
    port,
    'POST',
    '/better-bibtex/json-rpc',
    { ...CURL, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) },
    text,
  );
};

describe('the editor API while the library opens', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('answers probe=1 and api.ready before the core is up, and holds the rest until it is', async () => {
    const dir = tempDir('citewise-api-early-');
    cleanup.push(() => dir.remove());
    let coreUp!: (core: Core) => void;
    const starting = new Promise<Core>((resolve) => (coreUp = resolve));
    const api: ApiServer = await startApiServer({ core: starting, port: 0, openPicker: () => {} });
    cleanup.push(() => api.close());

    expect(await send(api.port, 'GET', '/better-bibtex/cayw?probe=1', CURL)).toMatchObject({
      status: 200,
      body: 'ready',
    });
    const ready = JSON.parse((await rpc(api.port, { jsonrpc: '2.0', id: 1, method: 'api.ready' })).body);
    expect(ready).toMatchObject({ jsonrpc: '2.0', id: 1, result: { citewise: expect.any(String) } });
    // A batch of api.ready calls is answered early too; one with anything else waits.
    expect(
      JSON.parse(
        (
          await rpc(api.port, [
            { jsonrpc: '2.0', id: 1, method: 'api.ready' },
            { jsonrpc: '2.0', id: 2, method: 'api.ready' },
          ])
        ).body,
      ),
    ).toHaveLength(2);

    let searched = false;
    const search = rpc(api.port, { jsonrpc: '2.0', id: 3, method: 'item.search', params: ['adams'] }).then((r) => {
      searched = true;
      return r;
    });
    const mixed = rpc(api.port, [
      { jsonrpc: '2.0', id: 4, method: 'api.ready' },
      { jsonrpc: '2.0', id: 5, method: 'item.citationkey', params: [['1:1']] },
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(searched).toBe(false);

    const core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    cleanup.push(() => core.close());
    expect(await core.invoke('library.import', { text: BIB, fileName: 'refs.bib' })).toMatchObject({ ok: true });
    coreUp(core);
    const found = JSON.parse((await search).body) as { result: { citekey: string }[] };
    expect(found.result.map((r) => r.citekey)).toEqual(['adams2001']);
    const answers = JSON.parse((await mixed).body) as { id: number; result?: unknown }[];
    expect(answers.map((a) => a.id)).toEqual([4, 5]);
    expect(answers[0]!.result).toMatchObject({ citewise: expect.any(String) });
    // Once open, everything goes through the library as before.
    expect(await send(api.port, 'GET', '/better-bibtex/cayw?probe=1', CURL)).toMatchObject({
      status: 200,
      body: 'ready',
    });
  });

  it('a library that cannot open: the waiting requests get a plain 503, the probe still answers', async () => {
    let fail!: (err: Error) => void;
    const starting = new Promise<Core>((_, reject) => (fail = reject));
    const api = await startApiServer({ core: starting, port: 0, openPicker: () => {} });
    cleanup.push(() => api.close());
    const waiting = send(api.port, 'GET', '/better-bibtex/cayw?format=pandoc&selected=1', CURL);
    const rpcWaiting = rpc(api.port, { jsonrpc: '2.0', id: 1, method: 'item.search', params: ['x'] });
    await new Promise((r) => setTimeout(r, 100));
    fail(new Error('The library file is locked by another program'));
    expect(await waiting).toMatchObject({
      status: 503,
      body: 'Citewise: the library could not be opened: The library file is locked by another program\n',
    });
    expect(await rpcWaiting).toMatchObject({ status: 503 });
    expect(await send(api.port, 'GET', '/better-bibtex/cayw?probe=1', CURL)).toMatchObject({
      status: 200,
      body: 'ready',
    });
  });
});
