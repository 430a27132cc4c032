// The command line's standard output. Node's own process.stdout, when it is a file, writes each chunk
// with one write() and ignores a short count: `citewise export > refs.bib` on a disk that filled up
// half-way left a cut file and exited 0. To a pipe whose reader had gone (`citewise export | head`)
// it threw EPIPE as an unhandled 'error' event, with a stack trace. Here every chunk is written whole
// (a short count is followed by another write, which then reports ENOSPC), a write error is kept for
// the command's end (a clear line on stderr, exit 1), and a reader that has gone ends the output
// quietly: what the reader wanted it has had.
import { writeSync } from 'node:fs';
import { Writable } from 'node:stream';

/** What the writes go through (fs.writeSync; tests pass a fake). */
export type WriteFn = (fd: number, buffer: Buffer, offset: number, length: number) => number;

/** Longest wait between tries when the output is a non-blocking pipe that is full (EAGAIN). */
const MAX_WAIT_MS = 50;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export class StandardOutput extends Writable {
  readonly #fd: number;
  readonly #write: WriteFn;
  /** The write error that cut the output short; null while everything was written. */
  failure: NodeJS.ErrnoException | null = null;
  /** Whether the reader went away (EPIPE): later output is dropped, and that is not an error. */
  readerGone = false;

  constructor(fd = 1, write: WriteFn = writeSync) {
    super({ decodeStrings: true });
    this.#fd = fd;
    this.#write = write;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.#writeAll(chunk);
    // Never an error here: a failed stream would throw at every later write of the command.
    done();
  }

  #writeAll(buffer: Buffer): void {
    let at = 0;
    let waits = 0;
    while (at < buffer.length && this.failure === null && !this.readerGone) {
      try {
        at += this.#write(this.#fd, buffer, at, buffer.length - at);
        waits = 0;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN' || code === 'EWOULDBLOCK') {
          // A pipe opened non-blocking by someone else, full for now: the reader is slow, not gone.
          sleep(Math.min(MAX_WAIT_MS, 2 ** waits++));
        } else if (code === 'EPIPE') {
          this.readerGone = true;
        } else {
          this.failure = err as NodeJS.ErrnoException;
        }
      }
    }
  }

  /** The line to print when the output was cut short, or null when it was written whole (or its reader left). */
  failureMessage(): string | null {
    const err = this.failure;
    if (err === null) return null;
    const code = err.code ?? err.name;
    const why =
      code === 'ENOSPC'
        ? 'the disk is full'
        : code === 'EDQUOT'
          ? 'the disk quota is used up'
          : (err.message.replace(/^[A-Z]+: /, '').split(',')[0] ?? err.message);
    return `could not write to standard output: ${why} (${code}); what was written is incomplete.`;
  }
}
