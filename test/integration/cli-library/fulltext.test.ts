// `citewise fulltext` and `citewise search 'fulltext:…'`: PDFs imported offline, their text indexed with
// progress on stderr, found with the page and a snippet; the notes of a scanned PDF; a rebuild.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makePdf } from '../../helpers/pdfs';
import { run, tempDir } from './helpers';

let data: ReturnType<typeof tempDir>;
let files: ReturnType<typeof tempDir>;

beforeAll(() => {
  data = tempDir();
  files = tempDir('citewise-cli-fulltext-');
});
afterAll(() => {
  data?.remove();
  files?.remove();
});

function fulltext(...args: string[]): ReturnType<typeof run> {
  return run(data.path, 'fulltext', ...args);
}

describe('citewise fulltext', () => {
  it('indexes the imported PDFs with progress, then search prints each hit with its page and snippet', async () => {
    const paper = join(files.path, 'paper.pdf');
    writeFileSync(
      paper,
      await makePdf({
        title: 'Yeast under stress',
        pages: [['An opening page.'], ['Nothing here either.'], ['We report gene expression under heat stress.']],
      }),
    );
    const scan = join(files.path, 'scan.pdf');
    writeFileSync(
      scan,
      await makePdf({ title: 'A scan with a typed cover', pages: [['Cover page only.']], blankPages: 2 }),
    );
    const imported = await run(data.path, 'import', paper, scan);
    expect(imported.code).toBe(0);

    const first = await fulltext();
    expect(first.code).toBe(0);
    expect(first.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^\[1\/2\] indexed, 3 pages: .*\.pdf$/),
      expect.stringMatching(
        /^\[2\/2\] indexed, 3 pages: .*\.pdf \(no text layer on 2 pages \(a scan\?\); those pages are not searchable\)$/,
      ),
    ]);
    expect(first.stdout).toBe(
      '2 PDFs read now, 0 already indexed. Searchable: 2 PDFs (4 pages); without text: 0; too big: 0; unreadable: 0; not found: 0.\n',
    );

    const found = await run(data.path, 'search', 'fulltext:"gene expression"');
    expect(found.code).toBe(0);
    const lines = found.stdout.split('\n');
    expect(lines[0]).toMatch(/\tYeast under stress$/);
    expect(lines[1]).toBe('\tp. 3: We report «gene expression» under heat stress.');
    expect(found.stderr).toBe('1 item found.\n');
    const json = JSON.parse((await run(data.path, 'search', '--json', 'fulltext:heat')).stdout) as {
      items: { title: string; pages: unknown }[];
    };
    expect(json.items).toEqual([
      expect.objectContaining({
        title: 'Yeast under stress',
        pages: [{ page: 3, snippet: 'We report gene expression under «heat» stress.' }],
      }),
    ]);
    // A search without fulltext: terms prints no page lines, and asks the worker for none.
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    try {
      expect((await run(data.path, 'search', 'yeast')).stdout.split('\n').filter((l) => l.startsWith('\t'))).toEqual(
        [],
      );
      const calls = posted.mock.calls
        .map(([m]) => m as { op?: string; store?: string; method?: string })
        .filter((m) => m.op === 'call');
      expect(calls.map((m) => `${m.store}.${m.method}`)).toEqual(['listing.list', 'listing.count']);
      posted.mockClear();
      await run(data.path, 'search', 'fulltext:heat');
      expect(
        posted.mock.calls
          .map(([m]) => m as { op?: string; store?: string })
          .filter((m) => m.op === 'call' && m.store === 'fulltext'),
      ).toHaveLength(1);
    } finally {
      posted.mockRestore();
    }

    const notes = await fulltext('--notes');
    expect(notes.stdout).toMatch(
      /^\S+\tindexed\tno text layer on 2 pages \(a scan\?\); those pages are not searchable\n$/,
    );

    const again = await fulltext();
    expect(again.stdout).toMatch(/^0 PDFs read now, 2 already indexed\./);
    const rebuilt = await fulltext('--rebuild', '--max-pages', '2');
    expect(rebuilt.stdout).toBe(
      '2 PDFs read now, 0 already indexed. Searchable: 0 PDFs (0 pages); without text: 0; too big: 2; unreadable: 0; not found: 0.\n',
    );
    expect((await run(data.path, 'search', 'fulltext:heat')).stderr).toBe('0 items found.\n');

    const wrong = await fulltext('--max-pages', 'many');
    expect(wrong.stderr).toBe('citewise: --max-pages must be a whole number from 1 to 100000 (got "many")\n');
    expect(wrong.code).toBe(2);
    expect((await fulltext('extra')).code).toBe(2);
  }, 240_000);
});
