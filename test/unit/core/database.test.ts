import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, PAGE_SIZE } from '../../../electron/core/library/database';
import { migrations } from '../../../electron/core/library/migrations';
import { SettingsStore } from '../../../electron/core/settings/store';
import { DEFAULT_SETTINGS } from '../../../shared/ipc';
import { tempDir } from '../../helpers/tmp';

describe('library database', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.remove());

  it('opens with WAL, synchronous=FULL and foreign keys, at the latest schema version', () => {
    const db = openDatabase(join(dir.path, 'lib.sqlite'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(Math.max(...migrations.map((m) => m.version)));
    db.close();
  });

  it('creates a library with 8 KiB pages, and leaves an existing library its own page size', () => {
    const created = openDatabase(join(dir.path, 'new.sqlite'));
    expect(created.pragma('page_size', { simple: true })).toBe(PAGE_SIZE);
    expect(PAGE_SIZE).toBe(8192);
    created.close();
    // A library written with SQLite's default 4 KiB pages, migrated and used as before.
    const file = join(dir.path, 'old.sqlite');
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    migrate(old, migrations.slice(0, 2));
    old.close();
    const opened = openDatabase(file);
    expect(opened.pragma('page_size', { simple: true })).toBe(4096);
    expect(opened.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(opened.pragma('integrity_check', { simple: true })).toBe('ok');
    opened.close();
  });

  it('refuses a library written by a newer version, leaving the file untouched', () => {
    const file = join(dir.path, 'future.sqlite');
    const future = new Database(file);
    future.pragma('user_version = 999');
    future.exec('CREATE TABLE items (id INTEGER PRIMARY KEY) STRICT; INSERT INTO items VALUES (1);');
    future.close();
    expect(() => openDatabase(file)).toThrow(/newer version of Citewise \(schema version 999/);
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(999);
    expect(check.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: 1 });
    check.close();
  });

  it('refuses a list with a duplicate or out-of-order version before running any of it', () => {
    const db = new Database(join(dir.path, 'order.sqlite'));
    const make = (version: number, name: string) => ({
      version,
      name,
      up: (d: Database.Database) => d.exec(`CREATE TABLE ${name} (x INTEGER) STRICT`),
    });
    expect(() => migrate(db, [make(1, 'a'), make(2, 'b'), make(2, 'c')])).toThrow(/"b" and "c" both have version 2/);
    expect(() => migrate(db, [make(1, 'a'), make(3, 'b'), make(2, 'c')])).toThrow(
      /"c" \(version 2\) comes after "b" \(version 3\)/,
    );
    expect(() => migrate(db, [make(0, 'a')])).toThrow(/whole numbers from 1/);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get()).toBe(0);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    // Gaps are allowed; ascending lists run.
    expect(migrate(db, [make(1, 'a'), make(3, 'b')])).toEqual({ from: 0, to: 3 });
    db.close();
  });

  it('ships migrations numbered 1 to N, one each', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
  });

  it('rolls back a failing migration whole', () => {
    const db = new Database(join(dir.path, 'fail.sqlite'));
    const broken = [
      ...migrations,
      {
        version: 99,
        name: 'broken',
        up: (d: Database.Database) => d.exec('CREATE TABLE half (x INTEGER) STRICT; SELECT * FROM missing_table;'),
      },
    ];
    migrate(db, migrations);
    expect(() => migrate(db, broken)).toThrow(/missing_table/);
    expect(db.pragma('user_version', { simple: true })).toBe(Math.max(...migrations.map((m) => m.version)));
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    db.close();
  });

  it('migration 0001 creates a STRICT settings table and settings persist across opens', () => {
    const file = join(dir.path, 'settings.sqlite');
    const db = openDatabase(file);
    const store = new SettingsStore(db);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    store.update({ theme: 'dark' });
    expect(() => db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('n', Buffer.from([1]))).toThrow(
      /cannot store BLOB value in TEXT column/,
    );
    db.close();
    const again = openDatabase(file);
    expect(new SettingsStore(again).get()).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark' });
    again.close();
  });

  it('ignores stored settings that no longer validate', () => {
    const db = openDatabase(join(dir.path, 'bad.sqlite'));
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?), (?, ?)').run('theme', '"purple"', 'other', 'not json');
    expect(new SettingsStore(db).get()).toEqual(DEFAULT_SETTINGS);
    db.close();
  });
});
