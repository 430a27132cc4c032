// Issue 18, point 1: the search index never stays out of step with the items. The open that runs the
// integrity check (after an unclean shutdown, on schedule, without a record: health.ts) finds a drifted
// index and rebuilds it; an ordinary open does not look (issue 20); `citewise check` reports it, and
// --repair rebuilds it regardless.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stateDir } from '../../../electron/core/library/health';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { run, tempDir } from '../cli-library/helpers';
import { bibtex, libraryState } from './disk';

let dir: { path: string; remove: () => void };
let file: string;

beforeEach(async () => {
  dir = tempDir('citewise-index-');
  file = join(dir.path, LIBRARY_FILE);
  writeFileSync(join(dir.path, 'refs.bib'), bibtex(50, 'drift'));
  expect((await run(dir.path, 'import', join(dir.path, 'refs.bib'))).code).toBe(0);
});
afterEach(() => dir.remove());

/** What a library written by an import that went on after SQLITE_FULL looked like. */
function drift(): void {
  const db = new Database(file);
  db.prepare(
    "DELETE FROM items_fts WHERE rowid IN (SELECT id FROM items WHERE title LIKE 'drift paper number 1%')",
  ).run();
  db.prepare(
    "INSERT INTO items_fts (rowid, title, abstract, creators, container, tags, notes, citation_key) VALUES (9999, 'ghost', '', '', '', '', '', 'ghost')",
  ).run();
  db.close();
}

/** The mark of a process that died with the library open (its pid is gone). */
function uncleanShutdown(): void {
  const gone = spawnSync(process.execPath, ['-e', '']).pid;
  writeFileSync(join(stateDir(file), `open-${gone}-abcdef`), '');
}

describe('search index drift', { timeout: 60_000 }, () => {
  it('is found and rebuilt at the open after an unclean shutdown, and said on stderr', async () => {
    drift();
    uncleanShutdown();
    expect(libraryState(file)).toMatchObject({ items: 50, indexed: 40, unindexed: 11 });
    const r = await run(dir.path, 'backup');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'citewise: The search index had drifted from the items (11 items were missing from it; it had 1 row of deleted items); it was rebuilt',
    );
    expect(libraryState(file)).toMatchObject({ items: 50, indexed: 50, unindexed: 0 });
    expect((await run(dir.path, 'search', 'title:"number 12"')).stdout).toContain('drift paper number 12');
    // Once rebuilt, the next start has nothing to say.
    expect((await run(dir.path, 'backup')).stderr).toBe('');
  });

  it('is not looked for at an ordinary open (no crash, check not due): citewise check finds and rebuilds it', async () => {
    drift();
    const ordinary = await run(dir.path, 'backup');
    expect(ordinary.code, ordinary.stderr).toBe(0);
    expect(ordinary.stderr).toBe('');
    expect(libraryState(file)).toMatchObject({ items: 50, indexed: 40, unindexed: 11 });
    const checked = await run(dir.path, 'check', '--offline');
    expect(checked.stdout).toContain(
      'Search index: 11 of 50 items were missing from it and 1 rows belonged to deleted items; it was rebuilt.',
    );
    expect(libraryState(file)).toMatchObject({ items: 50, indexed: 50, unindexed: 0 });
  });

  for (const args of [['search', 'paper'], ['stats'], ['export', '--format', 'bibtex']]) {
    it(`citewise ${args[0]} also says on stderr that it rebuilt a drifted index after an unclean shutdown`, async () => {
      drift();
      uncleanShutdown();
      const r = await run(dir.path, args[0] as 'search', ...args.slice(1));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        'citewise: The search index had drifted from the items (11 items were missing from it; it had 1 row of deleted items); it was rebuilt',
      );
      expect(libraryState(file)).toMatchObject({ items: 50, indexed: 50, unindexed: 0 });
    });
  }

  it('citewise check says the index holds every item, and --repair rebuilds it', async () => {
    const plain = await run(dir.path, 'check', '--offline');
    expect(plain.stdout).toContain('Search index: all 50 items are indexed.');
    const repaired = await run(dir.path, 'check', '--offline', '--repair');
    expect(repaired.stdout).toContain('Search index: all 50 items are indexed; rebuilt as asked (--repair).');
    expect(libraryState(file)).toMatchObject({ items: 50, indexed: 50, unindexed: 0 });
    const found = await run(dir.path, 'search', 'reliability');
    expect(found.stdout).toContain('drift paper number 0');
  });
});
