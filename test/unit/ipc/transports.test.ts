// One suite, every transport: what the renderer sees must not depend on how it reaches the core.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/ipc';
import {
  electronIpc,
  inProcess,
  webSocket,
  type TransportFactory,
  type TransportFixture,
} from '../../helpers/transports';

const transports: [string, TransportFactory][] = [
  ['in-process', inProcess],
  ['WebSocket (host mode)', webSocket],
  ['Electron IPC (preload + main bridge)', electronIpc],
];

describe.each(transports)('IPC over %s', (_name, factory) => {
  let t: TransportFixture;
  beforeEach(async () => {
    t = await factory();
  });
  afterEach(async () => {
    await t.close();
  });

  it('round-trips structured data unchanged', async () => {
    const payload = { text: 'Müller–Ørsted 𝛼 “quotes”', n: [1, 2.5, -3], nested: { deep: [{ a: null, b: true }] } };
    const result = await t.api.invoke('diag.echo', { payload });
    expect(result).toEqual({ ok: true, value: { payload } });
  });

  it('answers concurrent requests each with its own result', async () => {
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => t.api.invoke('diag.echo', { payload: i })));
    expect(results.map((r) => (r.ok ? r.value.payload : 'error'))).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('returns the typed output of a real handler', async () => {
    const result = await t.api.invoke('app.info', {});
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.name).toBe('Citewise');
      expect(result.value.version).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it('carries errors as data with a code from the closed set', async () => {
    const result = await t.api.invoke('jobs.cancel', { id: 'no-such-job' });
    expect(result).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: expect.stringContaining('no-such-job') },
    });
  });

  it('rejects an invalid payload with INVALID_INPUT naming the field', async () => {
    const result = await t.api.invoke('settings.update', { theme: 'purple' as never });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('INVALID_INPUT');
      expect(result.error.message).toContain('theme');
      expect(result.error.details).toMatchObject({ issues: [{ path: 'theme' }] });
    }
  });

  it('rejects unknown fields, wrong types and unknown channels with INVALID_INPUT', async () => {
    const extra = await t.api.invoke('settings.update', { theme: 'dark', sneaky: 1 } as never);
    const wrongType = await t.api.invoke('jobs.cancel', 42 as never);
    const unknown = await t.api.invoke('no.such.channel' as never, {} as never);
    for (const r of [extra, wrongType, unknown]) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('INVALID_INPUT');
    }
    if (!unknown.ok) expect(unknown.error.message).toContain('no.such.channel');
  });

  it('delivers events to subscribers and stops after unsubscribe, leaking no listener', async () => {
    const seen: Settings[] = [];
    const other: Settings[] = [];
    const off = t.api.on('settings.changed', (s) => seen.push(s));
    const offOther = t.api.on('settings.changed', (s) => other.push(s));
    expect(t.clientListenerCount()).toBe(2);

    const first = await t.api.invoke('settings.update', { theme: 'dark' });
    expect(first).toEqual({ ok: true, value: { ...DEFAULT_SETTINGS, theme: 'dark' } });
    await until(() => seen.length === 1 && other.length === 1);
    expect(seen[0]).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark' });

    off();
    await t.api.invoke('settings.update', { theme: 'light' });
    await until(() => other.length === 2);
    expect(seen).toHaveLength(1);

    offOther();
    offOther(); // disposing twice is harmless
    expect(t.clientListenerCount()).toBe(0);
  });

  it('delivers an event to every listener even when one of them throws', async () => {
    const seen: string[] = [];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const offs = [
      t.api.on('settings.changed', () => seen.push('first')),
      t.api.on('settings.changed', () => {
        throw new Error('a faulty listener');
      }),
      t.api.on('settings.changed', () => seen.push('third')),
    ];
    await t.api.invoke('settings.update', { theme: 'dark' });
    await until(() => seen.length === 2);
    expect(seen).toEqual(['first', 'third']);
    for (const off of offs) off();
    errors.mockRestore();
  });

  it('does not deliver one event name to listeners of another', async () => {
    const jobs: unknown[] = [];
    const off = t.api.on('jobs.changed', (j) => jobs.push(j));
    await t.api.invoke('settings.update', { theme: 'dark' });
    await t.api.invoke('diag.echo', { payload: 'flush' });
    expect(jobs).toEqual([]);
    off();
  });
});

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
