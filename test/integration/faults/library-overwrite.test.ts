// Issue 41, point 3: no export writes over the library. An auto-export whose file was a symbolic link
// to citewise.sqlite passed the data-folder check (it looked only at the folder the link is in), and
// `export -o` and `manuscript --write-bib` had no check at all: the library was replaced by BibTeX and
// the next open found it damaged and started empty (100 → 0 items). Every writer now resolves the real
// path (links, a new file in a linked folder, hard links) and refuses anything in the data folder.
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { run, tempDir } from '../cli-library/helpers';
import { bibtex, libraryState } from './disk';

let data: { path: string; remove: () => void };
let mine: { path: string; remove: () => void };
let library: string;

beforeEach(async () => {
  data = tempDir('citewise-overwrite-data-');
  mine = tempDir('citewise-overwrite-mine-');
  library = join(data.path, LIBRARY_FILE);
  writeFileSync(join(mine.path, 'refs.bib'), bibtex(100, 'ref'));
  const r = await run(data.path, 'import', join(mine.path, 'refs.bib'));
  expect(r.code, r.stderr).toBe(0);
  // A backup to protect, and an attachment.
  expect((await run(data.path, 'backup')).code).toBe(0);
  mkdirSync(join(data.path, 'attachments'), { recursive: true });
  writeFileSync(join(data.path, 'attachments', 'paper.pdf'), '%PDF-1.4 a paper');
});
afterEach(() => {
  data.remove();
  mine.remove();
});

const REFUSED = /Citewise's data folder|Citewise's library/;

/** The library is whole: its items, and a command that opens it finds them. */
async function intact(): Promise<void> {
  expect(libraryState(library)).toMatchObject({ items: 100, indexed: 100, unindexed: 0 });
  const stats = await run(data.path, 'stats');
  expect(stats.code, stats.stderr).toBe(0);
  expect(stats.stderr).not.toMatch(/damaged|set aside/);
}

function backupFile(): string {
  const dir = join(data.path, 'backups');
  const [name] = readdirSync(dir);
  return join(dir, name!);
}

describe('an export pointed at the library', { timeout: 180_000 }, () => {
  it('auto-export refuses a symbolic link to citewise.sqlite, when added and when it becomes one later', async () => {
    const link = join(mine.path, 'library.bib');
    symlinkSync(library, link);
    const add = await run(data.path, 'auto-export', 'add', '-o', link);
    expect(add.code).not.toBe(0);
    expect(add.stderr).toMatch(REFUSED);
    await intact();

    // A file added while it was a file of the user's, replaced by a link afterwards: the run refuses it.
    rmSync(link);
    const ok = await run(data.path, 'auto-export', 'add', '-o', link);
    expect(ok.code, ok.stderr).toBe(0);
    rmSync(link);
    symlinkSync(library, link);
    const again = await run(data.path, 'auto-export', 'run', '--force');
    expect(again.code).toBe(1);
    expect(again.stdout + again.stderr).toMatch(REFUSED);
    await intact();
  });

  it('export -o refuses the library, its -wal, a link to it, a backup, an attachment and a new file in a linked data folder', async () => {
    const link = join(mine.path, 'link.bib');
    symlinkSync(library, link);
    const folderLink = join(mine.path, 'folder');
    symlinkSync(data.path, folderLink);
    const hard = join(mine.path, 'hard.bib');
    linkSync(library, hard);
    const targets = [
      library,
      `${library}-wal`,
      link,
      backupFile(),
      join(data.path, 'attachments', 'paper.pdf'),
      join(folderLink, 'new.bib'),
      join(folderLink, LIBRARY_FILE),
      hard,
    ];
    const before = readFileSync(join(data.path, 'attachments', 'paper.pdf'), 'utf8');
    for (const target of targets) {
      const r = await run(data.path, 'export', '-o', target);
      expect(r.code, target).toBe(1);
      expect(r.stderr, target).toMatch(REFUSED);
      expect(r.stderr.trim().split('\n'), target).toHaveLength(1);
    }
    expect(existsSync(join(data.path, 'new.bib'))).toBe(false);
    expect(readFileSync(join(data.path, 'attachments', 'paper.pdf'), 'utf8')).toBe(before);
    await intact();
  });

  it('manuscript --write-bib and --write-csljson refuse the library too', async () => {
    const paper = join(mine.path, 'paper.md');
    writeFileSync(paper, 'As shown [@ref1; @ref2].\n');
    const link = join(mine.path, 'cited.bib');
    symlinkSync(library, link);
    for (const args of [
      ['--write-bib', library],
      ['--write-bib', link],
      ['--write-csljson', join(data.path, 'backups', 'x.json')],
    ]) {
      const r = await run(data.path, 'manuscript', paper, ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(REFUSED);
    }
    await intact();
  });

  it('still writes a file of the user’s, through a link to it as well', async () => {
    const real = join(mine.path, 'real.bib');
    writeFileSync(real, 'old');
    const link = join(mine.path, 'via-link.bib');
    symlinkSync(real, link);
    const r = await run(data.path, 'export', '-o', link);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(real, 'utf8')).toContain('@article{ref0,');
    const paper = join(mine.path, 'paper.md');
    writeFileSync(paper, 'As shown [@ref1].\n');
    const m = await run(data.path, 'manuscript', paper, '--write-bib', join(mine.path, 'cited.bib'));
    expect(m.stderr).toContain('Wrote 1 cited item');
    const a = await run(data.path, 'auto-export', 'add', '-o', join(mine.path, 'synced.bib'));
    expect(a.code, a.stderr).toBe(0);
    await intact();
  });
});
