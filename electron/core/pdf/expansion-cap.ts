// Caps on what a PDF may expand to while pdf.js reads it: a decompression bomb (a FlateDecode stream of
// a few MB that inflates to gigabytes) reached 4.5 GB before its time limit ended it, since pdf.js
// keeps a stream's decoded bytes in one growing buffer, outside the JavaScript heap that the worker's
// resourceLimits bound. pdf.js has no option for it, and its stream classes are not exported; what
// every decoder (Flate, LZW, ASCII85, RunLength, predictors, decryption) does have in common is that it
// grows its buffer with `new Uint8Array(size)`. So in the PDF worker thread, which runs nothing but
// pdf.js, the global Uint8Array and ArrayBuffer constructors are wrapped (a Proxy: `instanceof`, the
// statics and subclasses behave as before) to check each large allocation against two caps:
// - one buffer: no decoded stream may need more than `streamBytes`;
// - the document: the memory the thread's buffers hold at once (V8's external memory, this thread's
//   own) may not grow by more than `documentBytes` over what it was when the document was opened.
// An allocation over a cap throws, and the guard remembers it: pdf.js swallows many errors (it goes on
// with the next page), so the reader asks the guard afterwards and reports the file as too large
// however pdf.js ended. Only allocations of CHECK_FROM bytes or more are looked at.
import { getHeapStatistics } from 'node:v8';

export interface ExpansionCaps {
  /** The largest buffer one decoded stream may need, in bytes. */
  streamBytes: number;
  /** How much the thread's buffers may grow while one document is read, in bytes. */
  documentBytes: number;
}

export const DEFAULT_EXPANSION_CAPS: ExpansionCaps = {
  streamBytes: 128 * 1024 * 1024,
  documentBytes: 512 * 1024 * 1024,
};

/** Smaller allocations are not checked (pdf.js makes many; none of them alone is a bomb). */
export const CHECK_FROM = 64 * 1024;

const MB = 1024 * 1024;

/** The sentence the user reads (after "not searchable: ", or "X.pdf was not added: "). */
export function expansionMessage(capBytes: number): string {
  return `this PDF expands beyond ${Math.round(capBytes / MB)} MB when read; its text was not read`;
}

export class ExpansionCapError extends RangeError {
  constructor(readonly capBytes: number) {
    super(expansionMessage(capBytes));
  }
}

/** The byte length a typed-array or ArrayBuffer constructor call would allocate, or 0 when it copies a view or wraps a buffer. */
function requested(args: readonly unknown[]): number {
  const first = args[0];
  return typeof first === 'number' && Number.isFinite(first) && first > 0 ? first : 0;
}

export class ExpansionGuard {
  readonly caps: ExpansionCaps;
  #base = 0;
  #active = false;
  #tripped: ExpansionCapError | null = null;

  constructor(caps: ExpansionCaps) {
    this.caps = caps;
  }

  /** Wraps this thread's Uint8Array and ArrayBuffer constructors; call once, before pdf.js loads. */
  install(scope: { Uint8Array: Uint8ArrayConstructor; ArrayBuffer: ArrayBufferConstructor } = globalThis): void {
    const check = (bytes: number): void => this.check(bytes);
    const handler: ProxyHandler<Uint8ArrayConstructor & ArrayBufferConstructor> = {
      construct(target, args: unknown[], newTarget) {
        const bytes = requested(args);
        if (bytes >= CHECK_FROM) check(bytes);
        return Reflect.construct(target, args, newTarget) as object;
      },
    };
    scope.Uint8Array = new Proxy(scope.Uint8Array, handler as ProxyHandler<Uint8ArrayConstructor>);
    scope.ArrayBuffer = new Proxy(scope.ArrayBuffer, handler as ProxyHandler<ArrayBufferConstructor>);
  }

  /** A document starts: its growth is measured from here, and an earlier document's trip is forgotten. */
  begin(): void {
    this.#base = getHeapStatistics().external_memory;
    this.#tripped = null;
    this.#active = true;
  }

  /** The document is done (or failed): allocations are no longer checked. Returns the cap it met, if any. */
  end(): ExpansionCapError | null {
    this.#active = false;
    return this.#tripped;
  }

  /** Throws (and remembers) when allocating `bytes` more would break a cap. */
  check(bytes: number): void {
    if (!this.#active) return;
    if (this.#tripped) throw this.#tripped;
    if (bytes > this.caps.streamBytes) throw (this.#tripped = new ExpansionCapError(this.caps.streamBytes));
    const grown = getHeapStatistics().external_memory - this.#base;
    if (grown + bytes > this.caps.documentBytes) throw (this.#tripped = new ExpansionCapError(this.caps.documentBytes));
  }
}
