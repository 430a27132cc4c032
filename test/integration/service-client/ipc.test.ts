// The service feature through IPC: key handling that never returns the key, the service address and
// its precedence, tasks as jobs with progress events, and connectivity driven by the circuit breaker.
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { createInProcessApi } from '../../../electron/core/in-process';
import { silentLogger } from '../../../electron/core/log';
import type { CitewiseApi, ConnectivityStatus, EventName, EventPayload, TaskFinished } from '../../../shared/ipc';
import type { TaskProgress } from '../../../shared/model/service';
import { tempDir } from '../../helpers/tmp';
import { sampleDois, service } from './helpers';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function makeCore(
  options: Partial<Parameters<typeof createCore>[0]> = {},
): Promise<{ core: Core; api: CitewiseApi }> {
  const dir = tempDir();
  const core = await createCore({ dataDir: dir.path, mode: 'test', logger: silentLogger, ...options });
  cleanup.push(
    () => dir.remove(),
    () => core.close(),
  );
  return { core, api: createInProcessApi(core) };
}

function collect<E extends EventName>(api: CitewiseApi, name: E): EventPayload<E>[] {
  const seen: EventPayload<E>[] = [];
  cleanup.push(api.on(name, (p) => seen.push(p)));
  return seen;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('service feature over IPC', () => {
  it('sets, checks and clears the key, never returning it', async () => {
    const svc = await service();
    cleanup.push(() => svc.close());
    const { api } = await makeCore({ serviceUrl: svc.url });
    const changed = collect(api, 'service.key.changed');
    expect(await api.invoke('service.key.status', {})).toEqual({
      ok: true,
      value: { stored: false, where: 'none', keychainAvailable: true },
    });
    const set = await api.invoke('service.key.set', { key: ` ${svc.fullKey} ` });
    expect(set).toEqual({ ok: true, value: { stored: true, where: 'keychain', keychainAvailable: true } });
    const check = await api.invoke('service.key.check', {});
    expect(check.ok && check.value.valid).toBe(true);
    const tally = await api.invoke('service.tally', { doi: sampleDois(svc, 1)[0]! });
    expect(tally.ok && tally.value?.contrasting).toBeTypeOf('number');
    const cleared = await api.invoke('service.key.clear', {});
    expect(cleared).toEqual({ ok: true, value: { stored: false, where: 'none', keychainAvailable: true } });
    expect(changed).toHaveLength(2);
    for (const r of [set, check, tally, cleared, ...changed]) expect(JSON.stringify(r)).not.toContain(svc.fullKey);
    expect(await api.invoke('service.key.set', { key: '' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    const pasted = await api.invoke('service.key.set', { key: 'Your key: sk_123' });
    expect(pasted).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/copied whole/) },
    });
    expect(JSON.stringify(pasted)).not.toContain('sk_123');
  });

  it('takes the address from --service-url, else the setting, else the real service', async () => {
    const a = await makeCore();
    expect(await a.api.invoke('service.config.get', {})).toEqual({
      ok: true,
      value: { serviceUrl: 'https://api.scite.ai', source: 'default', defaultUrl: 'https://api.scite.ai' },
    });
    const set = await a.api.invoke('service.config.set', { serviceUrl: 'http://127.0.0.1:8787/' });
    expect(set).toMatchObject({ ok: true, value: { serviceUrl: 'http://127.0.0.1:8787', source: 'setting' } });
    expect(await a.api.invoke('settings.get', {})).toMatchObject({
      ok: true,
      value: { serviceUrl: 'http://127.0.0.1:8787/' },
    });
    expect(await a.api.invoke('service.config.set', { serviceUrl: 'ftp://x' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(await a.api.invoke('service.config.set', { serviceUrl: 'https://user:secret@x.test' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(await a.api.invoke('service.config.set', { serviceUrl: null })).toMatchObject({
      ok: true,
      value: { source: 'default' },
    });
    const b = await makeCore({ serviceUrl: 'http://127.0.0.1:9999' });
    await b.api.invoke('service.config.set', { serviceUrl: 'http://127.0.0.1:8787' });
    expect(await b.api.invoke('service.config.get', {})).toMatchObject({
      ok: true,
      value: { serviceUrl: 'http://127.0.0.1:9999', source: 'command-line' },
    });
  });

  it('uses CITEWISE_API_KEY for the run without storing it', async () => {
    const svc = await service();
    cleanup.push(() => svc.close());
    const { api } = await makeCore({ serviceUrl: svc.url, apiKey: svc.fullKey });
    expect(await api.invoke('service.key.status', {})).toMatchObject({
      ok: true,
      value: { stored: false, where: 'environment' },
    });
    const page = await api.invoke('service.citing.page', { doi: sampleDois(svc, 1)[0]!, limit: 5 });
    expect(page.ok).toBe(true);
  });

  it('runs an assistant task as a job, with progress events, to SUCCESS', async () => {
    const svc = await service();
    cleanup.push(() => svc.close());
    const { api } = await makeCore({ serviceUrl: svc.url, apiKey: svc.fullKey });
    const progress = collect(api, 'service.task.progress');
    const finished = collect(api, 'service.task.finished');
    const started = await api.invoke('service.assistant.start', {
      request: { userInput: 'Does exercise improve memory?', effort: 'low', numReferences: 3 },
    });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    await until(() => finished.length === 1, 30_000);
    expect(finished[0]).toMatchObject({ taskId: started.value.taskId, kind: 'assistant', status: 'SUCCESS' });
    expect((finished[0] as TaskFinished).assistant?.result?.turns.length).toBeGreaterThan(0);
    const steps = (progress as TaskProgress[]).map((p) => p.step).filter(Boolean);
    expect(steps[0]).toBe('SCHEDULING_ASSISTANT');
    expect(steps).toContain('GENERATING_RESPONSE');
    const jobs = await api.invoke('jobs.list', {});
    expect(jobs.ok && jobs.value.find((j) => j.id === started.value.jobId)?.state).toBe('done');
  });

  it('cancels a running task, and times one out', async () => {
    const svc = await service({ assistantSteps: 'realistic', assistantStepMs: 400 });
    cleanup.push(() => svc.close());
    const { api } = await makeCore({ serviceUrl: svc.url, apiKey: svc.fullKey });
    const finished = collect(api, 'service.task.finished');
    const a = await api.invoke('service.assistant.start', { request: { userInput: 'q one' } });
    if (!a.ok) throw new Error(a.error.message);
    await new Promise((r) => setTimeout(r, 200));
    expect(await api.invoke('service.assistant.cancel', { taskId: a.value.taskId })).toEqual({
      ok: true,
      value: { cancelled: true },
    });
    await until(() => finished.length === 1);
    expect(finished[0]).toMatchObject({ taskId: a.value.taskId, status: 'CANCELLED', error: { code: 'CANCELLED' } });
    expect(
      (
        await svc.app.inject({
          method: 'GET',
          url: `/api_partner/assistant/tasks/${a.value.taskId}`,
          headers: { authorization: `Bearer ${svc.fullKey}` },
        })
      ).json(),
    ).toMatchObject({ status: 'CANCELLED' });

    const b = await api.invoke('service.assistant.start', { request: { userInput: 'q two' }, deadlineMs: 1000 });
    if (!b.ok) throw new Error(b.error.message);
    await until(() => finished.length === 2);
    expect(finished[1]).toMatchObject({
      taskId: b.value.taskId,
      status: 'TIMEOUT',
      error: { code: 'TIMEOUT', message: expect.stringMatching(/did not finish within 1 s/) },
    });
  });

  it('goes offline after repeated network failures and back online when a probe gets through', async () => {
    const { api } = await makeCore({
      serviceUrl: undefined,
      service: { maxAttempts: 1, breakerFailures: 2, probeAfterMs: 200 },
    });
    await api.invoke('service.config.set', { serviceUrl: 'http://127.0.0.1:9' }); // nothing listens on the discard port
    const states = collect(api, 'app.connectivityChanged');
    for (let i = 0; i < 2; i++)
      expect(await api.invoke('service.paper', { doi: '10.1000/a' })).toMatchObject({
        ok: false,
        error: { code: 'OFFLINE' },
      });
    await until(() => states.some((s) => s.state === 'offline'));
    const offline = states.find((s) => s.state === 'offline') as ConnectivityStatus;
    expect(offline.reason).toMatch(/cannot reach the citation service at 127.0.0.1:9/);
    expect(await api.invoke('app.connectivity', {})).toMatchObject({ ok: true, value: { state: 'offline' } });
    const fast = Date.now();
    expect(await api.invoke('service.paper', { doi: '10.1000/a' })).toMatchObject({
      ok: false,
      error: { code: 'OFFLINE', message: expect.stringMatching(/Citewise is offline/) },
    });
    expect(Date.now() - fast).toBeLessThan(100);

    const svc = await service();
    cleanup.push(() => svc.close());
    await api.invoke('service.config.set', { serviceUrl: svc.url });
    await until(() => states.at(-1)?.state === 'online');
    expect(await api.invoke('service.paper', { doi: sampleDois(svc, 1)[0]! })).toMatchObject({ ok: true });
  });
});
