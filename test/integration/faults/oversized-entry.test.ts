// Issue 41, point 2: one oversized entry costs at most itself. An entry with 90,000 authors (under the
// 1 MB field limit) overflowed the stack where its chunk was packed for the library, so its chunk of
// 1,000 entries was lost while the report blamed the chunk's last entry, and a CSL-JSON file holding
// it was refused whole with "Maximum call stack size exceeded". LaTeX that nests commands 100,000 deep
// did the same in the decoder. Now the large entry goes in, the undecodable one alone is left out and
// named, and every other entry of the file is kept.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { run, tempDir } from '../cli-library/helpers';
import { libraryState } from './disk';

const ENTRIES = 3000;
const BIG = 1500;
const AUTHORS = 90_000;

let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir('citewise-oversized-');
});
afterEach(() => dir.remove());

function bibEntry(i: number, authors = 'Writer, Ann and Other, Bob', title = `Paper ${i}`): string {
  return `@article{k${i},\n  title = {${title}},\n  author = {${authors}},\n  journal = {J},\n  year = {2020}\n}\n\n`;
}

/** A BibTeX file of ENTRIES entries, the one at BIG replaced by `big`; with the line that entry starts on. */
function bibFile(big: string): { text: string; line: number } {
  let text = '';
  for (let i = 0; i < BIG; i++) text += bibEntry(i);
  const line = text.split('\n').length;
  text += big;
  for (let i = BIG + 1; i < ENTRIES; i++) text += bibEntry(i);
  return { text, line };
}

const manyAuthors = (sep: string): string =>
  Array.from({ length: AUTHORS }, (_, i) => `X${(i % 36).toString(36)}, Z`).join(sep);

function itemsIn(data: string): { items: number; bigCreators: number; keys: Set<string> } {
  const db = new Database(join(data, LIBRARY_FILE), { readonly: true });
  try {
    const counts = db
      .prepare('SELECT item_id, count(*) AS n FROM creators GROUP BY item_id ORDER BY n DESC LIMIT 1')
      .get() as { n: number };
    return {
      items: db.prepare('SELECT count(*) FROM items').pluck().get() as number,
      bigCreators: counts.n,
      keys: new Set(db.prepare('SELECT citation_key FROM items').pluck().all() as string[]),
    };
  } finally {
    db.close();
  }
}

describe('an oversized entry', { timeout: 240_000 }, () => {
  it('in BibTeX: 90,000 authors go in with every other entry of the file', async () => {
    const authors = manyAuthors(' and ');
    expect(authors.length).toBeLessThan(1_000_000);
    const file = join(dir.path, 'big.bib');
    writeFileSync(file, bibFile(bibEntry(BIG, authors)).text);
    const r = await run(dir.path, 'import', file);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('3,000 items added');
    const got = itemsIn(dir.path);
    expect(got.items).toBe(ENTRIES);
    expect(got.bigCreators).toBe(AUTHORS);
    expect(libraryState(join(dir.path, LIBRARY_FILE))).toMatchObject({ items: ENTRIES, unindexed: 0 });
  });

  it('in RIS: 90,000 AU lines go in with every other record', async () => {
    const record = (i: number, n = 2): string =>
      `TY  - JOUR\n${Array.from({ length: n }, (_, j) => `AU  - Au${(j % 1000).toString(36)}, Z\n`).join('')}TI  - Paper ${i}\nPY  - 2020\nER  - \n\n`;
    let text = '';
    for (let i = 0; i < ENTRIES; i++) text += record(i, i === BIG ? AUTHORS : 2);
    const file = join(dir.path, 'big.ris');
    writeFileSync(file, text);
    const r = await run(dir.path, 'import', file);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('3,000 items added');
    expect(itemsIn(dir.path)).toMatchObject({ items: ENTRIES, bigCreators: AUTHORS });
  });

  it('in CSL-JSON: the file is not refused whole; every item goes in', async () => {
    const items = Array.from({ length: ENTRIES }, (_, i) => ({
      id: `k${i}`,
      type: 'article-journal',
      title: `Paper ${i}`,
      author:
        i === BIG
          ? Array.from({ length: AUTHORS }, (_, j) => ({ family: `Au${(j % 1000).toString(36)}`, given: 'Z' }))
          : [{ family: 'Writer', given: 'Ann' }],
    }));
    const file = join(dir.path, 'big.json');
    writeFileSync(file, JSON.stringify(items));
    const r = await run(dir.path, 'import', file);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('3,000 items added');
    expect(itemsIn(dir.path)).toMatchObject({ items: ENTRIES, bigCreators: AUTHORS });
  });

  it('that cannot be decoded is the only one left out, named with its own key and line', async () => {
    // LaTeX commands nested 100,000 deep (800 KB, under the field limit): the decoder recursed per command.
    const title = `${'\\textit '.repeat(100_000)}x`;
    const { text, line } = bibFile(bibEntry(BIG, 'Writer, Ann', title));
    const file = join(dir.path, 'nested.bib');
    writeFileSync(file, text);
    const r = await run(dir.path, 'import', file);
    // As for any entry with errors: the others are imported, and the command succeeds.
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2,999 items added, 1 entry skipped');
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${line}: The entry "k${BIG}" could not be read: `),
    );
    expect(r.stderr).not.toMatch(/Maximum call stack|RangeError|\n\s+at /);
    const got = itemsIn(dir.path);
    expect(got.items).toBe(ENTRIES - 1);
    expect(got.keys.has(`k${BIG}`)).toBe(false);
    // Its neighbours, in the same chunk of 1,000 as it went to the library, are all there.
    for (const i of [BIG - 1, BIG + 1, 1000, 1999, 2000]) expect(got.keys.has(`k${i}`)).toBe(true);
  });
});
