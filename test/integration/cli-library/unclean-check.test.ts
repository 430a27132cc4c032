// The full integrity_check at the next open after a process holding the library was killed (kill -9),
// through the library worker as `citewise` and the app open it; and not at an open after a clean
// close. What records that the check ran: the time of the last passed check beside the library
// (health.ts, "last-integrity-check"), written only when it runs, and the dead process's mark, removed
// only once it has passed.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateDir } from '../../../electron/core/library/health';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { FIXTURES, run, tempDir } from './helpers';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Opens the library through its worker (LibraryClient) in another process and kills that process with SIGKILL. */
async function killWhileOpen(file: string): Promise<void> {
  const code = `import { LibraryClient } from ${JSON.stringify(join(ROOT, 'electron/core/library/client.ts'))};
const client = await LibraryClient.start({ file: ${JSON.stringify(file)} });
await client.lib.stats();
process.stdout.write('open\\n');
setInterval(() => void client.lib.stats(), 1000);`;
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

let dir: { path: string; remove: () => void };
let file: string;
const lastCheck = (): string => readFileSync(join(stateDir(file), 'last-integrity-check'), 'utf8');
const marks = (): string[] => readdirSync(stateDir(file)).filter((n) => n.startsWith('open-'));

beforeAll(async () => {
  dir = tempDir();
  file = join(dir.path, LIBRARY_FILE);
  expect((await run(dir.path, 'import', join(FIXTURES, 'library.bib'))).code).toBe(0);
}, 60_000);
afterAll(() => dir.remove());

describe('the integrity check after an unclean shutdown, through the worker', () => {
  it(
    'runs at the first open after a kill -9, once, and not at an open after a clean close',
    { timeout: 120_000 },
    async () => {
      // A clean close, then an open: no check (the record is as the new library left it).
      const created = lastCheck();
      await new Promise((r) => setTimeout(r, 5));
      expect((await run(dir.path, 'stats')).code).toBe(0);
      expect(lastCheck()).toBe(created);
      expect(marks()).toEqual([]);

      await killWhileOpen(file);
      expect(marks()).toHaveLength(1);
      const stats = await run(dir.path, 'stats');
      expect(stats.code).toBe(0);
      // The check ran and passed: a newer record, the dead process's mark gone.
      expect(Number(lastCheck())).toBeGreaterThan(Number(created));
      expect(marks()).toEqual([]);

      // And the open after that is an ordinary one again.
      const checked = lastCheck();
      await new Promise((r) => setTimeout(r, 5));
      expect((await run(dir.path, 'stats')).code).toBe(0);
      expect(lastCheck()).toBe(checked);
    },
  );
});
