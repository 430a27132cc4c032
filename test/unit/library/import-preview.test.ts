// The import preview parses in the formats worker and matches entries in the library worker: the
// thread that answers the UI gets the counts and the first entries, never the whole file's items.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryClient } from '../../../electron/core/library/client';
import { importSource, previewSource } from '../../../electron/core/library/import-source';
import { tempDir } from '../../helpers/tmp';
import { observeWorkerMessages } from '../../helpers/worker-messages';
import { generateBibtex } from '../formats/corpus';

/** The file up to its `n`th entry (its @string and @preamble lines kept). */
function firstEntries(text: string, n: number): string {
  const starts = [...text.matchAll(/^@(?!string|preamble|comment)/gim)].map((m) => m.index);
  return starts.length > n ? text.slice(0, starts[n]) : text;
}

describe('import preview', () => {
  let dir: ReturnType<typeof tempDir>;
  let client: LibraryClient;
  beforeEach(async () => {
    dir = tempDir('citewise-preview-');
    client = await LibraryClient.start({ file: join(dir.path, 'citewise.sqlite'), durability: 'off' });
  });
  afterEach(async () => {
    await client.close();
    dir.remove();
  });

  // Issue 32: the preview shows what sentence case will change, as Settings → Import says.
  it('shows the titles stored in sentence case beside the title as the file writes it', async () => {
    const text =
      '@article{nyt2020, title = {In {America}: The Rise of the {New York Times} Reporting}}\n@article{drake2019, title = {Keira Drake Reads the Book of the Year}}\n';
    const preview = await previewSource(client, { kind: 'text', text }, { fileName: 'refs.bib', sample: 5 });
    expect(preview.titlesCased).toBe(1);
    expect(preview.sample.map((e) => [e.title, e.titleAsWritten])).toEqual([
      [
        'In <span class="nocase">America</span>: The rise of the <span class="nocase">New York Times</span> reporting',
        'In <span class="nocase">America</span>: The Rise of the <span class="nocase">New York Times</span> Reporting',
      ],
      ['Keira Drake Reads the Book of the Year', undefined],
    ]);
    const off = await previewSource(
      client,
      { kind: 'text', text },
      { fileName: 'refs.bib', sample: 5, sentenceCase: 'off' },
    );
    expect(off.titlesCased).toBeUndefined();
    expect(off.sample.every((e) => e.titleAsWritten === undefined)).toBe(true);
  });

  it('shows the first entries and counts of a 20,000-entry file without its items reaching this thread', async () => {
    const text = generateBibtex({ entries: 20_000, seed: 7 });
    // Some of them in the library already: the preview counts all of those, not only the sample's.
    const stored = await importSource(
      client,
      { kind: 'text', text: firstEntries(text, 300) },
      { fileName: 'refs.bib' },
    );
    expect(stored.added).toBe(300);

    const { value: preview, messages } = await observeWorkerMessages(() =>
      previewSource(client, { kind: 'text', text }, { fileName: 'refs.bib', sample: 8 }),
    );
    const chars = messages.reduce<number>((n, m) => n + (JSON.stringify(m)?.length ?? 0), 0);
    expect(preview.entries).toBe(20_000);
    expect(preview.sample).toHaveLength(8);
    expect(preview.sample.every((s) => s.duplicateOf !== null && stored.ids.includes(s.duplicateOf))).toBe(true);
    expect(preview.duplicates).toBe(stored.added);
    // The file is ~14 MB; what came back to this thread is the sample and the counts.
    expect(text.length).toBeGreaterThan(5_000_000);
    expect(chars).toBeLessThan(50_000);
    // Nothing was written.
    expect(await client.listing.count()).toBe(stored.added);
  }, 120_000);

  it('shows every entry of a file smaller than the sample, and marks only those already there', async () => {
    const text = generateBibtex({ entries: 5, seed: 3 });
    const stored = await importSource(client, { kind: 'text', text: firstEntries(text, 1) }, { fileName: 'small.bib' });
    expect(stored.added).toBe(1);
    const preview = await previewSource(client, { kind: 'text', text }, { fileName: 'small.bib', sample: 8 });
    expect(preview.entries).toBe(5);
    expect(preview.sample.map((s) => s.duplicateOf)).toEqual([stored.ids[0], null, null, null, null]);
    expect(preview.duplicates).toBe(1);
  });

  it('fails as the parse fails, and leaves the library worker ready for the next call', async () => {
    const bad = '@article{a, title = {Fine}, year = 2020}\n'.repeat(30);
    await expect(
      previewSource(client, { kind: 'text', text: bad }, { fileName: 'x.bib', sample: 8, limits: { maxEntries: 10 } }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const ok = await previewSource(client, { kind: 'text', text: bad.slice(0, 200) }, { fileName: 'x.bib', sample: 8 });
    expect(ok.entries).toBeGreaterThan(0);
  });
});
