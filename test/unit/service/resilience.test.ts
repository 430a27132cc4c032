// Retries only where safe, exponential backoff with full jitter, Retry-After (seconds or HTTP date)
// as one pause for every call, capped by the deadline; per-attempt timeouts; cancellation.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfter, ServiceError } from '../../../electron/core/service';
import { client, fakeFetch, json, networkFailure, VirtualClock } from './fakes';

afterEach(() => {
  vi.restoreAllMocks();
});

function failing(status: number, times: number, headers: Record<string, string> = {}) {
  let n = 0;
  return () => (n++ < times ? json({ detail: 'failure' }, status, headers) : json({ papers: {}, tallies: {} }));
}

describe('retries', () => {
  it('retries safe operations on 500, 502, 503, 504 and network failures until they succeed', async () => {
    for (const status of [500, 502, 503, 504]) {
      const clock = new VirtualClock();
      const { fetch, seen } = fakeFetch(failing(status, 2), clock);
      await client(fetch, { clock }).op.getPapers({ body: ['10.1000/a'] });
      expect(seen).toHaveLength(3);
    }
    const clock = new VirtualClock();
    let n = 0;
    const { fetch, seen } = fakeFetch(() => (n++ < 2 ? networkFailure() : json({ doi: '10.1000/a' })), clock);
    await client(fetch, { clock }).op.getPaper({ path: { doi: '10.1000/a' } });
    expect(seen).toHaveLength(3);
  });

  it('does not repeat operations that create something, except after a 429 (never processed)', async () => {
    for (const [op, call] of [
      ['createCollection', (c: ReturnType<typeof client>) => c.op.createCollection({ body: { name: 'x' } })],
      ['pollAssistant', (c: ReturnType<typeof client>) => c.op.pollAssistant({ body: { userInput: 'q' } })],
      [
        'submitReferenceCheck',
        (c: ReturnType<typeof client>) => c.op.submitReferenceCheck({ query: { file_url: 'https://x.test/a.pdf' } }),
      ],
    ] as const) {
      const clock = new VirtualClock();
      const { fetch, seen } = fakeFetch(failing(500, 5), clock);
      await expect(call(client(fetch, { clock }))).rejects.toMatchObject({ code: 'SERVICE_ERROR' });
      expect(seen, op).toHaveLength(1);
      const net = fakeFetch(() => networkFailure(), clock);
      await expect(call(client(net.fetch, { clock }))).rejects.toMatchObject({ code: 'OFFLINE' });
      expect(net.seen, op).toHaveLength(1);
      const limited = fakeFetch(failing(429, 1, { 'retry-after': '1' }), clock);
      await call(client(limited.fetch, { clock }));
      expect(limited.seen, op).toHaveLength(2);
    }
  });

  it('never retries 4xx answers other than 408 and 429', async () => {
    for (const status of [400, 401, 403, 404, 409, 422]) {
      const { fetch, seen } = fakeFetch(failing(status, 5));
      await expect(client(fetch).op.getPaper({ path: { doi: '10.1000/a' } })).rejects.toBeInstanceOf(ServiceError);
      expect(seen, String(status)).toHaveLength(1);
    }
  });

  it('gives up after maxAttempts with the last error', async () => {
    const clock = new VirtualClock();
    const { fetch, seen } = fakeFetch(failing(503, 100), clock);
    await expect(client(fetch, { clock, maxAttempts: 5 }).op.getPapers({ body: ['10.1000/a'] })).rejects.toMatchObject({
      code: 'SERVICE_ERROR',
    });
    expect(seen).toHaveLength(5);
  });

  it('waits with exponential backoff and full jitter: each delay within [0, min(max, initial·2^n))', async () => {
    for (const r of [0, 0.5, 0.999999]) {
      vi.spyOn(Math, 'random').mockReturnValue(r);
      const clock = new VirtualClock();
      const { fetch } = fakeFetch(failing(500, 100), clock);
      await expect(
        client(fetch, { clock, maxAttempts: 8, backoffInitialMs: 100, backoffMaxMs: 3000 }).op.getPapers({
          body: ['10.1000/a'],
        }),
      ).rejects.toThrow();
      expect(clock.sleeps).toHaveLength(7);
      clock.sleeps.forEach((ms, n) => {
        const cap = Math.min(3000, 100 * 2 ** n);
        expect(ms).toBeGreaterThanOrEqual(0);
        expect(ms).toBeLessThan(cap);
        expect(ms).toBe(Math.floor(r * cap));
      });
      vi.restoreAllMocks();
    }
  });
});

