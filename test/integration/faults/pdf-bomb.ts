// PDFs for the memory-cap tests, written here with node:zlib: a decompression bomb (a FlateDecode
// content stream of a few MB that inflates to gigabytes) and ordinary PDFs with large real streams.
import { deflateRawSync, deflateSync, constants } from 'node:zlib';

/** A PDF from its objects' bodies (object n is bodies[n-1]), with a correct cross-reference table. */
export function pdfOf(bodies: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(at);
    const head = Buffer.from(`${i + 1} 0 obj\n`, 'latin1');
    const b = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
    const tail = Buffer.from('\nendobj\n', 'latin1');
    parts.push(head, b, tail);
    at += head.length + b.length + tail.length;
  });
  const xref = [
    `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
    `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`,
  ].join('');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

const stream = (dict: string, data: Buffer): Buffer =>
  Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);

/** Pages with the given (already compressed, FlateDecode) content streams, Helvetica as F1. */
export function pdfWithContents(contents: Buffer[]): Buffer {
  const n = contents.length;
  // 1 catalog, 2 pages, 3 font, then page i at 4 + 2i and its content at 5 + 2i.
  const kids = contents.map((_, i) => `${4 + 2 * i} 0 R`).join(' ');
  const bodies: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${n} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  contents.forEach((c, i) => {
    bodies.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
      stream('/Filter /FlateDecode', c),
    );
  });
  return pdfOf(bodies);
}

/**
 * A zlib stream of `bytes` spaces (a multiple of 16 MiB), built the way zlib itself writes one long run:
 * each 16 MiB piece is compressed by zlib from a fresh state (a full flush ends it byte-aligned), so the
 * same bytes repeat, and only the Adler-32 of the whole is worked out here. ~1 KB per MiB of output.
 */
export function inflatingTo(bytes: number): Buffer {
  const piece = 16 * 1024 * 1024;
  if (bytes % piece !== 0) throw new Error('inflatingTo: a multiple of 16 MiB');
  const block = deflateRawSync(Buffer.alloc(piece, 0x20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const end = deflateRawSync(Buffer.alloc(0));
  // Adler-32 of n bytes of value v: a = 1 + n·v, b = n + v·n(n+1)/2, both mod 65521.
  const n = BigInt(bytes);
  const a = (1n + n * 0x20n) % 65521n;
  const b = (n + (0x20n * n * (n + 1n)) / 2n) % 65521n;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array<Buffer>(bytes / piece).fill(block), end, adler]);
}

/** A page of text (one line per Tj, `lines` lines of `width` pseudo-random letters), uncompressed. */
export function textContent(seed: number, lines: number, width: number, title?: string): Buffer {
  let x = seed >>> 0 || 1;
  const letter = (): string => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return String.fromCharCode(97 + (x % 26));
  };
  const out: string[] = ['BT'];
  if (title) out.push('/F1 24 Tf 72 720 Td', `(${title}) Tj`, '/F1 9 Tf 0 -30 Td');
  else out.push('/F1 9 Tf 72 720 Td');
  for (let l = 0; l < lines; l++) {
    let s = '';
    for (let c = 0; c < width; c++) s += c % 7 === 6 ? ' ' : letter();
    out.push(`(${s}) Tj 0 -1 Td`);
  }
  out.push('ET');
  return Buffer.from(out.join('\n'), 'latin1');
}

/** A content stream whose text is `bytes` long once inflated (spaces after a title), compressed. */
export function contentOfSize(bytes: number, title: string): Buffer {
  const head = Buffer.from(`BT /F1 24 Tf 72 720 Td (${title}) Tj ET\n`, 'latin1');
  if (bytes < head.length) throw new Error('contentOfSize: too small');
  return deflateSync(Buffer.concat([head, Buffer.alloc(bytes - head.length, 0x20)]), { level: 9 });
}
