// LibraryClient.replaceFile: the library file swapped under a running client (a restore). Requests
// made during the swap wait and are answered by the new file; a file the new worker cannot open is
// undone and the client keeps working on the previous one.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { inspectBackup, replaceLibraryFile } from '../../../electron/core/library/backup';
import { LibraryClient } from '../../../electron/core/library/client';
import { CoreError } from '../../../electron/core/errors';
import { tempDir } from '../../helpers/tmp';
import { generateItems } from './helpers/generate-items';

describe('LibraryClient.replaceFile', () => {
  let dir: ReturnType<typeof tempDir>;
  let file: string;
  let client: LibraryClient;
  beforeEach(async () => {
    dir = tempDir('citewise-replace-');
    file = join(dir.path, 'citewise.sqlite');
    client = await LibraryClient.start({ file });
  });
  afterEach(async () => {
    await client.close();
    dir.remove();
  });

  it('answers requests made during the swap from the new file', async () => {
    await client.importItems(generateItems(5, 1));
    const five = await client.backup('manual');
    await client.importItems(generateItems(7, 2));
    expect(await client.listing.count()).toBe(12);
    expect(await client.inspectBackup(five.file)).toEqual({ problem: null, items: 5 });

    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let swapping!: () => void;
    const started = new Promise<void>((r) => (swapping = r));
    const swap = client.replaceFile(
      async () => {
        swapping();
        await held;
        replaceLibraryFile(five.file, file);
      },
      () => undefined,
    );
    await started;
    // Asked while no worker is running: waits, then reads the restored file.
    const during = client.listing.count();
    await expect(
      client.replaceFile(
        () => undefined,
        () => undefined,
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    release();
    await swap;
    expect(await during).toBe(5);
    await client.importItems(generateItems(1, 3));
    expect(await client.listing.count()).toBe(6);
  });

  it('puts the previous file back when the new one cannot be opened, and keeps working', async () => {
    await client.importItems(generateItems(4, 4));
    const previous = await client.backup('pre-restore');
    const newer = await client.backup('manual');
    const db = new Database(newer.file);
    db.pragma('user_version = 9999');
    db.close();
    expect(inspectBackup(newer.file).problem).toBeNull();
    const failed = await client
      .replaceFile(
        () => replaceLibraryFile(newer.file, file),
        () => replaceLibraryFile(previous.file, file),
      )
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(failed).toBeInstanceOf(CoreError);
    expect((failed as CoreError).message).toContain('newer version of Citewise');
    expect(await client.listing.count()).toBe(4);
  });

  it('leaves the library as it was when the swap itself fails', async () => {
    await client.importItems(generateItems(3, 5));
    await expect(
      client.replaceFile(
        () => replaceLibraryFile(join(dir.path, 'no-such-backup.sqlite'), file),
        () => undefined,
      ),
    ).rejects.toThrow(/ENOENT/);
    expect(await client.listing.count()).toBe(3);
  });

  it('reports a file that is not a library as a problem, not a throw', () => {
    const bogus = join(dir.path, 'bogus.sqlite');
    const db = new Database(bogus);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(inspectBackup(bogus).problem).toContain('not a Citewise library');
    expect(inspectBackup(join(dir.path, 'missing.sqlite')).problem).not.toBeNull();
  });
});
