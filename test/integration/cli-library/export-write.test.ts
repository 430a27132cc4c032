// `citewise export -o FILE` writes through the core's atomic write: the file is synced, renamed over
// the target, and then its directory is synced so that the rename itself survives a crash.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeAtomicFs, type AtomicWriteFs } from '../../../electron/core/fs/atomic-write';
import { FIXTURES, run, runWith, tempDir } from './helpers';

/** The real file system, each call recorded (descriptors named by the path they were opened on). */
function recordingFs(failRename = false): { fs: AtomicWriteFs; calls: string[] } {
  const calls: string[] = [];
  const opened = new Map<number, string>();
  const fs: AtomicWriteFs = {
    ...nodeAtomicFs,
    openSync(path, flags, mode) {
      const fd = nodeAtomicFs.openSync(path, flags, mode);
      opened.set(fd, path);
      calls.push(`open ${path} ${flags}`);
      return fd;
    },
    fsyncSync(fd) {
      calls.push(`fsync ${opened.get(fd)}`);
      nodeAtomicFs.fsyncSync(fd);
    },
    renameSync(from, to) {
      calls.push(`rename ${to}`);
      if (failRename) throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
      nodeAtomicFs.renameSync(from, to);
    },
  };
  return { fs, calls };
}

let data: ReturnType<typeof tempDir>;
/** Where the exports go: a folder of their own (never inside the library's folder, which is refused). */
let exportsDir: ReturnType<typeof tempDir>;
let outDir: string;
beforeEach(async () => {
  data = tempDir();
  exportsDir = tempDir();
  outDir = join(exportsDir.path, 'exports');
  mkdirSync(outDir);
  expect((await run(data.path, 'import', join(FIXTURES, 'library.bib'))).code).toBe(0);
});
afterEach(() => {
  data.remove();
  exportsDir.remove();
});

describe('citewise export -o', () => {
  it('syncs the file, renames it over the target, then syncs the directory', async () => {
    const target = join(outDir, 'refs.bib');
    writeFileSync(target, 'the old content\n');
    const { fs, calls } = recordingFs();
    const r = await runWith({ atomicFs: fs }, data.path, 'export', '--format', 'bibtex', '-o', target);
    expect(r.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toContain('@article{watson1953,');
    const rename = calls.indexOf(`rename ${target}`);
    expect(rename).toBeGreaterThan(0);
    expect(calls.slice(0, rename).some((c) => c.startsWith('fsync ') && c.endsWith('.tmp'))).toBe(true);
    expect(calls.slice(rename + 1)).toEqual([`open ${dirname(target)} r`, `fsync ${dirname(target)}`]);
  });

  it('leaves the old file and no temporary file when the rename fails', async () => {
    const target = join(outDir, 'refs.bib');
    writeFileSync(target, 'the old content\n');
    const r = await runWith({ atomicFs: recordingFs(true).fs }, data.path, 'export', '-o', target);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`citewise: could not write ${target}: EXDEV: cross-device link not permitted\n`);
    expect(readFileSync(target, 'utf8')).toBe('the old content\n');
    expect(readdirSync(outDir)).toEqual(['refs.bib']);
  });
});
