// `citewise add DOI…` against the local citation service: metadata fetched, items stored through the
// library's import, duplicates and unknown or malformed DOIs reported, exit 1 when any DOI was not added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServiceClient } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { sampleDois, service } from '../service-client/helpers';
import { run, runWith, tempDir } from './helpers';

let svc: Awaited<ReturnType<typeof service>>;
let data: ReturnType<typeof tempDir>;

beforeAll(async () => {
  svc = await service();
  data = tempDir();
});
afterAll(async () => {
  await svc?.close();
  data?.remove();
});

const openService = () =>
  openServiceClient({
    dataDir: data.path,
    mode: 'cli',
    logger: silentLogger,
    serviceUrl: svc.url,
    apiKey: svc.fullKey,
    secrets: createMemorySecretStore(),
  });

describe('citewise add', () => {
  it('adds papers by DOI, skips duplicates, reports DOIs it could not add', async () => {
    const [a, b] = sampleDois(svc, 2) as [string, string];
    const first = await runWith({ openService }, data.path, 'add', a, b.toUpperCase(), '--json');
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as {
      added: { doi: string; citationKey: string }[];
      duplicates: unknown[];
      notAdded: unknown[];
    };
    expect(report.added.map((x) => x.doi)).toEqual([a, b]);
    expect(report.notAdded).toEqual([]);
    const found = JSON.parse((await run(data.path, 'search', `doi:${a}`, '--json')).stdout) as {
      total: number;
      items: { title: string | null }[];
    };
    expect(found.total).toBe(1);
    expect(found.items[0]!.title).toBeTruthy();

    const again = await runWith({ openService }, data.path, 'add', a, '10.9999/not-in-the-corpus-xyz', 'nonsense');
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`${a}: already in the library`);
    expect(again.stderr).toContain(
      '10.9999/not-in-the-corpus-xyz: not added: the citation service does not know this DOI',
    );
    expect(again.stderr).toContain('nonsense: not added: not a DOI');
    expect((await runWith({ openService }, data.path, 'add')).code).toBe(2);
  });
});
