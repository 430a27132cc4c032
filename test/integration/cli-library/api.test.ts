// `citewise api`: serves the editor API for the library in the data folder, opens the picker, and
// says plainly when its port is taken.
import { createServer } from 'node:net';
import { request } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../electron/cli/command';
import { runApiCommand } from '../../../electron/cli/commands/api';
import { silentLogger } from '../../../electron/core/log';
import { run, tempDir } from './helpers';
import { freePort } from '../../helpers/free-port';

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  return {
    stream: new Writable({
      write(chunk: Buffer | string, _e, done) {
        chunks.push(chunk.toString());
        done();
      },
    }),
    text: () => chunks.join(''),
  };
}

function get(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('citewise api', () => {
  let dir: ReturnType<typeof tempDir>;
  let dataDir: string;
  const coreOptions = () => ({ dataDir, mode: 'cli' as const, logger: silentLogger });

  beforeAll(async () => {
    dir = tempDir();
    dataDir = join(dir.path, 'data');
    const bib = join(dir.path, 'refs.bib');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bib, '@article{adams2001, title = {On Citing}, author = {Adams, Ann}, year = {2001}}\n');
    expect((await run(dataDir, 'import', bib)).code).toBe(0);
  });
  afterAll(() => dir.remove());

  it('serves the library in the data folder and opens the picker in the browser', async () => {
    const port = await freePort();
    const out = sink();
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    let ready!: (origin: string) => void;
    const listening = new Promise<string>((r) => (ready = r));
    const opened: string[] = [];
    const done = runApiCommand(['api', '--port', String(port), '--data-dir', dataDir], {
      coreOptions,
      stdout: out.stream,
      stderr: sink().stream,
      stopped,
      onReady: ready,
      open: (url) => {
        opened.push(url);
        return true;
      },
    });
    const origin = await listening;
    expect(origin).toBe(`http://127.0.0.1:${port}`);
    expect((await get(origin, '/better-bibtex/cayw?probe=1', { 'User-Agent': 'curl/8' })).body).toBe('ready');
    const rpc = await get(
      origin,
      `/better-bibtex/json-rpc?${encodeURIComponent('{"jsonrpc":"2.0","id":1,"method":"item.search","params":["adams"]}')}`,
    );
    expect((JSON.parse(rpc.body) as { result: { citekey: string }[] }).result.map((r) => r.citekey)).toEqual([
      'adams2001',
    ]);
    // A pick request opens the picker page in the browser; the user cancels there.
    const held = get(origin, '/better-bibtex/cayw?format=pandoc');
    await expect.poll(() => opened.length).toBe(1);
    expect(opened[0]).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/citewise/picker/[\\w-]+#[\\w-]+$`));
    const [path, token] = opened[0]!.slice(origin.length).split('#') as [string, string];
    await new Promise<void>((resolve, reject) => {
      const req = request(
        `${origin}${path}/cancel`,
        { method: 'POST', headers: { 'X-Citewise-Picker': token } },
        (res) => {
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect((await held).body).toBe('');
    expect(out.text()).toContain('Picker opened in your browser');
    stop();
    expect(await done).toBe(0);
  });

  it('says plainly that the port is taken, and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    const err = sink();
    try {
      const code = await runApiCommand(['api', '--port', String(port)], {
        coreOptions,
        stdout: sink().stream,
        stderr: err.stream,
        stopped: Promise.resolve(),
      });
      expect(code).toBe(1);
      expect(err.text()).toBe(
        `citewise: Port ${port} is in use; run \`citewise api --port ${port + 1}\` or choose another port in Settings → Editors.\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('--allow-folder lets editors use .aux files in that folder (repeatable), and no other', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const [thesis, notes, other] = ['thesis', 'notes', 'other'].map((d) => join(dir.path, d)) as [
      string,
      string,
      string,
    ];
    for (const d of [thesis, notes, other]) {
      mkdirSync(d);
      writeFileSync(join(d, 'paper.aux'), '\\relax\n\\citation{adams2001}\n');
    }
    const port = await freePort();
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    let ready!: (origin: string) => void;
    const listening = new Promise<string>((r) => (ready = r));
    const done = runApiCommand(
      ['api', '--port', String(port), '--data-dir', dataDir, '--allow-folder', thesis, '--allow-folder', notes],
      { coreOptions, stdout: sink().stream, stderr: sink().stream, stopped, onReady: ready, open: () => true },
    );
    const origin = await listening;
    const scan = (folder: string) =>
      new Promise<{ result?: { items: number }; error?: { message: string } }>((resolve, reject) => {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'collection.scanAUX',
          params: ['//cited', join(folder, 'paper.aux')],
        });
        const req = request(
          `${origin}/better-bibtex/json-rpc`,
          { method: 'POST', headers: { 'Content-Type': 'application/json', 'User-Agent': 'curl/8' } },
          (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve(JSON.parse(text) as { result?: { items: number } }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      expect((await scan(thesis)).result?.items).toBe(1);
      expect((await scan(notes)).result?.items).toBe(1);
      expect((await scan(other)).error?.message).toContain('is not in a folder you allowed');
    } finally {
      stop();
    }
    expect(await done).toBe(0);
    // A folder that does not exist is refused before anything starts.
    await expect(
      runApiCommand(['api', '--port', String(port), '--allow-folder', join(dir.path, 'nope')], {
        coreOptions,
        stdout: sink().stream,
        stderr: sink().stream,
        stopped: Promise.resolve(),
      }),
    ).rejects.toThrow('does not exist');
  });

  it('refuses a port that is not one', async () => {
    for (const bad of ['0', '70000', 'http']) {
      await expect(
        runApiCommand(['api', '--port', bad], {
          coreOptions,
          stdout: sink().stream,
          stderr: sink().stream,
          stopped: Promise.resolve(),
        }),
      ).rejects.toThrow(UsageError);
    }
  });
});
