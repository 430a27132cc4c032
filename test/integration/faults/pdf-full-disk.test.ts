// Issue 41, point 7: a PDF added on a full disk. `citewise import refs.bib paper.pdf` with no room for
// the PDF's copy ended with Node's raw ENOSPC and a stack trace, and did not say that refs.bib had
// been added. Now the files before it are reported, then the one sentence every full disk gets; the
// half-written copy is removed.
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { makePdf } from '../../helpers/pdfs';
import { run, tempDir } from '../cli-library/helpers';
import { bibtex, libraryState, smallDisk, type SmallDisk } from './disk';

/** Every file under `dir`, relative. */
function files(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe('a PDF added on a full disk', { timeout: 180_000 }, () => {
  let disk: SmallDisk;
  let mine: ReturnType<typeof tempDir>;

  beforeEach(async () => {
    disk = smallDisk();
    mine = tempDir('citewise-pdf-full-');
    writeFileSync(join(mine.path, 'first.bib'), bibtex(10, 'first'));
    const r = await run(disk.dataDir, 'import', join(mine.path, 'first.bib'));
    expect(r.code, r.stderr).toBe(0);
  });
  afterEach(() => {
    disk.remove();
    mine.remove();
  });

  it('reports the files added before it, then the full disk in one line; no stack, no half copy', async () => {
    if (disk.kind !== 'tmpfs') return; // the copy needs a real full disk (root: a tmpfs)
    writeFileSync(join(mine.path, 'refs.bib'), bibtex(3, 'refs', 50));
    const pdf = join(mine.path, 'paper.pdf');
    writeFileSync(pdf, await makePdf({ title: 'A paper with figures', byline: 'Ann Writer', figureBytes: 1_500_000 }));
    disk.fill(join(disk.dataDir, LIBRARY_FILE));
    // Room for refs.bib's three entries, not for the PDF's copy.
    execFileSync('truncate', ['-s', '-600K', join(disk.dataDir, '..', 'filler')]);

    const r = await run(disk.dataDir, 'import', join(mine.path, 'refs.bib'), pdf);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('refs.bib (bibtex): 3 items added');
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^citewise: The disk holding your library is full \(ENOSPC in .*\): nothing was changed\./,
    );
    expect(r.stderr).not.toMatch(/\n\s+at |Error:/);
    expect(libraryState(join(disk.dataDir, LIBRARY_FILE)).items).toBe(13);
    expect(files(join(disk.dataDir, 'attachments')).filter((n) => n.endsWith('.tmp') || n.endsWith('.pdf'))).toEqual(
      [],
    );
  });
});
