import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryClient } from '../../../electron/core/library/client';
import { importSource, startParse } from '../../../electron/core/library/import-source';
import { tempDir } from '../../helpers/tmp';
import { generateBibtex } from '../formats/corpus';

// `citewise import` starts the first file's parse before the library is open (startParse), so that
// parsing overlaps the library worker's start; importSource then stores what that parse posts.
describe('a parse started before the library is open', () => {
  let dir: ReturnType<typeof tempDir>;
  let client: LibraryClient | null = null;
  beforeEach(() => (dir = tempDir('citewise-early-')));
  afterEach(async () => {
    await client?.close();
    client = null;
    dir.remove();
  });

  it('is stored whole once the library opens, however long the parser waited for it', async () => {
    // 6 chunks of 1,000: more than the parser may post unread, so it waits for the store.
    const text = generateBibtex({ entries: 6000, seed: 3 });
    const started = startParse({ kind: 'text', text }, { fileName: 'early.bib' });
    await new Promise((r) => setTimeout(r, 1500));
    client = await LibraryClient.start({ file: join(dir.path, 'citewise.sqlite') });
    const report = await importSource(client, { kind: 'text', text }, { fileName: 'early.bib', started });
    expect(report).toMatchObject({ format: 'bibtex', entries: 6000, added: 6000, errors: [] });
    expect(await client.listing.count()).toBe(6000);
    // The same source imported the ordinary way afterwards: every entry is already there.
    const again = await importSource(client, { kind: 'text', text }, { fileName: 'early.bib' });
    expect(again).toMatchObject({ added: 0, entries: 6000 });
    expect(again.duplicates).toHaveLength(6000);
  });

  it('is stopped when the import cannot begin, and when it is never stored', async () => {
    client = await LibraryClient.start({ file: join(dir.path, 'citewise.sqlite') });
    const running = await client.importFromPort({ source: 'other' });
    const text = generateBibtex({ entries: 3000, seed: 4 });
    const refused = startParse({ kind: 'text', text });
    await expect(importSource(client, { kind: 'text', text }, { started: refused })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(refused.parsed).rejects.toMatchObject({ code: 'CANCELLED' });
    await running.abort();
    const unused = startParse({ kind: 'text', text });
    unused.abort();
    await expect(unused.parsed).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await client.listing.count()).toBe(0);
  });
});
