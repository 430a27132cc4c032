// A PDF's bytes on the thread that answers the UI: hashed a slice at a time, and an upload's base64
// decoded a slice at a time, with the same result as doing either in one go.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeBase64File } from '../../../electron/core/handlers/pdfs';
import { sha256Of } from '../../../electron/core/pdf/capture';

const MiB = 1024 * 1024;
// Sizes around the 1 MiB slices (of bytes for the hash, of base64 characters for the decode), with every padding.
const SIZES = [0, 1, 2, 3, MiB - 1, MiB, MiB + 1, (3 * MiB) / 4, (3 * MiB) / 4 + 1, (3 * MiB) / 4 + 2, 3 * MiB + 5];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'citewise-pdf-bytes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('sha256Of', () => {
  it.each(SIZES)('hashes %i bytes as one createHash would', async (size) => {
    const bytes = randomBytes(size);
    expect(await sha256Of(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});

describe('writeBase64File', () => {
  it.each(SIZES)('writes the %i bytes a base64 text stands for', async (size) => {
    const bytes = randomBytes(size);
    const file = join(dir, `${size}.pdf`);
    await writeBase64File(file, bytes.toString('base64'));
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('never writes over a file that is there', async () => {
    const file = join(dir, 'taken.pdf');
    await writeBase64File(file, 'AAAA');
    await expect(writeBase64File(file, 'QkJC')).rejects.toThrow(/EEXIST/);
    expect(readFileSync(file)).toEqual(Buffer.from([0, 0, 0]));
  });
});
