// `citewise key …` against the local service: the key goes in through standard input, check prints
// the access table, clear forgets it, CITEWISE_API_KEY works for one run; the key is never printed.
import { execFile } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../electron/cli/command';
import { runKeyCommand } from '../../../electron/cli/commands/key';
import { createCore, type Core } from '../../../electron/core';
import { silentLogger } from '../../../electron/core/log';
import { createMemorySecretStore } from '../../../electron/core/secrets';
import { tempDir } from '../../helpers/tmp';
import { service } from './helpers';

let svc: Awaited<ReturnType<typeof service>>;
let dir: ReturnType<typeof tempDir>;
let core: Core;

function sink(): Writable & { text: string } {
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.text += chunk.toString();
      done();
    },
  }) as Writable & { text: string };
  out.text = '';
  return out;
}

async function run(args: string[], input = '') {
  const stdout = sink();
  const stderr = sink();
  const code = await runKeyCommand(args, { core, stdin: Readable.from([input]), stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

beforeAll(async () => {
  svc = await service();
  dir = tempDir();
  core = await createCore({
    dataDir: dir.path,
    mode: 'cli',
    logger: silentLogger,
    serviceUrl: svc.url,
    secrets: createMemorySecretStore(),
  });
});

afterAll(async () => {
  await core.close();
  await svc.close();
  dir.remove();
});

describe('citewise key', () => {
  it('set reads the key from standard input, check prints its access, clear forgets it', async () => {
    const set = await run(['set'], `  ${svc.publicKey}\n`);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain(
      `API key stored in the OS keychain for ${svc.url} (from --service-url / CITEWISE_SERVICE_URL)`,
    );

    const check = await run(['check']);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('Key: in the OS keychain');
    expect(check.stdout).toMatch(/grants 1 of 11 kinds of access/);
    expect(check.stdout).toMatch(/yes {2}papers, tallies, journals, authors and search/);
    expect(check.stdout).toMatch(/no {3}the citation graph/);

    const cleared = await run(['clear']);
    expect(cleared.stdout).toContain('API key removed');
    const none = await run(['check']);
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(/No API key is set/);

    for (const r of [set, check, cleared, none]) expect(r.stdout + r.stderr).not.toContain(svc.publicKey);
  });

  it('refuses an empty key, extra arguments and unknown subcommands', async () => {
    await expect(run(['set'], '\n')).rejects.toThrow(UsageError);
    await expect(run(['set', 'sk_on_the_command_line'])).rejects.toThrow(/read from standard input/);
    await expect(run(['rotate'])).rejects.toThrow(/unknown key subcommand/);
    await expect(run([])).rejects.toThrow(/needs a subcommand/);
  });

  it('reports a refused key with exit code 1', async () => {
    await run(['set'], 'not-a-key-the-service-knows');
    const check = await run(['check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/does not accept this API key/);
    await run(['clear']);
  });

  it('the citewise command: --service-url and CITEWISE_API_KEY for one run, nothing stored', async () => {
    const data = tempDir();
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'electron/cli/index.ts', '--service-url', svc.url, '--data-dir', data.path, 'key', 'check'],
        {
          env: { ...process.env, CITEWISE_API_KEY: svc.fullKey, CITEWISE_SERVICE_URL: '' },
          timeout: 60_000,
        },
      );
      expect(stdout).toContain('Key: from CITEWISE_API_KEY (this run only, not stored)');
      expect(stdout).toMatch(/grants 11 of 11/);
      expect(stdout + stderr).not.toContain(svc.fullKey);
      const bad = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'electron/cli/index.ts', '--service-url', 'ftp://nope', 'key', 'status'],
        { timeout: 60_000 },
      ).catch((e: { code: number; stderr: string }) => e);
      expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--service-url') });
    } finally {
      data.remove();
    }
  }, 60_000);
});
