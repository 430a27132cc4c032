// Issue 41, point 4: standard output that cannot be written. `citewise export > refs.bib` on a disk
// that filled up half-way left a cut file and exited 0 (Node's process.stdout writes a file with one
// write() and ignores a short count); a disk full from the start, or /dev/full, ended with an unhandled
// 'error' event and its stack trace; `citewise export | head` did the same with EPIPE. Now a cut output
// is one line and exit 1, and a reader that left ends the command quietly. Runs the built command
// (out/cli), as a user does: the behaviour lives in how the process's own stdout is written.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandardOutput, type WriteFn } from '../../../electron/cli/stdout';
import { tempDir } from '../cli-library/helpers';
import { bibtex, smallDisk } from './disk';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'bin', 'citewise.mjs');
const built = existsSync(join(ROOT, 'out', 'cli', 'index.js'));

interface Ran {
  code: number | null;
  stderr: string;
}

/** Runs the built command with its stdout on `out` (a file descriptor, or a pipe read for `keep` bytes and then closed). */
function citewise(dataDir: string, out: number | { keep: number }, ...args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--data-dir', dataDir, ...args], {
      stdio: ['ignore', typeof out === 'number' ? out : 'pipe', 'pipe'],
      env: { ...process.env, CITEWISE_DATA_DIR: '', CITEWISE_API_KEY: '' },
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    if (typeof out !== 'number') {
      let got = 0;
      child.stdout!.on('data', (b: Buffer) => {
        got += b.length;
        // The reader has what it wanted and goes away, as `head -c` does.
        if (got >= out.keep) child.stdout!.destroy();
      });
    }
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const NO_TRACE = /\n\s+at |node:internal|Unhandled 'error'/;

describe.skipIf(!built)('standard output that cannot be written (built command)', { timeout: 240_000 }, () => {
  let data: ReturnType<typeof tempDir>;
  let dataDir: string;
  let full: string;

  beforeAll(async () => {
    data = tempDir('citewise-stdout-');
    dataDir = join(data.path, 'data');
    const src = join(data.path, 'refs.bib');
    writeFileSync(src, bibtex(1_000, 'ref'));
    const devNull = openSync('/dev/null', 'w');
    const r = await citewise(dataDir, devNull, 'import', src);
    closeSync(devNull);
    expect(r.code, r.stderr).toBe(0);
    full = readFileSync(src, 'utf8');
  });
  afterAll(() => data.remove());

  it('export into a file on a disk that fills up half-way: exit 1, one clear line, no stack trace', async () => {
    const disk = smallDisk();
    try {
      if (disk.kind !== 'tmpfs') return; // a real small disk needs root (the CI runs as root)
      const exported = join(data.path, 'whole.bib');
      const fdWhole = openSync(exported, 'w');
      const whole = await citewise(dataDir, fdWhole, 'export');
      closeSync(fdWhole);
      expect(whole.code, whole.stderr).toBe(0);
      const size = statSync(exported).size;
      expect(size).toBeGreaterThan(400_000);

      // Fill the disk, then free room for about half the export.
      execFileSync('mkdir', ['-p', disk.dataDir]);
      disk.fill(join(disk.dataDir, 'none'));
      const filler = join(disk.dataDir, '..', 'filler');
      execFileSync('truncate', ['-s', `-${Math.floor(size / 2)}`, filler]);
      const target = join(disk.dataDir, 'refs.bib');
      const fd = openSync(target, 'w');
      const r = await citewise(dataDir, fd, 'export');
      closeSync(fd);
      expect(statSync(target).size).toBeLessThan(size);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^citewise: could not write to standard output: the disk is full \(ENOSPC\)/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(NO_TRACE);
    } finally {
      disk.remove();
    }
  });

  // /dev/full fails every write with ENOSPC: each command that writes to stdout says so and exits 1.
  const commands: string[][] = [
    ['export'],
    ['export', '--format', 'csljson'],
    ['export', '--format', 'text', '--style', 'apa', '--query', 'ref1'],
    ['search', 'title:ref'],
    ['search', 'title:ref', '--json'],
    ['stats'],
    ['stats', '--json'],
    ['check'],
    ['auto-export', 'list', '--json'],
    ['styles', 'list'],
    ['--version'],
    ['--help'],
  ];
  it.each(commands)('%s … > /dev/full: exit 1, one clear line, no stack trace', async (...args) => {
    const fd = openSync('/dev/full', 'w');
    try {
      const r = await citewise(dataDir, fd, ...args);
      expect(r.stderr).toMatch(/citewise: could not write to standard output: the disk is full \(ENOSPC\)/);
      expect(r.stderr).not.toMatch(NO_TRACE);
      // check has exit codes of its own for what it found; it keeps one of those, never 0.
      if (args[0] === 'check') expect(r.code).not.toBe(0);
      else expect(r.code).toBe(1);
    } finally {
      closeSync(fd);
    }
  });

  it('export | head: the reader leaving ends the command quietly, exit 0', async () => {
    for (const args of [['export'], ['search', 'title:ref'], ['export', '--format', 'csljson']]) {
      const r = await citewise(dataDir, { keep: 1 }, ...args);
      // Nothing but the command's own notes (search's "1,000 items found…").
      expect(r.stderr, args.join(' ')).not.toMatch(/could not write|EPIPE|error/i);
      expect(r.stderr, args.join(' ')).not.toMatch(NO_TRACE);
      expect(r.code, args.join(' ')).toBe(0);
    }
    expect(full.length).toBeGreaterThan(65_536 * 4); // more than a pipe holds: the writer does meet EPIPE
  });
});

describe('StandardOutput', () => {
  /** A fake write(2): takes at most `room` bytes in total, `perCall` at a time, then fails with `code`. */
  function disk(room: number, perCall: number, code = 'ENOSPC'): { write: WriteFn; written: () => number } {
    let written = 0;
    return {
      written: () => written,
      write: (_fd, _buf, _off, len) => {
        if (written >= room) throw Object.assign(new Error(`${code}: failed, write`), { code });
        const n = Math.min(len, perCall, room - written);
        written += n;
        return n;
      },
    };
  }

  it('writes a chunk whole through short writes', () => {
    const d = disk(1_000, 7);
    const out = new StandardOutput(1, d.write);
    out.write('x'.repeat(999));
    expect(d.written()).toBe(999);
    expect(out.failureMessage()).toBeNull();
  });

  it('one byte below, at and above the room left: only above is a failure', () => {
    for (const [size, failed] of [
      [999, false],
      [1_000, false],
      [1_001, true],
    ] as const) {
      const out = new StandardOutput(1, disk(1_000, 4_096).write);
      out.write(Buffer.alloc(size));
      expect(out.failure !== null, String(size)).toBe(failed);
    }
  });

  it('EPIPE drops the rest quietly; EAGAIN waits and goes on; EIO is a failure named as such', () => {
    const pipe = new StandardOutput(1, disk(10, 10, 'EPIPE').write);
    pipe.write('a'.repeat(20));
    pipe.write('more');
    expect(pipe.readerGone).toBe(true);
    expect(pipe.failureMessage()).toBeNull();

    let tries = 0;
    const busy = new StandardOutput(1, (_fd, _b, _o, len) => {
      if (++tries < 4)
        throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' });
      return len;
    });
    busy.write('abc');
    expect(tries).toBe(4);
    expect(busy.failureMessage()).toBeNull();

    const io = new StandardOutput(1, disk(0, 1, 'EIO').write);
    io.write('x');
    expect(io.failureMessage()).toBe(
      'could not write to standard output: failed (EIO); what was written is incomplete.',
    );
  });
});
