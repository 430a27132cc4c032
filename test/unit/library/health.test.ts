// When opening a library runs the full integrity_check (health.ts): after an unclean shutdown, on a
// schedule, without a record, after SQLite reported damage; never on an ordinary open. The search
// index is compared with the items at the same opens, and only then.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupDatabase } from '../../../electron/core/library/backup';
import {
  CHECK_INTERVAL_MS,
  flagDamage,
  openMarkName,
  planCheck,
  stateDir,
} from '../../../electron/core/library/health';
import { openLibrary } from '../../../electron/core/library/open';
import { tempDir } from '../../helpers/tmp';
import { article, importItems } from './helpers/lib';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Opens the library in another process and kills it with SIGKILL while it holds the library open. */
async function killWhileOpen(file: string): Promise<void> {
  const code = `import { openLibrary } from ${JSON.stringify(join(ROOT, 'electron/core/library/open.ts'))};
const o = openLibrary(${JSON.stringify(file)}, { rankExtension: null });
process.stdout.write('open\\n');
setInterval(() => o.library.stats(), 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((res) => child.on('exit', () => res()));
  await new Promise<void>((res, rej) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('open')) res();
    });
    void exited.then(() => rej(new Error(`the child exited before opening the library: ${err}`)));
  });
  child.kill('SIGKILL');
  await exited;
}

describe('the start-up integrity check', () => {
  let dir: ReturnType<typeof tempDir>;
  let file: string;
  let now: number;
  const open = (extra: Parameters<typeof openLibrary>[1] = {}) =>
    openLibrary(file, { rankExtension: null, now: () => now, ...extra });
  const missingFromIndex = (): number => {
    const db = new Database(file, { readonly: true });
    try {
      return db
        .prepare('SELECT count(*) FROM items WHERE id NOT IN (SELECT rowid FROM items_fts)')
        .pluck()
        .get() as number;
    } finally {
      db.close();
    }
  };

  beforeEach(() => {
    dir = tempDir('citewise-health-');
    file = join(dir.path, 'citewise.sqlite');
    now = Date.UTC(2026, 0, 1);
  });
  afterEach(() => dir.remove());

  it('does not run on a new library or after a clean close, and runs once for a library without a record', () => {
    let o = open();
    expect(o.integrityCheck).toBeNull();
    importItems(o.library, [article('One', 'A', 2000)]);
    o.close();
    o = open();
    expect(o.integrityCheck).toBeNull();
    o.close();
    // A library from before the record existed (or copied in from elsewhere).
    rmSync(stateDir(file), { recursive: true });
    o = open();
    expect(o.integrityCheck).toMatchObject({ reason: 'no-record' });
    o.close();
    o = open();
    expect(o.integrityCheck).toBeNull();
    o.close();
  });

  it('leaves no mark after a clean close, and one while open', () => {
    const o = open();
    expect(readdirSync(stateDir(file)).filter((n) => n.startsWith('open-'))).toHaveLength(1);
    o.close();
    expect(readdirSync(stateDir(file)).filter((n) => n.startsWith('open-'))).toHaveLength(0);
  });

  it(
    'runs after a process died with the library open (kill -9), and then clears its mark',
    { timeout: 60_000 },
    async () => {
      open().close();
      await killWhileOpen(file);
      expect(readdirSync(stateDir(file)).filter((n) => n.startsWith('open-'))).toHaveLength(1);
      let o = open();
      expect(o.integrityCheck).toMatchObject({ reason: 'unclean-shutdown' });
      o.close();
      expect(readdirSync(stateDir(file)).filter((n) => n.startsWith('open-'))).toHaveLength(0);
      o = open();
      expect(o.integrityCheck).toBeNull();
      o.close();
    },
  );

  it('does not run because another live process has the library open', () => {
    open().close();
    // The parent of this test process is alive: its mark is not a crash.
    writeFileSync(join(stateDir(file), `open-${process.ppid}-abcdef`), '');
    const o = open();
    expect(o.integrityCheck).toBeNull();
    o.close();
  });

  it('runs on schedule: not a moment before the interval has passed, and at it', () => {
    open().close();
    now += CHECK_INTERVAL_MS - 1;
    let o = open();
    expect(o.integrityCheck).toBeNull();
    o.close();
    now += 1;
    o = open();
    expect(o.integrityCheck).toMatchObject({ reason: 'scheduled' });
    o.close();
    expect(Number(readFileSync(join(stateDir(file), 'last-integrity-check'), 'utf8'))).toBe(now);
  });

  it('runs after SQLite reported damage while the library was in use', () => {
    open().close();
    flagDamage(file);
    let o = open();
    expect(o.integrityCheck).toMatchObject({ reason: 'damage-seen' });
    o.close();
    o = open();
    expect(o.integrityCheck).toBeNull();
    o.close();
  });

  it('finds damage made while the library was closed when SQLite meets it at open, and restores the last good backup', () => {
    const o = open();
    importItems(o.library, [article('Safe', 'A', 2000)]);
    backupDatabase(o.db, join(dir.path, 'backups'), 'scheduled');
    o.close();
    // Not a database any more: no check is due, but the first read fails.
    writeFileSync(file, Buffer.alloc(8192, 7));
    const r = open();
    expect(r.integrityCheck).toMatchObject({ reason: 'damage-seen' });
    expect(r.recovery).toMatchObject({ restoredFrom: expect.stringContaining('scheduled') });
    expect(existsSync(r.recovery!.setAside)).toBe(true);
    expect(r.library.listing.list().rows.map((x) => x.title)).toEqual(['Safe']);
    r.close();
  });

  it('compares the search index with the items when it runs, and not at an ordinary open', () => {
    let o = open();
    importItems(o.library, [article('One', 'A', 2000), article('Two', 'B', 2001)]);
    o.close();
    const unindex = (): void => {
      const db = new Database(file);
      db.prepare("DELETE FROM items_fts WHERE rowid = (SELECT id FROM items WHERE title = 'Two')").run();
      db.close();
    };
    unindex();
    o = open();
    expect(o.integrityCheck).toBeNull();
    expect(o.searchIndexRepair).toBeNull();
    o.close();
    expect(missingFromIndex()).toBe(1);
    // The same open once the check is due (here: on schedule) rebuilds it.
    now += CHECK_INTERVAL_MS;
    o = open();
    expect(o.integrityCheck).toMatchObject({ reason: 'scheduled' });
    expect(o.searchIndexRepair).toMatchObject({ before: { items: 2, missing: 1, extra: 0 } });
    o.close();
    expect(missingFromIndex()).toBe(0);
    // And after an unclean shutdown.
    unindex();
    writeFileSync(join(stateDir(file), `open-${spawnSync(process.execPath, ['-e', '']).pid}-abcdef`), '');
    o = open();
    expect(o.integrityCheck).toMatchObject({ reason: 'unclean-shutdown' });
    expect(o.searchIndexRepair).toMatchObject({ before: { missing: 1 } });
    o.close();
    expect(missingFromIndex()).toBe(0);
  });

  it('runs when forced (citewise check)', () => {
    open().close();
    const o = open({ forceIntegrityCheck: true });
    expect(o.integrityCheck).toMatchObject({ reason: 'forced' });
    o.close();
  });

  it('takes a mark named by openMarkName for a gone process as an unclean shutdown, and a name that is no mark as nothing', () => {
    open().close();
    // What the library-open bench wrote until now: not a mark's name (the suffix is not hex), so the
    // "unclean" open it measured checked nothing.
    writeFileSync(join(stateDir(file), 'open-999999999-bench'), '');
    expect(planCheck(file, now).reason).toBeNull();
    writeFileSync(join(stateDir(file), openMarkName(999_999_999)), '');
    expect(planCheck(file, now).reason).toBe('unclean-shutdown');
    const o = open();
    expect(o.integrityCheck).toMatchObject({ reason: 'unclean-shutdown' });
    o.close();
  });
});
