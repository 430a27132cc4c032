// A small, bounded reader of zip packages (a .docx is one): the central directory, then one entry by
// name, stored or deflated, inflated with a cap on its size. Enough for Office files; ZIP64, encryption
// and split archives are refused with a message, never read half-way. And its writer (writeZip): the
// entries in the order given, deflated or stored (an OpenDocument's `mimetype` must come first, stored).
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

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

  /** The entries' names, in the central directory's order. */
  names(): string[] {
    return [...this.#entries.keys()];
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

export interface ZipEntry {
  name: string;
  data: string | Uint8Array;
  /** Kept uncompressed (an OpenDocument's `mimetype`). */
  store?: boolean;
}

/** The largest package the writer makes without ZIP64 (which readers of Office files do not all take). */
const MAX_ZIP_BYTES = 0xffffffff;

/** A zip package of `entries`, in their order; throws ZipError when it would need ZIP64. */
export function writeZip(entries: readonly ZipEntry[]): Buffer {
  if (entries.length >= 0xffff) throw new ZipError(`a package of ${entries.length} entries needs ZIP64`);
  const chunks: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  // A fixed time (1980-01-01 00:00): the same content gives the same bytes.
  const dosTime = 0;
  const dosDate = (0 << 9) | (1 << 5) | 1;
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : Buffer.from(e.data);
    const packed = e.store ? data : deflateRawSync(data);
    const method = e.store ? 0 : 8;
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    chunks.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
    if (offset > MAX_ZIP_BYTES) throw new ZipError('the package would be larger than 4 GiB, which needs ZIP64');
  }
  const cdSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...centrals, end]);
}
