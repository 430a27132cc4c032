// Repeated network failures open the circuit: the app goes offline, calls fail at once, and a probe
// brings it back online when the service answers again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { client, fakeFetch, json, networkFailure } from './fakes';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('circuit breaker', () => {
  it('opens after consecutive network failures, fails fast, probes, and closes when the service answers', async () => {
    let up = false;
    const { fetch, seen } = fakeFetch(() => (up ? json({ detail: 'Not found' }, 404) : networkFailure()));
    const states: [string, string][] = [];
    const c = client(fetch, {
      maxAttempts: 1,
      breakerFailures: 3,
      probeAfterMs: 5000,
      onConnectivity: (s, r) => states.push([s, r]),
    });
    for (let i = 0; i < 3; i++) await expect(c.paper('10.1000/a')).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(c.transport.circuit).toBe('open');
    expect(states.at(-1)![0]).toBe('offline');
    expect(states.at(-1)![1]).toMatch(/cannot reach/);

    const before = seen.length;
    await expect(c.paper('10.1000/a')).rejects.toMatchObject({
      code: 'OFFLINE',
      message: expect.stringMatching(/offline.*comes back online by itself/s),
    });
    expect(seen.length).toBe(before); // failed fast, nothing sent

    // The first probe still fails: the circuit stays open and another probe follows.
    await vi.advanceTimersByTimeAsync(5100);
    expect(seen.length).toBe(before + 1);
    expect(seen.at(-1)!.url.pathname).toBe('/tallies/10.0000/citewise-connectivity-probe');
    expect(c.transport.circuit).toBe('open');

    up = true;
    await vi.advanceTimersByTimeAsync(5100);
    expect(c.transport.circuit).toBe('closed');
    expect(states.at(-1)).toEqual(['online', '']);
    await expect(c.paper('10.1000/a')).resolves.toBeNull(); // 404: the service has no data
    c.close();
  });

  it('does not count HTTP errors as unreachability', async () => {
    const { fetch } = fakeFetch(() => json({ detail: 'boom' }, 500));
    const states: string[] = [];
    const c = client(fetch, { maxAttempts: 1, breakerFailures: 2, onConnectivity: (s) => states.push(s) });
    for (let i = 0; i < 5; i++) await expect(c.paper('10.1000/a')).rejects.toMatchObject({ code: 'SERVICE_ERROR' });
    expect(c.transport.circuit).toBe('closed');
    expect(states.every((s) => s === 'online')).toBe(true);
    c.close();
  });
});
