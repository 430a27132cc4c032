import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupDatabase, checkIntegrity, listBackups } from '../../../electron/core/library/backup';
import { stateDir } from '../../../electron/core/library/health';
import { migrations } from '../../../electron/core/library/migrations';
import { openLibrary } from '../../../electron/core/library/open';
import { tempDir } from '../../helpers/tmp';
import { article, importItems } from './helpers/lib';

describe('backups and recovery', () => {
  let dir: ReturnType<typeof tempDir>;
  let file: string;
  let backups: string;
  beforeEach(() => {
    dir = tempDir('citewise-backup-');
    file = join(dir.path, 'citewise.sqlite');
    backups = join(dir.path, 'backups');
  });
  afterEach(() => dir.remove());

  it('writes verified backups through SQLite and rotates them per reason', () => {
    const opened = openLibrary(file);
    importItems(opened.library, [article('Kept in the backup', 'A', 2000)]);
    let now = Date.UTC(2025, 0, 1);
    for (let i = 0; i < 9; i++) backupDatabase(opened.db, backups, 'scheduled', { now: () => (now += 1000) });
    backupDatabase(opened.db, backups, 'manual', { now: () => (now += 1000) });
    opened.close();
    const list = listBackups(backups);
    expect(list.filter((b) => b.reason === 'scheduled')).toHaveLength(7);
    expect(list[0]!.reason).toBe('manual');
    expect(checkIntegrity(list[0]!.file)).toBe('ok');
    const copy = new Database(list[0]!.file, { readonly: true });
    expect(copy.prepare('SELECT title FROM items').pluck().all()).toEqual(['Kept in the backup']);
    copy.close();
  });

  it('backs up before migrating an existing library', () => {
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    for (const m of migrations.filter((x) => x.version <= 2)) m.up(old);
    old.pragma('user_version = 2');
    old.close();
    const opened = openLibrary(file);
    expect(opened.migrationBackup).toMatchObject({ reason: 'pre-migration' });
    const snap = new Database(opened.migrationBackup!.file, { readonly: true });
    expect(snap.pragma('user_version', { simple: true })).toBe(2);
    snap.close();
    opened.close();
    // Opening again needs no migration, so no new backup.
    const again = openLibrary(file);
    expect(again.migrationBackup).toBeNull();
    again.close();
  });

  it('sets a damaged library aside and restores the last good backup, saying so (at the check after a crash)', () => {
    const opened = openLibrary(file);
    importItems(opened.library, [article('Safe', 'A', 2000)]);
    backupDatabase(opened.db, backups, 'scheduled');
    importItems(opened.library, [article('Lost after the backup', 'B', 2001)]);
    opened.close();
    // Damage the file: overwrite pages in the middle.
    const bytes = readFileSync(file);
    bytes.fill(0x5a, 4096, Math.min(bytes.length, 4096 * 6));
    writeFileSync(file, bytes);
    expect(checkIntegrity(file)).not.toBe('ok');
    // The full check runs when it can matter (health.ts): here, a process that died with the library open.
    writeFileSync(join(stateDir(file), 'open-999999999-dead'), '');

    const recovered = openLibrary(file);
    expect(recovered.recovery).toMatchObject({
      restoredFrom: expect.stringContaining('scheduled'),
      setAside: expect.stringContaining('.damaged-'),
    });
    expect(existsSync(recovered.recovery!.setAside)).toBe(true);
    expect(recovered.library.listing.list().rows.map((r) => r.title)).toEqual(['Safe']);
    recovered.close();
  });

  it('starts an empty library when the file is damaged and there is no backup, keeping the damaged file', () => {
    writeFileSync(file, Buffer.alloc(8192, 7));
    const opened = openLibrary(file);
    expect(opened.recovery).toMatchObject({ restoredFrom: null });
    expect(existsSync(opened.recovery!.setAside)).toBe(true);
    expect(opened.library.stats().items).toBe(0);
    opened.close();
  });
});
