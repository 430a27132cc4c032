// Issue 18, point 3: no message brings browser mode down. Hostile payloads (deep nesting, size,
// prototype keys, wrong types) go to every channel of the contract over the real WebSocket; after
// each, the server must still answer the next call.
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_CHARS, MAX_INPUT_DEPTH, requests } from '../../../shared/ipc';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { startHost, type Host } from '../../../electron/host/server';
import { fakeRendererDir } from '../../helpers/transports';
import { tempDir } from '../../helpers/tmp';

interface WireReply {
  type: string;
  id: number;
  result: { ok: boolean; error?: { code: string; message: string }; value?: unknown };
}

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const manyValues = `[${new Array(2_100_000).fill('0').join(',')}]`;

/** Raw JSON texts of hostile inputs (raw, so "__proto__" arrives as a key, as from a real client). */
const HOSTILE: Record<string, string> = {
  'nested 5,000 deep': deep(5000),
  'nested 5,000 deep in a field': `{"payload":${deep(5000)},"id":${deep(5000)},"query":${deep(5000)}}`,
  'a __proto__ key': '{"__proto__":{"polluted":true},"payload":1}',
  'a constructor.prototype key': '{"constructor":{"prototype":{"polluted":true}}}',
  'a nested __proto__ key': '{"payload":{"a":{"__proto__":{"polluted":true}}}}',
  number: '42',
  string: '"x"',
  null: 'null',
  array: '[]',
  boolean: 'true',
  'huge number': '-1e308',
};

/** Heavy ones, sent to a few channels (every channel would only repeat the same parse). */
const HEAVY: Record<string, string> = {
  'nested 100,000 deep': deep(100_000),
  '8 MB string': JSON.stringify('x'.repeat(8 * 1024 * 1024)),
  '2.1 million values': manyValues,
  'just over the depth bound': `{"payload":${deep(MAX_INPUT_DEPTH)}}`,
};

describe('browser mode under hostile messages', { timeout: 240_000 }, () => {
  let dir: ReturnType<typeof tempDir>;
  let core: Core;
  let host: Host;
  let ws: WebSocket;
  const waiters = new Map<number, (r: WireReply) => void>();
  let nextId = 1;

  beforeAll(async () => {
    dir = tempDir();
    core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    host = await startHost({ core, rendererDir: fakeRendererDir(dir.path) });
    ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc`, {
      headers: { Authorization: `Bearer ${host.token}` },
      maxPayload: 128 * 1024 * 1024,
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as WireReply;
      if (msg.type === 'result') waiters.get(msg.id)?.(msg);
    });
  });

  afterAll(async () => {
    ws.close();
    await host.close();
    await core.close();
    dir.remove();
  });

  function call(channel: string, rawInput: string, ms = 30_000): Promise<WireReply> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(id);
        reject(new Error(`No answer to ${channel} within ${ms} ms (the server is down or stuck)`));
      }, ms);
      waiters.set(id, (r) => {
        clearTimeout(timer);
        waiters.delete(id);
        resolve(r);
      });
      ws.send(`{"type":"invoke","id":${id},"channel":${JSON.stringify(channel)},"input":${rawInput}}`);
    });
  }

  async function stillAnswers(): Promise<void> {
    const r = await call('diag.echo', '{"payload":"ping"}');
    expect(r.result).toEqual({ ok: true, value: { payload: 'ping' } });
  }

  it('answers every channel with INVALID_INPUT (never INTERNAL) and keeps answering', async () => {
    const channels = Object.keys(requests);
    expect(channels.length).toBeGreaterThan(20);
    const outcomes = new Map<string, number>();
    for (const channel of channels) {
      for (const [name, raw] of Object.entries(HOSTILE)) {
        const r = await call(channel, raw);
        expect(r.result.ok, `${channel} with ${name}`).toBe(false);
        expect(r.result.error?.code, `${channel} with ${name}: ${r.result.error?.message}`).toBe('INVALID_INPUT');
        outcomes.set(name, (outcomes.get(name) ?? 0) + 1);
        await stillAnswers();
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(outcomes.get('nested 5,000 deep')).toBe(channels.length);
  });

  it('an import text within the bound is answered, and one over it refused, however long its JSON', async () => {
    // Quotes take two bytes each in JSON: 40 Mi of them made an 80 MiB message, over the old 64 MiB
    // socket bound, and the socket was closed ("connection lost") instead of the text being read.
    const within = JSON.stringify(`@misc{q, note = {${'"'.repeat(40 * 1024 * 1024)}}}`);
    const read = await call('library.import.preview', `{"text":${within},"fileName":"q.bib","sample":8}`, 120_000);
    expect(read.result.ok, read.result.error?.message).toBe(true);
    await stillAnswers();
    const over = JSON.stringify('"'.repeat(MAX_IMPORT_CHARS + 1));
    const refused = await call('library.import.preview', `{"text":${over},"fileName":"q.bib"}`, 120_000);
    expect(refused.result.error?.code).toBe('INVALID_INPUT');
    expect(refused.result.error?.message).toMatch(/text/);
    await stillAnswers();
  });

  it('refuses deep, huge and many-valued inputs before a handler sees them', async () => {
    for (const channel of ['diag.echo', 'library.list', 'library.import.items', 'settings.set']) {
      if (!(channel in requests)) continue;
      for (const [name, raw] of Object.entries(HEAVY)) {
        const r = await call(channel, raw, 60_000);
        expect(r.result.ok, `${channel} with ${name}`).toBe(false);
        expect(['INVALID_INPUT'], `${channel} with ${name}: ${r.result.error?.message}`).toContain(
          r.result.error?.code,
        );
        await stillAnswers();
      }
    }
    const deepEcho = await call('diag.echo', `{"payload":${deep(5000)}}`);
    expect(deepEcho.result.error?.message).toBe(
      `Invalid input for diag.echo: the input nests deeper than ${MAX_INPUT_DEPTH} levels.`,
    );
    // Within the bound, the same echo goes through.
    const ok = await call('diag.echo', `{"payload":${deep(MAX_INPUT_DEPTH - 2)}}`);
    expect(ok.result.ok).toBe(true);
    await stillAnswers();
  });
});
