// The checks of user-given paths: a target to keep in sync, and a file to attach.
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../electron/core/errors';
import { checkWritableTarget, hashFile } from '../../../electron/core/fs/paths';
import { tempDir } from '../../helpers/tmp';

let root: ReturnType<typeof tempDir>;
let dataDir: string;
beforeEach(() => {
  root = tempDir();
  dataDir = join(root.path, 'data');
  mkdirSync(join(dataDir, 'backups'), { recursive: true });
});
afterEach(() => root.remove());

async function refusal(p: Promise<unknown>): Promise<CoreError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CoreError);
  return err as CoreError;
}

const bib = { extensions: ['bib'], formatLabel: 'BibTeX' };

describe('checkWritableTarget', () => {
  it('accepts a new or existing file in a writable folder, any case of the extension, normalised', async () => {
    expect(await checkWritableTarget(`${root.path}/x/../refs.BIB`, { ...bib, forbiddenDir: dataDir })).toBe(
      join(root.path, 'refs.BIB'),
    );
    writeFileSync(join(root.path, 'old.bib'), 'x');
    expect(await checkWritableTarget(`  ${join(root.path, 'old.bib')} `, bib)).toBe(join(root.path, 'old.bib'));
  });

  it('refuses the data folder also through a symbolic link to it', async () => {
    symlinkSync(dataDir, join(root.path, 'link'));
    const err = await refusal(
      checkWritableTarget(join(root.path, 'link', 'backups', 'refs.bib'), { ...bib, forbiddenDir: dataDir }),
    );
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toContain('data folder');
    // A sibling whose name starts like the data folder is not inside it.
    mkdirSync(join(root.path, 'data-papers'));
    expect(
      await checkWritableTarget(join(root.path, 'data-papers', 'refs.bib'), { ...bib, forbiddenDir: dataDir }),
    ).toBe(join(root.path, 'data-papers', 'refs.bib'));
  });

  it('says what is wrong: relative, NUL, extension, missing folder, a file as folder', async () => {
    expect((await refusal(checkWritableTarget('refs.bib', bib))).message).toContain('full path');
    expect((await refusal(checkWritableTarget(`${root.path}/a\0.bib`, bib))).message).toContain('NUL');
    expect((await refusal(checkWritableTarget(join(root.path, 'refs'), bib))).message).toContain('has no extension');
    const missing = await refusal(checkWritableTarget(join(root.path, 'nope', 'refs.bib'), bib));
    expect(missing.code).toBe('NOT_FOUND');
    writeFileSync(join(root.path, 'plain'), 'x');
    expect((await refusal(checkWritableTarget(join(root.path, 'plain', 'refs.bib'), bib))).message).toContain(
      'is a file, not a folder',
    );
  });
});

describe('hashFile', () => {
  it('streams a file larger than one read through SHA-256', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const file = join(root.path, 'big.pdf');
    writeFileSync(file, bytes);
    const out = await hashFile(file);
    expect(out).toMatchObject({
      path: file,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  });

  it('refuses what is not a regular file', async () => {
    expect((await refusal(hashFile(root.path))).message).toContain('folder');
    expect((await refusal(hashFile(join(root.path, 'none.pdf')))).code).toBe('NOT_FOUND');
  });
});
