// A small, bounded reader of zip packages (a .docx is one): the central directory, then one entry by
// name, stored or deflated, inflated with a cap on its size. Enough for Office files; ZIP64, encryption
// and split archives are refused with a message, never read half-way.
import { inflateRawSync } from 'node:zlib';

export class ZipError extends Error {}

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The most entries a package may list (a Word file has a few dozen). */
const MAX_ENTRIES = 10_000;

export class ZipReader {
  readonly #buf: Buffer;
  readonly #entries = new Map<string, Entry>();

  constructor(buf: Buffer) {
    this.#buf = buf;
    if (buf.length < 22) throw new ZipError('it is too short to be a zip package');
    // The end record is in the last 22 + 65,535 (comment) bytes.
    let eocd = -1;
    for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
      if (buf.readUInt32LE(i) === EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new ZipError('it is not a zip package (no end of central directory record)');
    const count = buf.readUInt16LE(eocd + 10);
    const cdSize = buf.readUInt32LE(eocd + 12);
    const cdOffset = buf.readUInt32LE(eocd + 16);
    if (count === 0xffff || cdOffset === 0xffffffff) throw new ZipError('it is a ZIP64 package, which is not read');
    if (buf.readUInt16LE(eocd + 4) !== 0) throw new ZipError('it is a split zip archive, which is not read');
    if (count > MAX_ENTRIES) throw new ZipError(`it lists ${count} entries, more than ${MAX_ENTRIES}`);
    if (cdOffset + cdSize > eocd)
      throw new ZipError('its central directory lies outside the file (the file is truncated or damaged)');
    let p = cdOffset;
    for (let n = 0; n < count; n++) {
      if (p + 46 > eocd || buf.readUInt32LE(p) !== CENTRAL)
        throw new ZipError(`its central directory is damaged at entry ${n + 1}`);
      const nameLen = buf.readUInt16LE(p + 28);
      const extraLen = buf.readUInt16LE(p + 30);
      const commentLen = buf.readUInt16LE(p + 32);
      const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
      this.#entries.set(name, {
        name,
        flags: buf.readUInt16LE(p + 8),
        method: buf.readUInt16LE(p + 10),
        compressedSize: buf.readUInt32LE(p + 20),
        size: buf.readUInt32LE(p + 24),
        localOffset: buf.readUInt32LE(p + 42),
      });
      p += 46 + nameLen + extraLen + commentLen;
    }
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** The entry's bytes; null when the package has no such entry. Throws ZipError when it cannot be read. */
  read(name: string, maxBytes: number): Buffer | null {
    const e = this.#entries.get(name);
    if (!e) return null;
    if (e.flags & 1) throw new ZipError(`${name} is encrypted`);
    if (e.size > maxBytes) throw new ZipError(`${name} unpacks to ${e.size} bytes, more than the ${maxBytes} allowed`);
    const b = this.#buf;
    const p = e.localOffset;
    if (p + 30 > b.length || b.readUInt32LE(p) !== LOCAL)
      throw new ZipError(`${name}: its local header is missing (the file is damaged)`);
    const start = p + 30 + b.readUInt16LE(p + 26) + b.readUInt16LE(p + 28);
    const end = start + e.compressedSize;
    if (end > b.length) throw new ZipError(`${name} runs past the end of the file (the file is truncated)`);
    const raw = b.subarray(start, end);
    if (e.method === 0) return Buffer.from(raw);
    if (e.method !== 8) throw new ZipError(`${name} uses compression method ${e.method}, which is not read`);
    try {
      // The declared size may lie; the cap holds whatever the data says.
      return inflateRawSync(raw, { maxOutputLength: Math.max(1, Math.min(maxBytes, e.size || maxBytes)) });
    } catch (err) {
      throw new ZipError(`${name} cannot be unpacked: ${(err as Error).message}`);
    }
  }
}
