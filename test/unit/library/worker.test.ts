import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importInWorker, type PortMessage } from '../../../electron/core/formats';
import { LibraryClient } from '../../../electron/core/library/client';
import { prepareItem } from '../../../electron/core/library/derive';
import { encodePortItems } from '../../../electron/core/formats/import-port';
import { CoreError } from '../../../electron/core/errors';
import { tempDir } from '../../helpers/tmp';
import { generateBibtex } from '../formats/corpus';
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
    expect(await client.listing.count()).toBe(0);
    const result = await pending;
    expect(result.added).toBe(3000);
    expect(progress.at(-1)).toBe(3000);
    expect(await client.listing.count()).toBe(3000);
    const page = await client.listing.list({ sort: { column: 'title', direction: 'asc' }, limit: 10 });
    expect(page.rows).toHaveLength(10);
  });

  it('rolls a cancelled import back', async () => {
    const controller = new AbortController();
    const items = generateItems(5000, 8);
    const pending = client.importItems(items, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(pending).rejects.toThrow(/cancel/i);
    expect(await client.listing.count()).toBe(0);
  });

  it('takes push-style chunks from a parser on the port', async () => {
    const feed = await client.importFromPort({ source: 'stream' });
    const items = generateItems(1200, 9).map((item, i) => ({ prepared: prepareItem(item), line: i + 1 }));
    feed.port.postMessage(encodePortItems(items.slice(0, 600)) satisfies PortMessage);
    feed.port.postMessage(encodePortItems(items.slice(600)) satisfies PortMessage);
    feed.port.postMessage({ type: 'end', count: 1200 } satisfies PortMessage);
    expect((await feed.commit()).added).toBe(1200);
  });

  it('imports from a parser in another thread through a port, reporting lines and source keys', async () => {
    const bib = [
      '@article{first, title = {Deep learning for proteins}, author = {Smith, Anna}, year = 2020, doi = {10.1000/one}}',
      '',
      '@article{second, title = {Same DOI again}, author = {Jones, Bob}, year = 2021, doi = {10.1000/ONE}}',
      '@article{first, title = {Another paper, same key}, author = {Lee, Kim}, year = 2019}',
      '@book{third, title = {A book}, author = {Wang, Li}, year = 2001, keywords = {review, methods}}',
    ].join('\n');
    const feed = await client.importFromPort({ source: 'refs.bib' });
    const parsed = await importInWorker(
      { kind: 'text', text: bib },
      { format: 'bibtex', port: feed.port, chunkSize: 2 },
    );
    expect(parsed.count).toBe(4);
    const result = await feed.commit();
    // Every entry of the file arrives: another key with the same DOI too (the Duplicates view lists them).
    expect(result.added).toBe(4);
    expect(result.duplicates).toEqual([]);
    expect(result.warnings).toEqual([
      expect.objectContaining({ index: 2, line: 4, sourceKey: 'first', reason: expect.stringMatching(/already used/) }),
    ]);
    const page = await client.listing.list({ query: 'tag:review', limit: 10 });
    expect(page.rows.map((r) => r.citationKey)).toEqual(['third']);
    // Importing the same entries again adds nothing. (The entry whose key the file gave twice is left
    // out: duplicates by key need the same title under that key, and the library renamed this one's key.)
    const again = await client.importFromPort({ source: 'refs.bib' });
    await importInWorker(
      { kind: 'text', text: bib.replace(/^@article\{first, title = \{Another.*$/m, '') },
      { format: 'bibtex', port: again.port },
    );
    const second = await again.commit();
    expect(second.added).toBe(0);
    // The same entries again: found by their origin (the entry as the file wrote it), issue 32.
    expect(second.duplicates.map((d) => [d.line, d.reason])).toEqual([
      [1, 'entry'],
      [3, 'entry'],
      [5, 'entry'],
    ]);
  });

  it('reports which key replaced a CSL-JSON id that cannot be one, through the port', async () => {
    const json = JSON.stringify([
      {
        id: 'smith2020deep',
        type: 'book',
        title: 'Deep things',
        author: [{ family: 'Smith' }],
        issued: { 'date-parts': [[2020]] },
      },
      {
        id: 1234,
        type: 'book',
        title: 'Zotero numbers',
        author: [{ family: 'Kim' }],
        issued: { 'date-parts': [[2001]] },
      },
    ]);
    const feed = await client.importFromPort({ source: 'zotero.json' });
    await importInWorker({ kind: 'text', text: json }, { format: 'csljson', port: feed.port });
    const result = await feed.commit();
    expect((await client.lib.cslOf(result.ids)).map((i) => i.id)).toEqual(['smith2020deep', 'kimZoteroNumbers2001']);
    expect(result.warnings).toEqual([
      expect.objectContaining({
        index: 1,
        sourceKey: '1234',
        reason: expect.stringMatching(
          /^The id "1234" cannot be a citation key \(it is a number.*\); it became "kimZoteroNumbers2001" \("1234" → "kimZoteroNumbers2001"\)\.$/,
        ),
      }),
    ]);
  });

  it('writes a parse through the port, never through this thread: all of it on success, nothing on a failed parse', async () => {
    const bib = join(import.meta.dirname, '../../fixtures/formats/library.bib');
    const feed = await client.importFromPort({ source: 'library.bib' });
    const parsed = await importInWorker({ kind: 'path', path: bib }, { port: feed.port });
    // The items went from the parser to the store: none came to this thread.
    expect(parsed.items).toEqual([]);
    expect(parsed).toMatchObject({ count: 13, errors: [] });
    const result = await feed.commit();
    expect(result.added).toBe(13);
    expect(await client.listing.count()).toBe(13);
    // A parse that fails part-way (over the entry limit after 2,000 were posted) leaves nothing, as importSource does.
    const failing = await client.importFromPort({ source: 'big.bib' });
    await expect(
      importInWorker(
        { kind: 'text', text: generateBibtex({ entries: 3000 }) },
        { port: failing.port, limits: { maxEntries: 2000 } },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await failing.abort();
    expect(await client.listing.count()).toBe(13);
  });

  it('rolls a port import back when it is aborted, and then takes the next import', async () => {
    const feed = await client.importFromPort({ source: 'partial' });
    // Items arrive straight through the handle's port, as a parser would post them.
    const items = generateItems(50, 11).map((item, i) => ({ prepared: prepareItem(item), line: i + 1 }));
    feed.port.postMessage(encodePortItems(items));
    await feed.abort();
    expect(await client.listing.count()).toBe(0);
    expect((await client.importItems(generateItems(10, 12))).added).toBe(10);
  });

  it('takes scheduled backups only when the library changed', async () => {
    const file = join(dir.path, 'scheduled.sqlite');
    const seen: string[] = [];
    const scheduled = await LibraryClient.start({
      file,
      backupIntervalMs: 40,
      onBackup: (info) => seen.push(info?.reason ?? 'failed'),
    });
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
    const err = await client.listing.list({ query: 'year:' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoreError);
    expect(err).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/year:/) });
    await expect(client.lib.getItem(999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const backup = await client.backup();
    expect(backup.reason).toBe('manual');
  });
});
