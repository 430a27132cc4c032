// A canary key used through 1,000 operations over the real WebSocket transport must appear nowhere:
// not under the data directory, not in any log line, not in any IPC result or event (raw, base64 at
// every alignment, URL-encoded, UTF-16 and the other forms of the keychain test's scanner).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createCore, type Core } from '../../../electron/core';
import type { Logger } from '../../../electron/core/log';
import { startHost, type Host } from '../../../electron/host/server';
import { fakeRendererDir } from '../../helpers/transports';
import { tempDir } from '../../helpers/tmp';
import { findLeaks, leakForms } from '../keychain/disk-scan';
import { sampleDois, service } from './helpers';

// '+', '/' and '=' make the URL-encoded and base64 forms differ from the raw one.
const CANARY = `cw+canary/${randomBytes(12).toString('hex')}=`;

let svc: Awaited<ReturnType<typeof service>>;
let dir: ReturnType<typeof tempDir>;
let core: Core;
let host: Host;
let socket: WebSocket;
const frames: string[] = [];
const logs: string[] = [];
let nextId = 0;
const waiting = new Map<number, (result: { ok: boolean; value?: unknown; error?: { code: string } }) => void>();

const logger: Logger = {
  info: (m) => logs.push(m),
  warn: (m) => logs.push(m),
  error: (m, err) => logs.push(`${m} ${err instanceof Error ? `${err.message}\n${err.stack}` : String(err)}`),
};

function invoke(channel: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> {
  const id = ++nextId;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    socket.send(JSON.stringify({ type: 'invoke', id, channel, input }));
  });
}

beforeAll(async () => {
  svc = await service({
    keys: [{ token: CANARY, scopes: new Set(['public', 'assistant', 'collections', 'evidence-grants']) }],
    faults: { rates: { '429': 0.003, '500': 0.04, drop: 0.02 } },
    keyedPerSecond: 10_000,
    keyedPerMinute: 600_000,
    usageMax: 10_000,
  });
  dir = tempDir('citewise-canary-');
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger,
    serviceUrl: svc.url,
    service: { backoffInitialMs: 20 },
  });
  host = await startHost({ core, rendererDir: fakeRendererDir(dir.path), logger });
  socket = new WebSocket(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, {
    headers: { origin: `http://127.0.0.1:${host.port}` },
  });
  socket.on('message', (data) => {
    const text = data.toString();
    frames.push(text);
    const message = JSON.parse(text) as { type: string; id?: number; result?: never };
    if (message.type === 'result') waiting.get(message.id!)?.(message.result!);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
}, 60_000);

afterAll(async () => {
  socket?.close();
  await host?.close();
  await core?.close();
  await svc?.close();
  dir?.remove();
});

describe('the API key never leaks', () => {
  it('through 1,000 operations: not on disk, not in logs, not in any IPC result or event', async () => {
    const set = await invoke('service.key.set', { key: CANARY });
    expect(set).toMatchObject({ ok: true, value: { stored: true } });
    const dois = sampleDois(svc, 200);
    const landmark = dois[0]!;
    const calls: [string, unknown][] = [
      ['service.key.status', {}],
      ['service.tally', { doi: landmark }],
      ['service.paper', { doi: landmark }],
      ['service.papers', { dois: dois.slice(0, 50) }],
      ['service.tallies', { dois: [...dois.slice(50, 120), 'not a doi'] }],
      ['service.citing.page', { doi: landmark, limit: 5 }], // FORBIDDEN: the key lacks citations
      ['service.search', { term: 'memory', limit: 2 }],
      ['service.collections.get', { slug: 'no-such-collection' }], // NOT_FOUND
      ['service.evidence.search', { dataset: 'grants', q: 'malaria' }],
      ['service.evidence.search', { dataset: 'patents', q: 'battery' }], // FORBIDDEN
      ['service.author.papers', { slug: 'no-such-author-x1' }],
      ['service.paper', { doi: 'garbage' }], // INVALID_INPUT
      ['service.config.get', {}],
      ['app.connectivity', {}],
    ];
    const codes = new Map<string, number>();
    let done = 1;
    while (done < 1000) {
      const batch: Promise<unknown>[] = [];
      for (let i = 0; i < 25 && done < 1000; i++, done++) {
        const [channel, input] =
          done % 100 === 50
            ? ['service.key.check', {}]
            : done % 250 === 100
              ? ['service.assistant.start', { request: { userInput: 'sleep and memory' } }]
              : calls[done % calls.length]!;
        batch.push(
          invoke(channel, input).then((r) => {
            const code = r.ok ? 'ok' : r.error!.code;
            codes.set(code, (codes.get(code) ?? 0) + 1);
          }),
        );
      }
      await Promise.all(batch);
    }
    await invoke('service.key.clear', {});
    // Let running assistant jobs report.
    await new Promise((r) => setTimeout(r, 500));
    console.info(
      `canary: 1,000 operations, outcomes ${JSON.stringify(Object.fromEntries(codes))}, ${frames.length} frames, ${logs.length} log lines`,
    );
    expect(codes.get('ok')).toBeGreaterThan(500);
    expect(codes.get('FORBIDDEN')).toBeGreaterThan(0);

    // The renderer never receives it…
    const forms = leakForms(CANARY);
    const inFrames = [...forms].filter(([, needle]) =>
      frames.some((f) => Buffer.from(f, 'utf8').includes(needle) || f.includes(needle.toString('latin1'))),
    );
    expect(inFrames.map(([form]) => form)).toEqual([]);
    expect(frames.some((f) => f.includes('"type":"event"'))).toBe(true);
    // …no log line holds it…
    const logText = Buffer.from(logs.join('\n'), 'utf8');
    expect([...forms].filter(([, needle]) => logText.includes(needle)).map(([form]) => form)).toEqual([]);
    // …and nothing under the data directory does.
    await core.close();
    const { leaks, filesScanned } = await findLeaks([dir.path], CANARY);
    expect(filesScanned).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  });
});
