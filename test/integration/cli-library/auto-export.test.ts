// `citewise auto-export`, called as the CLI calls it, against a temporary data directory.
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../../electron/cli/command';
import { command as autoExportCommand } from '../../../electron/cli/commands/auto-export';
import { LibraryClient } from '../../../electron/core/library/client';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { FIXTURES, run, tempDir, type RunResult } from './helpers';

async function autoExport(dataDir: string, ...args: string[]): Promise<RunResult> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (to: string[]) =>
    new Writable({ write: (c: Buffer | string, _e, done) => (to.push(c.toString()), done()) });
  const code = await runCommand(autoExportCommand, ['--data-dir', dataDir, 'auto-export', ...args], {
    dataDir,
    stdout: sink(out),
    stderr: sink(err),
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

let data: ReturnType<typeof tempDir>;
// The files kept in sync live outside the data folder, as the app requires.
let paper: ReturnType<typeof tempDir>;
let files: string;
beforeEach(async () => {
  data = tempDir();
  paper = tempDir();
  files = paper.path;
  expect((await run(data.path, 'import', join(FIXTURES, 'library.bib'))).code).toBe(0);
});
afterEach(() => {
  data.remove();
  paper.remove();
});

describe('citewise auto-export', () => {
  it('adds a definition and writes the file at once; run leaves an unchanged file alone; list and remove', async () => {
    const file = join(files, 'refs.bib');
    const added = await autoExport(data.path, 'add', '--format', 'biblatex', '-o', file, '--json');
    expect(added.code).toBe(0);
    const report = JSON.parse(added.stdout) as {
      autoExport: { id: number; format: string; status: string; path: string };
      run: { status: string; itemCount: number };
    };
    expect(report.autoExport).toMatchObject({ format: 'biblatex', status: 'written', path: file });
    expect(report.run).toMatchObject({ status: 'written', itemCount: 13 });
    const text = readFileSync(file, 'utf8');
    expect(text.match(/^@\w+\{/gm)).toHaveLength(13);
    // The same entries as `citewise export`, which writes them in the order they were added.
    const exported = await run(data.path, 'export', '--format', 'biblatex');
    const entries = (t: string) =>
      t
        .split(/\n(?=@)/)
        .map((e) => e.trim())
        .sort();
    expect(entries(text)).toEqual(entries(exported.stdout));

    const before = statSync(file);
    const again = await autoExport(data.path, 'run');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${file}: up to date, 13 entries, not rewritten\n`);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(file).ino).toBe(before.ino);

    const forced = JSON.parse(
      (await autoExport(data.path, 'run', String(report.autoExport.id), '--force', '--json')).stdout,
    ) as { runs: { status: string; rendered: number }[] };
    expect(forced.runs).toMatchObject([{ status: 'written', rendered: 0 }]);

    const list = JSON.parse((await autoExport(data.path, 'list', '--json')).stdout) as {
      autoExports: { id: number; scope: { kind: string }; itemCount: number }[];
    };
    expect(list.autoExports).toMatchObject([{ id: report.autoExport.id, scope: { kind: 'library' }, itemCount: 13 }]);
    expect((await autoExport(data.path, 'list')).stdout).toContain(
      `${report.autoExport.id}\tbiblatex\tlibrary\t${file}`,
    );

    const removed = await autoExport(data.path, 'remove', String(report.autoExport.id));
    expect(removed.code).toBe(0);
    expect(JSON.parse((await autoExport(data.path, 'list', '--json')).stdout)).toEqual({ autoExports: [] });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('follows a collection by name, with its subcollections unless told otherwise', async () => {
    const client = await LibraryClient.start({ file: join(data.path, LIBRARY_FILE) });
    try {
      const rows = (await client.listing.list({ limit: 100 })).rows;
      const thesis = await client.lib.createCollection('Thesis');
      const chapter = await client.lib.createCollection('Chapter', thesis);
      await client.lib.addToCollection(thesis, [rows[0]!.id]);
      await client.lib.addToCollection(chapter, [rows[1]!.id, rows[2]!.id]);
    } finally {
      await client.close();
    }
    const all = await autoExport(
      data.path,
      'add',
      '--format',
      'csl-json',
      '--collection',
      'thesis',
      '-o',
      join(files, 'thesis.json'),
    );
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('csl-json of the collection "Thesis" and subcollections');
    expect(JSON.parse(readFileSync(join(files, 'thesis.json'), 'utf8'))).toHaveLength(3);
    const top = await autoExport(
      data.path,
      'add',
      '--format',
      'ris',
      '--collection',
      'Thesis',
      '--no-subcollections',
      '-o',
      join(files, 'top.ris'),
    );
    expect(top.code).toBe(0);
    expect(readFileSync(join(files, 'top.ris'), 'utf8').match(/^TY {2}- /gm)).toHaveLength(1);

    const missing = await autoExport(data.path, 'add', '--collection', 'Nope', '-o', join(files, 'x.bib'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no collection is called "Nope" (there are: Chapter, Thesis)');
  });

  it('refuses a file in the data folder or with the wrong extension, storing nothing', async () => {
    const inside = await autoExport(data.path, 'add', '-o', join(data.path, 'refs.bib'));
    expect(inside.code).toBe(1);
    expect(inside.stderr).toContain("in Citewise's data folder");
    const ext = await autoExport(data.path, 'add', '--format', 'csl-json', '-o', join(files, 'refs.bib'));
    expect(ext.code).toBe(1);
    expect(ext.stderr).toContain('A CSL-JSON file ends in .json');
    expect(JSON.parse((await autoExport(data.path, 'list', '--json')).stdout)).toEqual({ autoExports: [] });
  });

  it('run exits 1 and keeps the old file when the folder is gone; usage errors exit 2', async () => {
    const dir = join(files, 'sub');
    mkdirSync(dir);
    const file = join(dir, 'refs.bib');
    expect((await autoExport(data.path, 'add', '-o', file)).code).toBe(0);
    rmSync(dir, { recursive: true });
    const failed = await autoExport(data.path, 'run');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `citewise: auto-export 1: Could not write ${file}: the folder ${dir} does not exist`,
    );
    expect((await autoExport(data.path, 'list')).stdout).toContain('ERROR: Could not write');

    expect((await autoExport(data.path, 'run', '7')).stderr).toContain('no auto-export with id 7');
    for (const args of [
      ['add'],
      ['add', '--format', 'docx', '-o', 'x'],
      ['add', '--library', '--collection', 'A', '-o', 'x'],
      ['add', '--ascii', '--format', 'ris', '-o', 'x'],
      ['remove'],
      ['remove', 'one'],
      ['frob'],
      [],
      ['list', '--bogus'],
    ]) {
      const r = await autoExport(data.path, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^citewise: /);
    }
  });
});
