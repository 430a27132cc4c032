import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { fulltextMatch } from '../../../electron/core/library/fulltext-match';
import { openLibrary } from '../../../electron/core/library/open';
import { readHandle } from '../../../electron/core/library/sql';
import { tempDir } from '../../helpers/tmp';

describe('fulltextMatch (one evaluation per search)', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() =>
    cleanup
      .splice(0)
      .reverse()
      .forEach((f) => f()),
  );

  function library() {
    const dir = tempDir('citewise-ftmatch-');
    const opened = openLibrary(join(dir.path, 'lib.sqlite'), { skipIntegrityCheck: true });
    cleanup.push(
      () => dir.remove(),
      () => opened.close(),
    );
    const add = (n: number, text: string): number => {
      const sha = String(n).repeat(64).slice(0, 64);
      const stored = opened.library.capturePdf({
        csl: { id: `p${n}`, type: 'article-journal', title: `Paper ${n}` },
        attachment: { path: `/p${n}.pdf`, sha256: sha, size: 1, stored: 'linked' },
        method: 'none',
        state: 'needs-review',
        confidence: 0,
        evidence: [],
        candidates: [],
      });
      opened.fulltext.record({
        sha256: sha,
        status: 'indexed',
        pageCount: 2,
        pages: [
          { page: 1, text: 'front matter' },
          { page: 2, text },
        ],
        note: null,
      });
      return stored.itemId;
    };
    return { opened, add, file: join(dir.path, 'lib.sqlite') };
  }

  it('reuses the match until the expression or the database changes, on a read connection and on the write one', () => {
    const { opened, add, file } = library();
    add(1, 'we measured gene expression in yeast');
    add(2, 'no such phrase here');
    const reader = new Database(file, { readonly: true });
    cleanup.push(() => reader.close());
    const read = readHandle(reader);

    const first = fulltextMatch(read, '"gene expression"');
    expect(first.pages.map((p) => p.page)).toEqual([2]);
    expect(first.itemIds).toHaveLength(1);
    // The list, its count and its pages get the same evaluation.
    expect(fulltextMatch(read, '"gene expression"')).toBe(first);
    // Another search replaces it; coming back evaluates again, to the same result.
    expect(fulltextMatch(read, '"front matter"').itemIds).toHaveLength(2);
    const again = fulltextMatch(read, '"gene expression"');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);

    // A commit on the write connection is seen at once.
    add(3, 'more gene expression data');
    const after = fulltextMatch(read, '"gene expression"');
    expect(after.itemIds).toHaveLength(2);
    expect(fulltextMatch(read, '"gene expression"')).toBe(after);

    // A read handle over the write connection itself sees its own writes too.
    const own = readHandle(opened.db);
    expect(fulltextMatch(own, '"gene expression"').itemIds).toHaveLength(2);
    add(4, 'gene expression once more');
    expect(fulltextMatch(own, '"gene expression"').itemIds).toHaveLength(3);
  });
});
