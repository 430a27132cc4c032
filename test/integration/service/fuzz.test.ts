// Arbitrary query text never makes the service fail: the evidence query language, search terms and
// filter strings are parsed defensively, and odd DOIs are just not found.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningService } from '../../service/server';
import { GUESSES } from '../../../shared/service/index';
import { call, startTestService } from './helpers';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(
        'AND',
        'OR',
        'NOT',
        '"',
        '(',
        ')',
        'pump',
        'infusion',
        '"infusion pump"',
        '*',
        ':',
        '-',
        'é',
        'NEAR',
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(' ')),
);

it('answers every evidence query and filter string with 200 or 422, never 500', async () => {
  await fc.assert(
    fc.asyncProperty(text, fc.option(fc.string({ maxLength: 30 }), { nil: undefined }), async (q, f) => {
      const res = await call(service, 'searchMaude', {
        query: { q, ...(f === undefined ? {} : { [GUESSES.evidenceFilterParam]: f }) },
      });
      expect([200, 422]).toContain(res.status);
    }),
    { numRuns: 120 },
  );
});

it('answers every search term and DOI without failing', async () => {
  await fc.assert(
    fc.asyncProperty(text, async (term) => {
      const res = await call(service, 'search', { query: { term, title: term, limit: 3 } });
      expect(res.status).toBe(200);
    }),
    { numRuns: 80 },
  );
  await fc.assert(
    fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }), async (suffix) => {
      const res = await call(service, 'getPaper', { params: { doi: `10.1234/${suffix}` } });
      expect([200, 404]).toContain(res.status);
    }),
    { numRuns: 80 },
  );
});
