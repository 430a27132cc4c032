// The asynchronous atomic write (used for the library's copies of PDFs): the same guarantees as the
// synchronous one (synced, renamed over the target, directory synced; on failure nothing is left and
// the target is as it was), without holding the calling thread while the disk works.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  copyFileAtomicAsync,
  nodeAtomicFsAsync,
  writeFileAtomicAsync,
  type AtomicWriteFsAsync,
} from '../../../electron/core/fs/atomic-write';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'citewise-atomic-async-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** node:fs/promises with each step recorded, and the file's fsync held until `release` is called. */
function recordingFs(options: { failRename?: boolean; holdSync?: boolean } = {}) {
  const calls: string[] = [];
  let release = (): void => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const fs: AtomicWriteFsAsync = {
    ...nodeAtomicFsAsync,
    async open(path, flags, mode) {
      const handle = await nodeAtomicFsAsync.open(path, flags, mode);
      calls.push(`open ${path === dir ? 'dir' : path.includes('.tmp') ? 'temp' : path} ${flags}`);
      return {
        writeFile: (data: Parameters<typeof handle.writeFile>[0]) => handle.writeFile(data),
        close: () => handle.close(),
        async sync() {
          calls.push(`sync ${path === dir ? 'dir' : 'temp'}`);
          if (options.holdSync && path !== dir) await held;
          return handle.sync();
        },
      };
    },
    async rename(from, to) {
      calls.push('rename');
      if (options.failRename)
        throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
      return nodeAtomicFsAsync.rename(from, to);
    },
  };
  return { fs, calls, release };
}

describe('writeFileAtomicAsync', () => {
  it('writes the bytes, syncs the file before the rename and the folder after it', async () => {
    const target = join(dir, 'paper.pdf');
    const { fs, calls } = recordingFs();
    await writeFileAtomicAsync(target, Buffer.from('%PDF-1.7 new'), fs);
    expect(readFileSync(target, 'utf8')).toBe('%PDF-1.7 new');
    expect(calls).toEqual(['open temp wx', 'sync temp', 'rename', 'open dir r', 'sync dir']);
    expect(readdirSync(dir)).toEqual(['paper.pdf']);
  });

  it('leaves the target as it was and no temporary file when a step fails', async () => {
    const target = join(dir, 'paper.pdf');
    writeFileSync(target, 'old');
    const { fs } = recordingFs({ failRename: true });
    await expect(writeFileAtomicAsync(target, Buffer.from('new'), fs)).rejects.toThrow('EXDEV');
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['paper.pdf']);
  });

  it('lets the calling thread run other work while the disk syncs, and shows the target only once synced', async () => {
    const target = join(dir, 'paper.pdf');
    writeFileSync(target, 'old');
    const { fs, calls, release } = recordingFs({ holdSync: true });
    let finished = false;
    const writing = writeFileAtomicAsync(target, Buffer.from('new'), fs).then(() => (finished = true));
    // The fsync is held: other work on this thread (timers, IPC) still runs meanwhile.
    while (!calls.includes('sync temp')) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 20));
    expect(finished).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('old');
    release();
    await writing;
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['paper.pdf']);
  });
});

describe('copyFileAtomicAsync', () => {
  it('copies a file byte for byte into a new one, with no temporary file left', async () => {
    const from = join(dir, 'paper.pdf');
    const bytes = Buffer.from(Array.from({ length: 3 * 1024 * 1024 + 7 }, (_, i) => (i * 31) % 256));
    writeFileSync(from, bytes);
    await copyFileAtomicAsync(from, join(dir, 'copy.pdf'));
    expect(readFileSync(join(dir, 'copy.pdf')).equals(bytes)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['copy.pdf', 'paper.pdf']);
  });

  it('leaves nothing behind when the source cannot be read', async () => {
    await expect(copyFileAtomicAsync(join(dir, 'gone.pdf'), join(dir, 'copy.pdf'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});
