// Credentials and scopes, rate limits, and injected faults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceOperations, type OperationId } from '../../../shared/service/index';
import type { RunningService } from '../../service/server';
import { parseFaults } from '../../service/faults';
import { parseKey } from '../../service/auth';
import { call, startTestService, TOKENS, urlFor } from './helpers';

let service: RunningService;
let doi: string;

beforeAll(async () => {
  service = await startTestService({ faults: { slowMs: 800 } });
  doi = service.corpus.db.prepare('SELECT doi FROM papers LIMIT 1').pluck().get() as string;
});
afterAll(() => service.close());

/** Minimal valid arguments of every operation. */
function args(op: OperationId): { params: Record<string, string>; query: Record<string, string>; body?: unknown } {
  const path = serviceOperations[op].path;
  const params: Record<string, string> = {};
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) params[name!] = name === 'doi' ? doi : 'x';
  const query: Record<string, string> =
    op === 'getJournalIndex' || op === 'getIssnEditorialNotices' ? { issn: '0000-0000' } : {};
  const bodies: Partial<Record<OperationId, unknown>> = {
    getJournalIndexBulk: [],
    getPapers: [doi],
    getTallies: [doi],
    getTalliesViaGet: [doi],
    getAggregateTally: [doi],
    createCollection: { name: 'x', dois: [doi] },
    pollAssistant: { userInput: 'x' },
    getMaudeFacets: { qs: 'pump' },
  };
  return { params, query, body: bodies[op] };
}

describe('credentials and scopes', () => {
  it('every non-public operation answers 401 without a key and with an unknown key, with a detail', async () => {
    for (const [id, op] of Object.entries(serviceOperations) as Array<
      [OperationId, (typeof serviceOperations)[OperationId]]
    >) {
      const a = args(id);
      const anon = await call<{ detail: string }>(service, id, { ...a, token: null });
      if (op.auth === 'required') {
        expect(anon.status, id).toBe(401);
        expect(anon.body.detail, id).toMatch(/Not authenticated/);
        expect(anon.headers.get('www-authenticate'), id).toContain('Bearer');
      } else {
        expect(anon.status, id).not.toBe(401);
      }
      const bad = await call<{ detail: string }>(service, id, { ...a, token: 'no-such-key' });
      expect(bad.status, id).toBe(401);
      expect(bad.body.detail, id).toMatch(/Invalid token/);
    }
  });

  it('answers 403 naming the missing scope when the key lacks it', async () => {
    for (const [id, op] of Object.entries(serviceOperations) as Array<
      [OperationId, (typeof serviceOperations)[OperationId]]
    >) {
      if (op.scope === 'public') continue;
      const res = await call<{ detail: string }>(service, id, { ...args(id), token: TOKENS.limited });
      expect(res.status, id).toBe(403);
      expect(res.body.detail, id).toContain(`"${op.scope}" scope`);
    }
    const patents = await call(service, 'searchPatents', { token: TOKENS.patents });
    expect(patents.status).toBe(200);
    expect((await call(service, 'searchGrants', { token: TOKENS.patents })).status).toBe(403);
  });

  it('rejects a malformed authorization header with 401', async () => {
    const res = await fetch(urlFor(service.url, 'getAuthorPapers', { params: { author_slug: 'x' } }), {
      headers: { authorization: 'Token abc' },
    });
    expect(res.status).toBe(401);
  });

  it('parses key specs with scopes and refuses unknown scopes', () => {
    expect([...parseKey('abc=citations,evidence-grants').scopes]).toEqual(['citations', 'evidence-grants']);
    expect([...parseKey('abc=*').scopes]).toEqual(['*']);
    expect(() => parseKey('abc=everything')).toThrow(/unknown scope/);
    expect(() => parseKey('abc')).toThrow(/TOKEN=SCOPE/);
  });
});

