// schema.gen.ts must be what the generator makes from openapi.yaml today.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serviceOperations, type OperationId } from '../../../shared/service/index';
import { generatedFile, generatorFile, listOperations, loadContract } from './contract';

interface Generator {
  generateServiceTypes(): Promise<string>;
}

describe('generated service types', () => {
  it('are in sync with openapi.yaml (run `npm run gen:service` when this fails)', async () => {
    const generator = (await import(pathToFileURL(generatorFile).href)) as Generator;
    const expected = await generator.generateServiceTypes();
    const actual = readFileSync(generatedFile, 'utf8');
    expect(actual.startsWith('// generated — do not edit, run npm run gen:service')).toBe(true);
    // Compare the strings without a multi-thousand-line diff when they differ.
    expect(actual === expected, 'shared/service/schema.gen.ts is stale: run npm run gen:service').toBe(true);
  });

  it('list every operation with its method, path, scope and token need', () => {
    const operations = listOperations(loadContract());
    expect(Object.keys(serviceOperations).sort()).toEqual(operations.map((o) => o.operationId).sort());
    for (const o of operations) {
      const entry = serviceOperations[o.operationId as OperationId];
      expect(entry).toMatchObject({ method: o.method, path: o.path, scope: o.op['x-citewise-scope'] });
    }
    expect(serviceOperations.getPaper).toEqual({
      method: 'get',
      path: '/papers/{doi}',
      scope: 'public',
      auth: 'optional',
      rateLimit: 'uncapped',
      tag: 'Papers',
    });
    expect(serviceOperations.getAuthorPapers.auth).toBe('required');
    expect(serviceOperations.getCitingCitations).toMatchObject({
      auth: 'required',
      rateLimit: 'capped',
      scope: 'citations',
    });
  });
});