describe('Retry-After', () => {
  it('parses delta-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('waits exactly the seconds a 429 or 503 asks for, instead of the backoff', async () => {
    for (const status of [429, 503]) {
      const clock = new VirtualClock();
      const { fetch, seen } = fakeFetch(failing(status, 1, { 'retry-after': '7' }), clock);
      await client(fetch, { clock }).op.getPapers({ body: ['10.1000/a'] });
      expect(clock.sleeps).toEqual([7000]);
      expect(seen[1]!.at - seen[0]!.at).toBe(7000);
    }
  });

  it('honours an HTTP-date Retry-After', async () => {
    const clock = new VirtualClock();
    clock.t = Date.parse('2026-01-01T00:00:00Z');
    const { fetch } = fakeFetch(failing(429, 1, { 'retry-after': 'Thu, 01 Jan 2026 00:00:04 GMT' }), clock);
    await client(fetch, { clock }).op.getTallies({ body: ['10.1000/a'] });
    expect(clock.sleeps).toEqual([4000]);
  });

  it('pauses every call, not just the one that was told to wait', async () => {
    const clock = new VirtualClock();
    let first = true;
    const { fetch, seen } = fakeFetch(() => {
      if (first) {
        first = false;
        return json({ detail: 'slow down' }, 429, { 'retry-after': '5' });
      }
      return json({ papers: {}, tallies: {} });
    }, clock);
    const c = client(fetch, { clock, maxAttempts: 1 });
    await expect(c.op.getPapers({ body: ['10.1000/a'] })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 5 },
    });
    const told = seen[0]!.at;
    expect(c.transport.pausedUntil).toBe(told + 5000);
    // Another operation, another call: it still waits for the pause before sending anything.
    await c.op.getTallies({ body: ['10.1000/b'] });
    expect(seen[1]!.at - told).toBe(5000);
  });

  it('fails at once with RATE_LIMITED when the wait would pass the deadline', async () => {
    const clock = new VirtualClock();
    const { fetch, seen } = fakeFetch(failing(429, 5, { 'retry-after': '120' }), clock);
    const err = await client(fetch, { clock, deadlineMs: 10_000 })
      .op.getPapers({ body: ['10.1000/a'] })
      .then(
        () => Promise.reject(new Error('expected a failure')),
        (e: unknown) => e as ServiceError,
      );
    expect(err).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 120 } });
    expect(err.message).toMatch(/wait 120 s/);
    expect(seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('does not retry when the next backoff would pass the deadline', async () => {
    const clock = new VirtualClock();
    vi.spyOn(Math, 'random').mockReturnValue(0.99);
    const { fetch, seen } = fakeFetch(failing(500, 100), clock);
    await expect(
      client(fetch, { clock, deadlineMs: 1000, maxAttempts: 20, backoffInitialMs: 400 }).op.getPapers({
        body: ['10.1000/a'],
      }),
    ).rejects.toMatchObject({ code: 'SERVICE_ERROR' });
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1000);
    expect(seen.length).toBeLessThan(20);
  });
});

describe('timeouts and cancellation', () => {
  it('times out a hanging attempt, retries it, then reports TIMEOUT', async () => {
    const { fetch, seen } = fakeFetch(() => new Promise<Response>(() => undefined));
    const err = await client(fetch, { attemptTimeoutMs: 30, maxAttempts: 2, backoffInitialMs: 1 })
      .op.getPaper({ path: { doi: '10.1000/a' } })
      .then(
        () => Promise.reject(new Error('expected a failure')),
        (e: unknown) => e as ServiceError,
      );
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/did not answer within/);
    expect(seen).toHaveLength(2);
  });

  it('stops at the overall deadline with TIMEOUT', async () => {
    const { fetch } = fakeFetch(() => new Promise<Response>(() => undefined));
    const started = Date.now();
    const err = await client(fetch, { attemptTimeoutMs: 60_000, deadlineMs: 80 })
      .op.getPaper({ path: { doi: '10.1000/a' } })
      .then(
        () => Promise.reject(new Error('expected a failure')),
        (e: unknown) => e as ServiceError,
      );
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/retries included/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cancels a request in flight and a wait between retries with CANCELLED', async () => {
    const hanging = fakeFetch(() => new Promise<Response>(() => undefined));
    const a = new AbortController();
    const p = client(hanging.fetch).op.getPaper({ path: { doi: '10.1000/a' } }, { signal: a.signal });
    setTimeout(() => a.abort(), 10);
    await expect(p).rejects.toMatchObject({ code: 'CANCELLED' });

    const retrying = fakeFetch(failing(503, 100, { 'retry-after': '30' }));
    const b = new AbortController();
    const started = Date.now();
    const q = client(retrying.fetch).op.getPapers({ body: ['10.1000/a'] }, { signal: b.signal });
    setTimeout(() => b.abort(), 20);
    await expect(q).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses at once when the signal is already aborted', async () => {
    const { fetch, seen } = fakeFetch(() => json({}));
    await expect(
      client(fetch).op.getPaper({ path: { doi: '10.1000/a' } }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(seen).toHaveLength(0);
  });
});
