// Issue 41, point 7: what a process killed with the library open leaves is removed at the next open.
// A command-line import killed with -9 left import-in-progress.json (the app then said an import was
// running whenever its process id came back), and a write killed half-way leaves its hidden temporary
// file: a PDF copy in attachments/ (up to the PDF's size) or an auto-export in the user's own folder.
// Nothing is removed while another process has the library open: it may be writing those files.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { IMPORT_MARKER } from '../../../electron/core/library/shared-use';
import { openMarkName, stateDir } from '../../../electron/core/library/health';
import { run, tempDir } from '../cli-library/helpers';
import { bibtex } from './disk';

const ROOT = join(__dirname, '..', '..', '..');
const built = existsSync(join(ROOT, 'out', 'cli', 'index.js'));

async function until(what: string, test: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('leftovers of a process killed with the library open', { timeout: 240_000 }, () => {
  let data: ReturnType<typeof tempDir>;
  let mine: ReturnType<typeof tempDir>;
  let library: string;
  let synced: string;

  beforeEach(async () => {
    data = tempDir('citewise-leftovers-data-');
    mine = tempDir('citewise-leftovers-mine-');
    library = join(data.path, LIBRARY_FILE);
    writeFileSync(join(mine.path, 'small.bib'), bibtex(10, 'a'));
    expect((await run(data.path, 'import', join(mine.path, 'small.bib'))).code).toBe(0);
    synced = join(mine.path, 'synced.bib');
    const add = await run(data.path, 'auto-export', 'add', '-o', synced);
    expect(add.code, add.stderr).toBe(0);
  });
  afterEach(() => {
    data.remove();
    mine.remove();
  });

  /** The temporary files a killed auto-export write and PDF copy leave (fs/atomic-write.ts's names). */
  function halfWritten(): string[] {
    const exportTemp = join(mine.path, '.synced.bib.0123456789ab.tmp');
    writeFileSync(exportTemp, '@article{a0,\n  title = {cut he');
    const sub = join(data.path, 'attachments', 'ab');
    mkdirSync(sub, { recursive: true });
    const pdfTemp = join(sub, `.${'ab'.repeat(32)}.pdf.fedcba987654.tmp`);
    writeFileSync(pdfTemp, Buffer.alloc(2 * 1024 * 1024, 0x25));
    return [exportTemp, pdfTemp];
  }

  /** Files that look alike but are the user's or the library's own: never removed. */
  function notLeftovers(): string[] {
    const files = [
      join(mine.path, '.other.bib.0123456789ab.tmp'), // another program's file, not of an auto-export
      join(mine.path, 'synced.bib.tmp'),
      join(data.path, 'attachments', 'ab', `${'ab'.repeat(32)}.pdf`), // a finished copy: a backup may need it
    ];
    for (const f of files) writeFileSync(f, 'keep');
    return files;
  }

  it.skipIf(!built)(
    'an import killed with -9: its marker and the half-written files are gone after the next open',
    async () => {
      writeFileSync(join(mine.path, 'big.bib'), bibtex(30_000, 'big'));
      const child = spawn(
        process.execPath,
        [join(ROOT, 'bin', 'citewise.mjs'), '--data-dir', data.path, 'import', join(mine.path, 'big.bib')],
        {
          stdio: 'ignore',
          env: { ...process.env, CITEWISE_DATA_DIR: '' },
        },
      );
      const exited = new Promise((r) => child.on('exit', r));
      const opened = () => {
        try {
          return readdirSync(stateDir(library)).some((n) => n.startsWith(`open-${child.pid}-`));
        } catch {
          return false;
        }
      };
      await until('the import runs', () => existsSync(join(data.path, IMPORT_MARKER)) && opened());
      await new Promise((r) => setTimeout(r, 300)); // well into its transaction
      child.kill('SIGKILL');
      await exited;
      expect(existsSync(join(data.path, IMPORT_MARKER))).toBe(true);
      const temps = halfWritten();
      const kept = notLeftovers();

      const stats = await run(data.path, 'stats');
      expect(stats.code, stats.stderr).toBe(0);
      expect(existsSync(join(data.path, IMPORT_MARKER))).toBe(false);
      for (const t of temps) expect(existsSync(t), t).toBe(false);
      for (const k of kept) expect(existsSync(k), k).toBe(true);
      // The library itself is as before the killed import (its transaction never committed).
      expect(stats.stdout).toMatch(/Items:\s+10\n/);
    },
  );

  it('nothing is removed while another live process has the library open; the first open after it does', async () => {
    // A process that died with the library open (its mark is left), and a live one that has it open.
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('exit', r));
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)']);
    try {
      mkdirSync(stateDir(library), { recursive: true });
      writeFileSync(join(stateDir(library), openMarkName(dead.pid!)), '');
      const liveMark = join(stateDir(library), openMarkName(live.pid!));
      writeFileSync(liveMark, '');
      writeFileSync(join(data.path, IMPORT_MARKER), JSON.stringify({ pid: live.pid, startedAt: Date.now() }));
      const temps = halfWritten();
      expect((await run(data.path, 'stats')).code).toBe(0);
      for (const t of temps) expect(existsSync(t), t).toBe(true);
      expect(existsSync(join(data.path, IMPORT_MARKER))).toBe(true);

      // The live one ends cleanly (its mark removed): the next open removes what the dead one left.
      live.kill('SIGKILL');
      await new Promise((r) => live.on('exit', r));
      rmSync(liveMark);
      expect((await run(data.path, 'stats')).code).toBe(0);
      for (const t of temps) expect(existsSync(t), t).toBe(false);
      expect(existsSync(join(data.path, IMPORT_MARKER))).toBe(false);
    } finally {
      live.kill('SIGKILL');
    }
  });
});