describe('rate limits', () => {
  it('without a token: 10 requests per second and 40 per minute, 429 with Retry-After and rate-limit headers', async () => {
    const limited = await startTestService({ anonymousPerSecond: 10, anonymousPerMinute: 40 });
    try {
      const body = [doi];
      const statuses: number[] = [];
      let last429: Headers | undefined;
      for (let i = 0; i < 25; i++) {
        const res = await call(limited, 'getTallies', { body, token: null });
        statuses.push(res.status);
        if (res.status === 429) last429 = res.headers;
        else expect(res.headers.get('x-ratelimit-limit-minute')).toBe('40');
      }
      // At most two one-second windows pass during the burst.
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(20);
      expect(statuses).toContain(429);
      expect(Number(last429!.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last429!.get('ratelimit-limit')).toBe('40');
      // Uncapped operations are not limited without a token.
      for (let i = 0; i < 15; i++)
        expect((await call(limited, 'getPaper', { params: { doi }, token: null })).status).toBe(200);
      // A token has its own, higher limit.
      expect((await call(limited, 'getTallies', { body, token: TOKENS.full })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('counts the per-minute window too', async () => {
    const limited = await startTestService({ anonymousPerSecond: 1000, anonymousPerMinute: 40 });
    try {
      const statuses: number[] = [];
      const details: string[] = [];
      for (let i = 0; i < 84; i++) {
        const res = await call<{ detail?: string }>(limited, 'getJournalIndex', {
          query: { issn: '0000-0000' },
          token: null,
        });
        statuses.push(res.status);
        if (res.status === 429) details.push(res.body.detail!);
      }
      // The burst spans at most two one-minute windows of 40.
      const passed = statuses.filter((s) => s === 200).length;
      expect(passed).toBeGreaterThanOrEqual(40);
      expect(passed).toBeLessThanOrEqual(80);
      expect(statuses.filter((s) => s === 429).length).toBe(84 - passed);
      expect(details[0]).toMatch(/40 requests per minute/);
    } finally {
      await limited.close();
    }
  });

  it('applies the configurable keyed limit to tokens', async () => {
    const limited = await startTestService({ keyedPerSecond: 3, keyedPerMinute: 100 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await call(limited, 'getTallies', { body: [doi] })).status);
      // At most two one-second windows of 3 pass.
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    } finally {
      await limited.close();
    }
  });
});

describe('fault injection', () => {
  it('parses a fault spec and refuses nonsense', () => {
    expect(parseFaults('429=0.1,500=0.05,drop=0.02,latency=50,task-failure=1')).toEqual({
      rates: { '429': 0.1, '500': 0.05, drop: 0.02, 'task-failure': 1 },
      latency: 50,
    });
    expect(() => parseFaults('boom=0.1')).toThrow(/unknown fault/);
    expect(() => parseFaults('500=2')).toThrow(/between 0 and 1/);
  });

  it('forces 429, 500, 503, malformed JSON, slow bodies and dropped connections per request', async () => {
    const url = urlFor(service.url, 'getPaper', { params: { doi } });
    const get = (fault: string) => fetch(url, { headers: { 'x-citewise-fault': fault } });
    const r429 = await get('429');
    expect(r429.status).toBe(429);
    expect(r429.headers.get('retry-after')).toBe('1');
    expect((await get('500')).status).toBe(500);
    const r503 = await get('503');
    expect(r503.status).toBe(503);
    expect(await r503.json()).toMatchObject({ detail: expect.stringContaining('Service Unavailable') });
    const malformed = await get('malformed');
    expect(malformed.status).toBe(200);
    await expect(malformed.clone().json()).rejects.toThrow();
    const t0 = Date.now();
    const slow = await get('slow');
    expect(((await slow.json()) as { doi: string }).doi).toBe(doi);
    expect(Date.now() - t0).toBeGreaterThan(500);
    await expect(get('drop')).rejects.toThrow();
  });

  it('injects faults at the configured rates and adds latency', async () => {
    const faulty = await startTestService({ faults: parseFaults('500=0.5,latency=20') });
    try {
      const statuses: number[] = [];
      const t0 = Date.now();
      for (let i = 0; i < 40; i++)
        statuses.push((await fetch(urlFor(faulty.url, 'getPaper', { params: { doi } }))).status);
      const fails = statuses.filter((s) => s === 500).length;
      expect(fails).toBeGreaterThan(8);
      expect(fails).toBeLessThan(32);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(40 * 20);
    } finally {
      await faulty.close();
    }
  });
});
