// Issue 18, point 4: files that are not files, and folders that are not folders, get a clear message
// (or INVALID_INPUT), never a hang, "unexpected failure" or INTERNAL.
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { run, tempDir } from '../cli-library/helpers';
import { bibtex } from './disk';

let dir: { path: string; remove: () => void };
beforeEach(() => {
  dir = tempDir('citewise-odd-');
});
afterEach(() => dir.remove());

describe('files that are not files', { timeout: 90_000 }, () => {
  it('refuses /dev/zero at once, as a device', async () => {
    const started = Date.now();
    const r = await run(join(dir.path, 'data'), 'import', '/dev/zero');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('/dev/zero is a device, not a regular file; Citewise imports only files.');
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('refuses a FIFO with no writer instead of waiting on it forever', async () => {
    const fifo = join(dir.path, 'refs.bib');
    execFileSync('mkfifo', [fifo]);
    const r = await run(join(dir.path, 'data'), 'import', fifo);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${fifo} is a pipe (FIFO), not a regular file`);
    expect(r.stderr).not.toMatch(/pars/i);
  });

  it('refuses a symbolic link loop and a folder, and still imports a regular file', async () => {
    const loop = join(dir.path, 'loop.bib');
    symlinkSync(loop, loop);
    const data = join(dir.path, 'data');
    expect((await run(data, 'import', loop)).stderr).toContain('is a loop of symbolic links');
    expect((await run(data, 'import', dir.path)).stderr).toMatch(/is a folder, not a (regular )?file/);
    writeFileSync(join(dir.path, 'ok.bib'), bibtex(3, 'ok'));
    const ok = await run(data, 'import', join(dir.path, 'ok.bib'));
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('says what is wrong with a --data-dir that is a file, /proc/1 or a symlink loop', async () => {
    const file = join(dir.path, 'a-file');
    writeFileSync(file, 'x');
    const loop = join(dir.path, 'loop');
    symlinkSync(loop, loop);
    for (const [dataDir, why] of [
      [file, 'is a file (or lies under one), not a folder'],
      [join(file, 'sub'), 'is a file (or lies under one), not a folder'],
      ['/proc/1', 'is not a place Citewise can write its library (ENOENT)'],
      [loop, 'is a loop of symbolic links'],
    ] as const) {
      const r = await run(dataDir, 'stats');
      expect(r.code, dataDir).toBe(1);
      expect(r.stderr, dataDir).toBe(
        `citewise: The data folder ${dataDir} ${why}. Choose another with --data-dir or CITEWISE_DATA_DIR.\n`,
      );
    }
  });

  it('refuses a DOI containing %00 with a clear message', async () => {
    const r = await run(join(dir.path, 'data'), 'enrich', '10.1234/abc%00def');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'citewise: "10.1234/abc%00def" is not a DOI: The DOI contains a control character (such as %00); a DOI never does.\n',
    );
    const core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    try {
      // An existing item, so that only the DOI can be the reason for a refusal.
      const imported = await core.invoke('library.import', {
        text: '@book{b1, title = {A book}, year = {2001}}',
        fileName: 'b.bib',
      });
      const id = imported.ok ? (imported.value as { ids: number[] }).ids[0]! : 0;
      expect(id).toBeGreaterThan(0);
      for (const DOI of ['10.1234/abc%00def', '10.1234/abc\u0000def', '10.1234/abc%1Fdef']) {
        const update = await core.invoke('library.item.update', { id, csl: { type: 'book', title: 'A book', DOI } });
        expect(update, DOI).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
        expect(!update.ok && update.error.message).toContain(
          'csl.DOI: The DOI contains a control character (such as %00); a DOI never does',
        );
      }
      const kept = await core.invoke('library.item.get', { id });
      expect(kept.ok && (kept.value as { csl: { DOI?: string } }).csl.DOI).toBeFalsy();
      // The other side: a DOI with an ordinary percent sign or escape is the user's to keep.
      const fine = await core.invoke('library.item.update', {
        id,
        csl: { type: 'book', title: 'A book', DOI: '10.1234/abc%2Fdef' },
      });
      expect(fine.ok).toBe(true);
    } finally {
      await core.close();
    }
  });

  it('answers library.item.update with a CSL record lacking "type" with INVALID_INPUT', async () => {
    const core = await createCore({ dataDir: join(dir.path, 'data'), mode: 'test', logger: silentLogger });
    try {
      const r = await core.invoke('library.item.update', { id: 1, csl: { title: 'No type' } });
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(!r.ok && r.error.message).toContain('csl.type: A CSL record needs a "type"');
    } finally {
      await core.close();
    }
  });
});
