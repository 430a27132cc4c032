// The built `citewise api` does not load citeproc-js (a megabyte of JavaScript to compile) until a
// request formats a citation: searching, as editors' pickers do at every keystroke, never needs it.
// A preload in the child process reports at exit whether citeproc's code is in its module cache (its
// package.json is read at start for the cache key's version, persist.ts; that is not the processor).
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, run, tempDir } from './helpers';
import { freePort } from '../../helpers/free-port';

const ROOT = join(__dirname, '..', '..', '..');
const built = existsSync(join(ROOT, 'out', 'cli', 'index.js'));

function rpc(
  port: number,
  method: string,
  params: unknown[],
): Promise<{ result?: unknown; error?: { message: string } }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/better-bibtex/json-rpc',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(JSON.parse(text) as { result?: unknown; error?: { message: string } }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(!built)(
  `citewise api loads the citation processor only to format${built ? '' : ' (skipped: out/cli is missing; run `npm run build`)'}`,
  () => {
    let data: ReturnType<typeof tempDir>;
    let probe: string;
    beforeAll(async () => {
      data = tempDir();
      probe = join(data.path, 'probe.cjs');
      // Worker threads inherit --require and report too: only the main thread's module cache counts.
      writeFileSync(
        probe,
        "if (require('node:worker_threads').isMainThread) process.on('exit', () => process.stderr.write(`citeproc-loaded:${Object.keys(require.cache).some((k) => /[\\\\/]citeproc[\\\\/].*\\.js$/.test(k))}\\n`));\n",
      );
      expect((await run(join(data.path, 'lib'), 'import', join(FIXTURES, 'library.bib'))).code).toBe(0);
    });
    afterAll(() => data.remove());

    /** Starts the built `citewise api`, runs `requests` once the library is open, stops it: whether citeproc was loaded. */
    async function session(requests: (port: number) => Promise<void>): Promise<boolean> {
      const port = await freePort();
      const child = spawn(
        process.execPath,
        [
          '--require',
          probe,
          join(ROOT, 'bin', 'citewise.mjs'),
          'api',
          '--port',
          String(port),
          '--no-open',
          '--data-dir',
          join(data.path, 'lib'),
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, CITEWISE_DATA_DIR: '', CITEWISE_SERVICE_URL: 'http://127.0.0.1:9' },
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        for (let waited = 0; !out.includes('Library:'); waited += 50) {
          if (child.exitCode !== null || waited > 60_000) throw new Error(`citewise api did not start: ${err}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        await requests(port);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
      const m = /citeproc-loaded:(true|false)/.exec(err);
      if (!m) throw new Error(`the probe did not report: ${err}`);
      return m[1] === 'true';
    }

    it('answers searches and citation keys without it', async () => {
      const loaded = await session(async (port) => {
        const found = await rpc(port, 'item.search', ['watson']);
        expect(JSON.stringify(found.result)).toContain('watson1953');
        expect((await rpc(port, 'item.citationkey', [['1:1']])).error).toBeUndefined();
      });
      expect(loaded).toBe(false);
    }, 120_000);

    it('loads it for the first formatted bibliography', async () => {
      const loaded = await session(async (port) => {
        const bib = await rpc(port, 'item.bibliography', [['watson1953'], { id: 'apa' }]);
        expect(bib.result).toMatch(/Watson/);
      });
      expect(loaded).toBe(true);
    }, 120_000);
  },
);
