// Every HTTP status and network failure maps to the closed error set, with a message a researcher
// can act on; the key never shows up in any of it.
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../../shared/ipc';
import { ServiceError } from '../../../electron/core/service';
import { client, fakeFetch, json, KEY, networkFailure } from './fakes';

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

const cases: [number, ErrorCode, RegExp][] = [
  [400, 'VALIDATION', /rejected the request/],
  [404, 'NOT_FOUND', /no record/],
  [408, 'TIMEOUT', /too long/],
  [409, 'CONFLICT', /conflict/],
  [410, 'NOT_FOUND', /no record/],
  [413, 'VALIDATION', /rejected/],
  [422, 'VALIDATION', /limit: ensure this value is less than or equal to 50/],
  [429, 'RATE_LIMITED', /too many requests/],
  [500, 'SERVICE_ERROR', /internal problem \(HTTP 500\)/],
  [502, 'SERVICE_ERROR', /HTTP 502/],
  [503, 'SERVICE_ERROR', /temporarily unavailable/],
  [504, 'SERVICE_ERROR', /HTTP 504/],
  [418, 'SERVICE_ERROR', /unexpected status \(HTTP 418\)/],
  [301, 'SERVICE_ERROR', /redirects elsewhere \(HTTP 301\)/],
];

describe('error mapping', () => {
  it.each(cases)('HTTP %i becomes %s with a readable message', async (status, code, message) => {
    const detail =
      status === 422
        ? [{ loc: ['query', 'limit'], msg: 'ensure this value is less than or equal to 50', type: 'value_error' }]
        : 'nope';
    const { fetch } = fakeFetch(() => json({ detail }, status));
    const err = await failure(
      client(fetch, { maxAttempts: 1 }).op.getAuthorPapers({ path: { author_slug: 'a-b-c' }, query: { limit: 60 } }),
    );
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
    expect(err.details).toMatchObject({ operation: 'getAuthorPapers', status });
    if (status === 422) expect(err.details.detail).toEqual(detail);
  });

  it('UNAUTHORIZED says whether a key is missing or refused', async () => {
    const { fetch } = fakeFetch(() => json({ detail: 'Not authenticated' }, 401));
    const none = await failure(client(fetch).op.getCollection({ path: { collection_slug: 'x' } }));
    expect(none.code).toBe('UNAUTHORIZED');
    expect(none.message).toMatch(/needs an API key with access to Collections/);
    const refused = await failure(
      client(fetch, { getKey: async () => KEY }).op.getCollection({ path: { collection_slug: 'x' } }),
    );
    expect(refused.message).toMatch(/did not accept your API key/);
  });

  it('FORBIDDEN names the access the key lacks', async () => {
    const { fetch } = fakeFetch(() => json({ detail: 'forbidden' }, 403));
    const c = client(fetch, { getKey: async () => KEY });
    expect((await failure(c.op.getCitingCitations({ path: { doi: '10.1000/a' } }))).message).toMatch(
      /does not include access to the citation graph/,
    );
    expect((await failure(c.op.searchGrants({}))).message).toMatch(/the grants evidence dataset/);
    expect((await failure(c.op.getReferenceCheckTask({ path: { task_id: 't' } }))).details.scope).toBe(
      'reference-check',
    );
  });

  it('a network failure is OFFLINE and names the host, not the URL', async () => {
    const { fetch } = fakeFetch(() => networkFailure());
    const err = await failure(client(fetch, { maxAttempts: 1 }).paper('10.1000/A'));
    expect(err.code).toBe('OFFLINE');
    expect(err.message).toContain('api.test');
    expect(err.message).not.toContain('10.1000');
  });

  it('an unreadable success body is SERVICE_ERROR', async () => {
    const { fetch } = fakeFetch(() => new Response('{"papers": {', { status: 200 }));
    const err = await failure(client(fetch, { maxAttempts: 1 }).op.getPapers({ body: ['10.1000/a'] }));
    expect(err.code).toBe('SERVICE_ERROR');
    expect(err.message).toMatch(/could not read/);
  });

  it('an invalid DOI is INVALID_INPUT before anything is sent', async () => {
    const { fetch, seen } = fakeFetch(() => json({}));
    await expect(client(fetch).paper('not-a-doi')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('"not-a-doi" is not a valid DOI'),
    });
    expect(seen).toHaveLength(0);
  });

  it('never carries the key, even when the service echoes it back', async () => {
    const echo = `token ${KEY} / ${encodeURIComponent(KEY)} / ${Buffer.from(KEY).toString('base64')} is invalid`;
    for (const status of [401, 403, 422, 500]) {
      const { fetch } = fakeFetch(() =>
        json({ detail: status === 422 ? [{ loc: ['body'], msg: echo, type: 'x' }] : echo }, status),
      );
      const err = await failure(
        client(fetch, { getKey: async () => KEY, maxAttempts: 1 }).op.getPapers({ body: ['10.1000/a'] }),
      );
      const text = JSON.stringify({ message: err.message, details: err.details, stack: err.stack });
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(Buffer.from(KEY).toString('base64'));
    }
  });

  it('sends the key as a bearer token only when there is one', async () => {
    const { fetch, seen } = fakeFetch(() => json({ papers: {} }));
    await client(fetch).op.getPapers({ body: ['10.1000/a'] });
    await client(fetch, { getKey: async () => KEY }).op.getPapers({ body: ['10.1000/a'] });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen[1]!.url.href).not.toContain(KEY);
  });
});
