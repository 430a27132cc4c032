// `citewise server …` and `citewise sync …` against a real PostgreSQL started by the test: a lab's
// admin creates the library and its members from the command line, two data folders share it, a
// conflict is listed and resolved, a removed member is refused; each command's --json and exit codes
// (0 done, 1 refused or unreachable, 2 wrong usage, 3 conflicts wait).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../electron/cli/command';
import { loadCommand } from '../../../electron/cli/commands';
import { LibraryClient } from '../../../electron/core/library/client';
import { LIBRARY_FILE } from '../../../electron/core/paths';
import { accountOfTarget, parseSyncUrl } from '../../../electron/core/sync/connection';
import { createMemorySecretStore, type SecretStore } from '../../../electron/core/secrets';
import type { CslItem } from '../../../shared/model/csl';
import { freePort } from '../../helpers/free-port';
import { postgresAvailable, type TestPostgres } from '../../helpers/postgres';
import { integrity, snapshot, startPostgres } from './helpers';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

interface Folder {
  dir: string;
  secrets: SecretStore;
}

let server: TestPostgres;
const folders: string[] = [];

beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase('baker');
}, 120_000);
afterAll(async () => {
  await server?.remove();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

function folder(name: string): Folder {
  const dir = mkdtempSync(join(tmpdir(), `citewise-cli-${name}-`));
  folders.push(dir);
  return { dir, secrets: createMemorySecretStore() };
}

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  return {
    stream: new Writable({
      write(chunk: Buffer | string, _enc, done) {
        chunks.push(chunk.toString());
        done();
      },
    }),
    text: () => chunks.join(''),
  };
}

/** `citewise COMMAND …args` in a data folder, as the CLI runs it, with the password of CITEWISE_SYNC_PASSWORD. */
async function cli(f: Folder, password: string | undefined, argv: string[], stdin?: string): Promise<Result> {
  const out = sink();
  const err = sink();
  const spec = await loadCommand(argv[0]!);
  const code = await runCommand(spec!, argv, {
    dataDir: f.dir,
    stdout: out.stream,
    stderr: err.stream,
    secrets: f.secrets,
    syncPassword: password,
    ...(stdin !== undefined ? { stdin: Readable.from([stdin]) } : {}),
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

const json = <T>(r: Result): T => JSON.parse(r.stdout) as T;

const paper = (n: number): CslItem => ({
  id: `p${n}`,
  type: 'article-journal',
  'citation-key': `paper${n}`,
  title: `Paper number ${n}`,
  author: [{ family: `Author${n}`, given: 'Ada' }],
  issued: { 'date-parts': [[2000 + n]] },
  DOI: `10.1000/cli.${n}`,
});

/** Opens a data folder's library between commands (the CLI has closed it), as the app would. */
async function withLib<T>(f: Folder, run: (lib: LibraryClient) => Promise<T>): Promise<T> {
  const lib = await LibraryClient.start({ file: join(f.dir, LIBRARY_FILE), durability: 'off' });
  try {
    return await run(lib);
  } finally {
    await lib.close();
  }
}

describe.skipIf(!postgresAvailable())('citewise server and citewise sync', { timeout: 600_000 }, () => {
  it('set up a lab from the command line, share one library between two folders, resolve a conflict', async () => {
    const adminUrl = server.url('baker', server.superuser);
    const admin = folder('admin');
    const a = folder('alice');
    const b = folder('bob');

    // An empty database: status says so; init makes the library; init again is refused.
    const empty = await cli(admin, server.password, ['server', 'status', adminUrl, '--json']);
    expect(empty.code).toBe(0);
    expect(json<{ version: number }>(empty).version).toBe(0);
    const init = await cli(admin, server.password, ['server', 'init', adminUrl, '--name', 'Baker Lab', '--json']);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(json<{ libraryName: string; to: number }>(init)).toMatchObject({ libraryName: 'Baker Lab' });
    const again = await cli(admin, server.password, ['server', 'init', adminUrl]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds a Citewise library');
    const migrate = await cli(admin, server.password, ['server', 'migrate', adminUrl, '--json']);
    expect(migrate.code).toBe(0);
    expect(json<{ applied: unknown[]; to: number }>(migrate)).toMatchObject({
      applied: [],
      to: json<{ to: number }>(init).to,
    });

    // Members: a generated password printed once (in --json), one read from standard input.
    const added = await cli(admin, server.password, [
      'server',
      'members',
      'add',
      adminUrl,
      'alice',
      '--role',
      'editor',
      '--json',
    ]);
    expect(added.code).toBe(0);
    const alice = json<{ password: string; result: string }>(added);
    expect(alice.result).toBe('created');
    expect(alice.password.length).toBeGreaterThanOrEqual(16);
    const bobPassword = 'bob-secret-1234';
    const bob = await cli(
      admin,
      server.password,
      ['server', 'members', 'add', adminUrl, 'bob', '--role', 'reader', '--password-stdin', '--json'],
      `${bobPassword}\n`,
    );
    expect(bob.code).toBe(0);
    expect(bob.stdout).not.toContain(bobPassword);
    expect(
      (await cli(admin, server.password, ['server', 'members', 'role', adminUrl, 'bob', '--role', 'editor'])).code,
    ).toBe(0);
    const list = await cli(admin, server.password, ['server', 'members', adminUrl, '--json']);
    expect(list.code).toBe(0);
    const roles = Object.fromEntries(json<{ login: string; role: string }[]>(list).map((m) => [m.login, m.role]));
    expect(roles).toMatchObject({ alice: 'editor', bob: 'editor' });

    // Alice shares her library; Bob connects an empty folder and gets it.
    await withLib(a, (lib) => lib.importItems([paper(1), paper(2), paper(3)]));
    const aliceUrl = server.url('baker', 'alice');
    const connectA = await cli(a, alice.password, ['sync', 'connect', aliceUrl, '--json']);
    expect(connectA.stderr).toBe('');
    expect(connectA.code).toBe(0);
    expect(connectA.stdout).not.toContain(alice.password);
    expect(json<{ report: { pushed: number }; status: { role: string } }>(connectA)).toMatchObject({
      report: { pushed: 3 },
      status: { role: 'editor' },
    });
    // The password went to the keychain: later commands need no CITEWISE_SYNC_PASSWORD.
    expect(await a.secrets.get(accountOfTarget(parseSyncUrl(aliceUrl).target))).toBe(alice.password);
    const connectB = await cli(b, bobPassword, ['sync', 'connect', server.url('baker', 'bob'), '--json']);
    expect(connectB.code).toBe(0);
    expect(json<{ report: { pulled: number } }>(connectB).report.pulled).toBe(3);
    const status = await cli(b, undefined, ['sync', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(json<{ role: string; pending: number; conflicts: number; libraryName: string }>(status)).toMatchObject({
      role: 'editor',
      pending: 0,
      conflicts: 0,
      libraryName: 'Baker Lab',
    });

    // The same field edited in both folders: the second to sync exits 3 and lists it; resolve ends it.
    const retitle = (f: Folder, title: string) =>
      withLib(f, async (lib) => {
        const id = (await lib.listing.list({ limit: 10 })).rows.find((r) => r.citationKey === 'paper2')!.id;
        await lib.lib.updateItem(id, { ...(await lib.lib.getItem(id)).csl, title });
      });
    await retitle(a, 'Title from Alice');
    await retitle(b, 'Title from Bob');
    expect((await cli(a, undefined, ['sync'])).code).toBe(0);
    const second = await cli(b, undefined, ['sync', '--json']);
    expect(second.code).toBe(3);
    expect(json<{ status: { conflicts: number } }>(second).status.conflicts).toBe(1);
    const conflicts = await cli(b, undefined, ['sync', 'conflicts', '--json']);
    expect(conflicts.code).toBe(3);
    const [conflict] = json<{ uid: string; fields: { field: string; local: unknown; server: unknown }[] }[]>(conflicts);
    expect(conflict!.fields).toEqual([{ field: 'csl.title', local: 'Title from Bob', server: 'Title from Alice' }]);
    expect((await cli(b, undefined, ['sync', 'conflicts'])).stdout).toContain('server: Title from Alice');
    expect((await cli(b, undefined, ['sync', 'resolve', conflict!.uid])).code).toBe(2);
    expect((await cli(b, undefined, ['sync', 'resolve', 'no-such-uid', '--keep', 'server'])).code).toBe(1);
    const resolved = await cli(b, undefined, ['sync', 'resolve', conflict!.uid, '--keep', 'server', '--json']);
    expect(resolved.code).toBe(0);
    expect(json<{ kept: string }>(resolved).kept).toBe('server');
    expect((await cli(b, undefined, ['sync', 'conflicts'])).code).toBe(0);
    expect((await cli(a, undefined, ['sync'])).code).toBe(0);
    expect(snapshot(join(a.dir, LIBRARY_FILE))).toEqual(snapshot(join(b.dir, LIBRARY_FILE)));
    expect(integrity(join(b.dir, LIBRARY_FILE))).toEqual([]);
    const log = await cli(b, undefined, ['sync', 'log', '--json']);
    expect(log.code).toBe(0);
    expect(Array.isArray(json<unknown[]>(log))).toBe(true);

    // A removed member is refused at once (exit 1), with a sentence and without the password.
    const removed = await cli(admin, server.password, ['server', 'members', 'remove', adminUrl, 'bob', '--json']);
    expect(removed.code).toBe(0);
    expect(json<{ removed: boolean }>(removed).removed).toBe(true);
    const refused = await cli(b, undefined, ['sync']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^citewise: \S/);
    expect(refused.stderr).not.toContain(bobPassword);
    const removedStatus = await cli(b, undefined, ['sync', 'status']);
    expect(removedStatus.code).toBe(0);
    expect(removedStatus.stdout).toContain('Shared with: ');
    expect(removedStatus.stdout).toMatch(/Not reachable now: .*no longer a member/);

    // Disconnecting forgets the password.
    const off = await cli(a, undefined, ['sync', 'disconnect', '--json']);
    expect(off.code).toBe(0);
    expect(await a.secrets.get(accountOfTarget(parseSyncUrl(aliceUrl).target))).toBeNull();
  });

  it('exits 2 on wrong usage and 1 when the server cannot be reached', async () => {
    const f = folder('usage');
    for (const argv of [
      ['server'],
      ['server', 'frobnicate', 'x'],
      ['server', 'init'],
      ['server', 'members', 'add', 'postgresql://x@127.0.0.1/db', 'carol'],
      ['server', 'members', 'add', 'postgresql://x@127.0.0.1/db', 'carol', '--role', 'boss'],
      ['sync', 'connect'],
      ['sync', 'frobnicate'],
      ['sync', 'resolve', 'uid', '--keep', 'mine'],
    ])
      expect((await cli(f, 'pw', argv)).code, argv.join(' ')).toBe(2);
    const port = await freePort();
    const down = await cli(f, 'pw', ['server', 'status', `postgresql://carol@127.0.0.1:${port}/lab`]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^citewise: \S/);
    const notShared = await cli(f, undefined, ['sync']);
    expect(notShared.code).toBe(1);
    expect(notShared.stderr).toMatch(/^citewise: \S/);
  });
});
