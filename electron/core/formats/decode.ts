// Bytes → text. Reference files arrive in every encoding the last thirty years produced: UTF-8 with
// or without a BOM, UTF-16 from Windows tools, Latin-1/Windows-1252 from old BibTeX and RIS exports.
import { isUtf8 } from 'node:buffer';
import { FormatError, type ImportLimits } from './limits';
import type { ImportIssue } from './result';

export interface DecodedText {
  text: string;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
  warnings: ImportIssue[];
}

export function decodeBytes(bytes: Uint8Array, limits: Pick<ImportLimits, 'maxBytes'>): DecodedText {
  if (bytes.length > limits.maxBytes) {
    throw new FormatError(`The file is ${mb(bytes.length)} MB; the import limit is ${mb(limits.maxBytes)} MB.`);
  }
  const warnings: ImportIssue[] = [];
  let text: string;
  let encoding: DecodedText['encoding'];
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    encoding = 'utf-8';
    text = strictUtf8(bytes.subarray(3)) ?? fallback(bytes.subarray(3), warnings);
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    encoding = 'utf-16le';
    text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    encoding = 'utf-16be';
    text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  } else {
    const bomless = guessUtf16(bytes);
    if (bomless) {
      encoding = bomless;
      text = new TextDecoder(bomless).decode(bytes);
      warnings.push({
        line: 0,
        reason: `The file has no byte-order mark but looks like ${bomless.toUpperCase()}; it was read as such.`,
      });
    } else {
      const utf8 = strictUtf8(bytes);
      if (utf8 !== undefined) {
        encoding = 'utf-8';
        text = utf8;
      } else {
        encoding = 'windows-1252';
        text = fallback(bytes, warnings);
      }
    }
  }
  assertText(text);
  return { text, encoding, warnings };
}

function strictUtf8(bytes: Uint8Array): string | undefined {
  // isUtf8 validates 66 MB in milliseconds; decoding is the costly part and only happens once.
  return isUtf8(bytes) ? new TextDecoder('utf-8').decode(bytes) : undefined;
}

function fallback(bytes: Uint8Array, warnings: ImportIssue[]): string {
  const bad = firstInvalidUtf8(bytes);
  const line = bad < 0 ? 0 : lineAtByte(bytes, bad);
  warnings.push({
    line,
    reason:
      'The file is not valid UTF-8; it was read as Windows-1252 (Latin-1). Check accented characters, or save the file as UTF-8.',
  });
  return new TextDecoder('windows-1252').decode(bytes);
}

/** UTF-16 without a BOM shows as a NUL in every other byte of ASCII text. */
export function guessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const n = Math.min(bytes.length & ~1, 4096);
  if (n < 8) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.6 && evenNul < pairs * 0.05) return 'utf-16le';
  if (evenNul > pairs * 0.6 && oddNul < pairs * 0.05) return 'utf-16be';
  return undefined;
}

/** Binary files (PDFs, images, archives) decode to text full of control characters; say so plainly. */
export function assertText(text: string): void {
  const n = Math.min(text.length, 65_536);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0)
      throw new FormatError(
        'The file contains NUL bytes: it is a binary file, not a reference file (BibTeX, RIS, CSL-JSON or a DOI list).',
        lineAtChar(text, i),
      );
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0xfffd) control++;
  }
  if (n > 0 && control > Math.max(8, n * 0.02)) {
    throw new FormatError(
      'The file is mostly unprintable characters: it looks binary, not like a reference file (BibTeX, RIS, CSL-JSON or a DOI list).',
    );
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need =
      b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return -1;
}

function lineAtByte(bytes: Uint8Array, at: number): number {
  let line = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 10) line++;
  return line;
}

function lineAtChar(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
