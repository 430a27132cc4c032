// The service feature validates its inputs at the boundary, before anything reaches the service.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { tempDir } from '../../helpers/tmp';

let dir: ReturnType<typeof tempDir>;
let core: Core;
let sent = 0;

beforeEach(async () => {
  dir = tempDir();
  sent = 0;
  core = await createCore({
    dataDir: dir.path,
    mode: 'test',
    logger: silentLogger,
    service: { maxAttempts: 2, backoffInitialMs: 1 },
    fetch: async () => {
      sent++;
      return new Response('{}', { status: 500 });
    },
  });
});

afterEach(async () => {
  await core.close();
  dir.remove();
});

describe('service feature inputs', () => {
  it.each([
    ['service.evidence.search', { dataset: 'horoscopes' }, 'dataset'],
    ['service.search', { term: 'x', favourite: true }, 'favourite'],
    ['service.papers', { dois: Array.from({ length: 20_001 }, (_, i) => `10.1000/${i}`) }, 'dois'],
    ['service.citing.page', { doi: '10.1000/a', limit: 20_000 }, 'limit'],
    ['service.author.papers', { slug: 'a', limit: 51 }, 'limit'],
    ['service.assistant.start', { request: { userInput: '' } }, 'request.userInput'],
    ['service.assistant.start', { request: { userInput: 'q', effort: 'extreme' } }, 'request.effort'],
    ['service.config.set', { serviceUrl: '' }, 'serviceUrl'],
  ])('%s rejects %j naming %s', async (channel, input, field) => {
    const result = await core.invoke(channel, input);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining(field) },
    });
    expect(sent).toBe(0);
  });

  it('rejects an invalid DOI with the reason, before sending', async () => {
    const result = await core.invoke('service.tally', { doi: 'https://example.org/article/12' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/is not a valid DOI\. A DOI starts with "10\."/) },
    });
    expect(sent).toBe(0);
  });

  it('reports invalid DOIs of a bulk lookup one by one and looks up the rest', async () => {
    const result = await core.invoke('service.tallies', { dois: ['nope', '10.1000/A', 'doi:10.1000/a'] });
    // The one valid DOI was sent (and failed with the fake's 500s); the invalid one is listed with its reason.
    expect(result).toMatchObject({
      ok: true,
      value: { invalid: [{ input: 'nope' }], failed: [{ ids: ['10.1000/a'], error: { code: 'SERVICE_ERROR' } }] },
    });
    expect(sent).toBeGreaterThan(0);
  });
});
