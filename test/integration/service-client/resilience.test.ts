// The client under injected faults, measured from the service's side of a recording proxy.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service';
import { maxInWindow, recordingProxy, sampleDois, service, type Recorder } from './helpers';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function setUp(
  options: Parameters<typeof service>[0] = {},
): Promise<{ svc: Awaited<ReturnType<typeof service>>; proxy: Recorder }> {
  const svc = await service(options);
  open.push(svc);
  const proxy = await recordingProxy(svc.url);
  open.push(proxy);
  return { svc, proxy };
}

describe('bulk fetch under faults', () => {
  it('accounts for every one of 10,000 DOIs with 20% 429/5xx answers and 5% dropped connections', async () => {
    const { svc, proxy } = await setUp({
      papers: 5000,
      faults: { rates: { '429': 0.07, '500': 0.07, '503': 0.06, drop: 0.05 } },
      latencyMs: 5,
      keyedPerSecond: 1000,
      keyedPerMinute: 60_000,
    });
    const known = sampleDois(svc, 5000);
    const unknown = Array.from({ length: 5000 }, (_, i) => `10.9999/not-in-the-corpus.${i}`);
    // Mixed case and prefixes: the client normalises them once.
    const input = [...known.map((d, i) => (i % 3 === 0 ? `https://doi.org/${d.toUpperCase()}` : d)), ...unknown];
    // Ten attempts: with a quarter of all answers failing, a request failing ten times in a row has odds of 1e-6.
    const client = new ServiceClient({
      baseUrl: () => proxy.url,
      getKey: async () => svc.fullKey,
      maxAttempts: 10,
      breakerFailures: 8,
    });
    open.push(client);
    const started = performance.now();
    const [papers, tallies] = await Promise.all([client.papers(input), client.tallies(input)]);
    const seconds = (performance.now() - started) / 1000;

    for (const result of [papers, tallies]) {
      expect(result.failed).toEqual([]);
      expect(result.invalid).toEqual([]);
      expect(Object.keys(result.found).length).toBe(5000);
      expect(result.unknown.length).toBe(5000);
      expect(new Set([...Object.keys(result.found), ...result.unknown]).size).toBe(10_000);
    }
    for (const d of known.slice(0, 50)) {
      const row = svc.corpus.paperByDoi(d)!;
      expect(tallies.found[d]!.contrasting).toBe(svc.corpus.tally(row).contradicting);
      expect(papers.found[d]!.doi).toBe(d);
    }
    // The API's "contradicting" is gone from everything the client hands on, papers' own tallies included.
    expect(JSON.stringify(papers.found)).not.toContain('"contradicting"');
    expect(Object.values(papers.found).some((p) => p.tally && 'contrasting' in p.tally)).toBe(true);
    const bulk = proxy.arrivals.filter((a) => a.path === '/papers' || a.path === '/tallies');
    const faults = bulk.filter((a) => a.injected).length;
    // 40 requests are the minimum (2 × 10,000 / 500); every extra one is a retry of an injected fault.
    expect(bulk.length - faults).toBe(40);
    expect(bulk.filter((a) => a.status === 429 && !a.injected)).toEqual([]);
    console.info(
      `10,000 DOIs under faults: ${bulk.length} requests (${faults} faults injected), ${seconds.toFixed(1)} s`,
    );
  });
});

