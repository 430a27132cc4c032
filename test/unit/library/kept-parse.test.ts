// An import preview keeps the entries it read (the chunks the parser posted) for the import that
// follows, so the app parses a file once: previewing reads them into the library worker, importing
// writes the same chunks. Kept only up to a bound in bytes (both sides here), one preview at a time,
// taken by one import.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PortMessage } from '../../../electron/core/formats';
import { LibraryClient } from '../../../electron/core/library/client';
import { prepareItem } from '../../../electron/core/library/derive';
import { chunkBytes, encodePortItems, type PortChunk } from '../../../electron/core/formats/import-port';
import { tempDir } from '../../helpers/tmp';
import { generateItems } from './helpers/generate-items';

/** A preview fed by the test as a parser would feed it: two chunks, then `end`. */
async function preview(client: LibraryClient, chunks: readonly PortChunk[], keep: number | undefined) {
  const { port, matches } = client.previewFromPort({ source: 'refs.bib', sample: 3, keep });
  for (const chunk of chunks) port.postMessage(chunk satisfies PortMessage);
  port.postMessage({ type: 'end', count: 0 } satisfies PortMessage);
  return matches;
}

describe('a preview’s parse kept for the import', () => {
  let dir: ReturnType<typeof tempDir>;
  let client: LibraryClient;
  let chunks: PortChunk[];
  let bytes: number;
  beforeEach(async () => {
    dir = tempDir('citewise-kept-');
    client = await LibraryClient.start({ file: join(dir.path, 'citewise.sqlite') });
    const items = generateItems(1500, 21).map((item, i) => ({ prepared: prepareItem(item), line: i + 1 }));
    // encodePortItems' buffer is the chunk's own: the two must not share one.
    chunks = [encodePortItems(items.slice(0, 700)), encodePortItems(items.slice(700))];
    bytes = chunks.reduce((n, c) => n + chunkBytes(c), 0);
  });
  afterEach(async () => {
    await client.close();
    dir.remove();
  });

  it('keeps the entries at the bound and imports them without a parser; once only', async () => {
    const matches = await preview(client, chunks, bytes);
    expect(matches.kept).toEqual(expect.any(String));
    expect(await client.listing.count()).toBe(0);
    const feed = await client.importFromKept({ source: 'refs.bib', kept: matches.kept! });
    expect(feed).not.toBeNull();
    const result = await feed!.commit();
    expect(result.added).toBe(1500);
    expect(result.errors).toEqual([]);
    expect(await client.listing.count()).toBe(1500);
    // Taken: a second import of it must parse the source again.
    expect(await client.importFromKept({ kept: matches.kept! })).toBeNull();
  });

  it('keeps nothing a byte over the bound, or when not asked', async () => {
    expect((await preview(client, chunks, bytes - 1)).kept).toBeUndefined();
    expect((await preview(client, chunks, undefined)).kept).toBeUndefined();
    // The preview itself answered as always.
    expect((await preview(client, chunks, bytes - 1)).sample).toEqual([null, null, null]);
  });

  it('holds one preview at a time: a newer one replaces it', async () => {
    const first = await preview(client, chunks, bytes);
    const second = await preview(client, chunks.slice(0, 1), bytes);
    expect(await client.importFromKept({ kept: first.kept! })).toBeNull();
    const feed = await client.importFromKept({ kept: second.kept! });
    expect((await feed!.commit()).added).toBe(700);
  });

  it('rolls a kept import back when it is cancelled, and a failed preview keeps nothing', async () => {
    const matches = await preview(client, chunks, bytes);
    const feed = await client.importFromKept({ kept: matches.kept! });
    await feed!.abort();
    expect(await client.listing.count()).toBe(0);

    // The parser's port closes before its end: the preview fails and nothing is kept.
    const kept = await preview(client, chunks, bytes);
    const { port, matches: failed } = client.previewFromPort({ sample: 1, keep: bytes });
    port.postMessage(chunks[0]! satisfies PortMessage);
    port.close();
    await expect(failed).rejects.toThrow(/ended before the parser finished/);
    expect(await client.importFromKept({ kept: kept.kept! })).toBeNull();
  });

  it('forgets a kept parse after its time, not before', async () => {
    // Ten minutes in the app (the other worker here); 150 ms in this one.
    const brief = await LibraryClient.start({ file: join(dir.path, 'brief.sqlite'), keptMs: 150 });
    try {
      const forgotten = await preview(brief, chunks, bytes);
      const held = await preview(client, chunks, bytes);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await brief.importFromKept({ kept: forgotten.kept! })).toBeNull();
      const feed = await client.importFromKept({ kept: held.kept! });
      expect(feed).not.toBeNull();
      expect((await feed!.commit()).added).toBe(1500);
    } finally {
      await brief.close();
    }
  });
});
