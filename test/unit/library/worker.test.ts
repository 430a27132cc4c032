import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryClient } from '../../../electron/core/library/client';
import { CoreError } from '../../../electron/core/errors';
import { tempDir } from '../../helpers/tmp';
import { generateItems } from './helpers/generate-items';

describe('library worker facade', () => {
  let dir: ReturnType<typeof tempDir>;
  let client: LibraryClient;
  beforeEach(async () => {
    dir = tempDir('citewise-worker-');
    client = await LibraryClient.start({ file: join(dir.path, 'citewise.sqlite') });
  });
  afterEach(async () => {
    await client.close();
    dir.remove();
  });

  it('imports in chunks in one transaction and answers reads while it runs', async () => {
    const items = generateItems(3000, 7);
    const progress: number[] = [];
    const pending = client.importItems(items, { source: 'gen', onProgress: (done) => progress.push(done) });
    // A read during the import sees the last committed state: none of it.
    await new Promise((r) => setTimeout(r, 5));
    expect(await client.lib.count()).toBe(0);
    const result = await pending;
    expect(result.added).toBe(3000);
    expect(progress.at(-1)).toBe(3000);
    expect(await client.lib.count()).toBe(3000);
    const page = await client.lib.list({ sort: { column: 'title', direction: 'asc' }, limit: 10 });
    expect(page.rows).toHaveLength(10);
  });

  it('rolls a cancelled import back', async () => {
    const controller = new AbortController();
    const items = generateItems(5000, 8);
    const pending = client.importItems(items, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(pending).rejects.toThrow(/cancel/i);
    expect(await client.lib.count()).toBe(0);
  });

  it('takes push-style chunks from a parser', async () => {
    const handle = await client.beginImport({ source: 'stream' });
    const items = generateItems(1200, 9);
    void handle.add(items.slice(0, 600));
    void handle.add(items.slice(600));
    expect((await handle.commit()).added).toBe(1200);
  });

  it('takes scheduled backups only when the library changed', async () => {
    const file = join(dir.path, 'scheduled.sqlite');
    const seen: string[] = [];
    const scheduled = await LibraryClient.start({ file, backupIntervalMs: 40, onBackup: (info) => seen.push(info?.reason ?? 'failed') });
    try {
      await new Promise((r) => setTimeout(r, 150));
      expect(seen).toEqual([]);
      await scheduled.lib.createCollection('Changed');
      await new Promise((r) => setTimeout(r, 400));
      expect(seen).toEqual(['scheduled']);
    } finally {
      await scheduled.close();
    }
  });

  it('carries errors with their code across the thread', async () => {
    const err = await client.lib.list({ query: 'year:' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoreError);
    expect(err).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/year:/) });
    await expect(client.lib.getItem(999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const backup = await client.backup();
    expect(backup.reason).toBe('manual');
  });
});