describe('Retry-After', () => {
  it('pauses as long as the 429 asks, measured between the answer and the retry at the service', async () => {
    const { svc, proxy } = await setUp();
    let forced = false;
    const client = new ServiceClient({
      baseUrl: () => proxy.url,
      getKey: async () => svc.fullKey,
      // Force one 429 (Retry-After: 1) on the first request only.
      fetch: (url, init) => {
        const headers = new Headers(init.headers);
        if (!forced) {
          forced = true;
          headers.set('x-citewise-fault', '429');
        }
        return fetch(url, { ...init, headers });
      },
    });
    open.push(client);
    await client.op.getTallies({ body: sampleDois(svc, 3) });
    const [limited, retry] = proxy.arrivals;
    expect(limited!.status).toBe(429);
    expect(limited!.retryAfter).toBe('1');
    expect(retry!.status).toBe(200);
    const pause = retry!.at - limited!.done;
    console.info(`pause after a 429 with Retry-After: 1 → ${pause.toFixed(0)} ms`);
    expect(pause).toBeGreaterThanOrEqual(990);
    expect(pause).toBeLessThan(1500);
  });

  it('pauses every call in flight, not only the one told to wait', async () => {
    const { svc, proxy } = await setUp();
    let forced = false;
    const client = new ServiceClient({
      baseUrl: () => proxy.url,
      getKey: async () => svc.fullKey,
      fetch: (url, init) => {
        const headers = new Headers(init.headers);
        if (!forced && url.includes('/tallies')) {
          forced = true;
          headers.set('x-citewise-fault', '503');
        }
        return fetch(url, { ...init, headers });
      },
    });
    open.push(client);
    const dois = sampleDois(svc, 3);
    await client.op.getTallies({ body: dois }).catch(() => undefined);
    const unavailable = proxy.arrivals[0]!;
    expect(unavailable.retryAfter).toBe('2');
    await client.op.getPapers({ body: dois });
    const next = proxy.arrivals.filter((a) => a.at > unavailable.done);
    expect(Math.min(...next.map((a) => a.at)) - unavailable.done).toBeGreaterThanOrEqual(1990);
  });
});

describe('anonymous rate limit', () => {
  it('never exceeds 10 requests per second at the service, so the service never limits it', async () => {
    // The service and the proxy that times arrivals run in their own process: timestamps taken on
    // the client's event loop would bunch up whenever the client (or vitest) is busy.
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/integration/service-client/service-process.ts'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    open.push({ close: () => child.kill('SIGTERM') });
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const { url, control } = JSON.parse(line) as { url: string; control: string };
    const seed = (await (await fetch(control)).json()) as { dois: { doi: string }[] };
    const sent: number[] = [];
    const client = new ServiceClient({
      baseUrl: () => url,
      getKey: async () => null,
      bulkConcurrency: 8,
      fetch: (u, init) => {
        if (u.endsWith('/tallies')) sent.push(performance.now());
        return fetch(u, init);
      },
    });
    open.push(client);
    // 35 capped requests (under the 40/minute budget) as fast as the client allows, plus uncapped ones.
    const dois = seed.dois.map((d) => d.doi);
    const started = performance.now();
    await Promise.all([
      client.tallies([...dois, ...Array.from({ length: 35 * 500 - dois.length }, (_, i) => `10.9999/x${i}`)]),
      ...dois.slice(0, 20).map((d) => client.tally(d)),
    ]);
    const seconds = (performance.now() - started) / 1000;
    const { arrivals, timeOrigin } = (await (await fetch(control)).json()) as {
      arrivals: { at: number; path: string; status: number }[];
      timeOrigin: number;
    };
    const capped = arrivals.filter((a) => a.path === '/tallies');
    expect(capped).toHaveLength(35);
    // The service is the judge: it never had to refuse a request…
    expect(arrivals.filter((a) => a.status === 429)).toEqual([]);
    // …in the clock-aligned seconds it counts in, it never saw more than 10…
    const perSecond = new Map<number, number>();
    for (const a of capped) {
      const s = Math.floor((timeOrigin + a.at) / 1000);
      perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(10);
    // …nor in any sliding second, whatever the network delays (the client counts each request until its answer)…
    expect(
      maxInWindow(
        capped.map((a) => a.at),
        1000,
      ),
    ).toBeLessThanOrEqual(10);
    // …and the client never sent more than 10 within any second.
    expect(maxInWindow(sent, 1000)).toBeLessThanOrEqual(10);
    // It is not slower than it must be either: 35 requests at 10/s take a little over 3 s.
    expect(seconds).toBeLessThan(10);
    console.info(
      `35 anonymous bulk requests: ${seconds.toFixed(2)} s; at the service at most ${Math.max(...perSecond.values())} per second and ${maxInWindow(
        capped.map((a) => a.at),
        1000,
      )} in any sliding second`,
    );
  });
});
