// The key check probes one cheap operation per scope and reads 401/403/other.
import { describe, expect, it } from 'vitest';
import { KEY_PROBES } from '../../../electron/core/service';
import { SERVICE_SCOPES } from '../../../shared/service';
import { client, fakeFetch, json, KEY } from './fakes';

describe('key check', () => {
  it('has one probe per scope, each a GET', () => {
    expect(Object.keys(KEY_PROBES).sort()).toEqual([...SERVICE_SCOPES].sort());
  });

  it('reports granted, denied and unknown access per scope', async () => {
    const { fetch, seen } = fakeFetch((req) => {
      const p = req.url.pathname;
      if (p.includes('/citations/')) return json({ detail: 'no' }, 403);
      if (p.includes('/evidence/grants')) return json({ detail: 'no' }, 403);
      if (p.includes('/evidence/faers')) return json({ detail: 'down' }, 500);
      if (p.startsWith('/api_partner/assistant/tasks/')) return json({ id: 'x', status: 'PENDING' });
      return json({ detail: 'Not found' }, 404);
    });
    const result = await client(fetch, { maxAttempts: 1 }).checkKey(KEY);
    const byScope = Object.fromEntries(result.access.map((a) => [a.scope, a.granted]));
    expect(result.valid).toBe(true);
    expect(byScope).toMatchObject({
      public: true,
      citations: false,
      collections: true,
      assistant: true,
      'reference-check': true,
      'evidence-grants': false,
      'evidence-faers': null,
      'evidence-patents': true,
    });
    expect(result.summary).toMatch(/grants 8 of 11/);
    expect(seen).toHaveLength(11);
    expect(seen.every((r) => r.method === 'GET' && r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('stops after the first probe when the key is not accepted', async () => {
    const { fetch, seen } = fakeFetch(() => json({ detail: 'Invalid token' }, 401));
    const result = await client(fetch).checkKey(KEY);
    expect(result.valid).toBe(false);
    expect(result.summary).toMatch(/does not accept this API key/);
    expect(seen).toHaveLength(1);
  });
});
